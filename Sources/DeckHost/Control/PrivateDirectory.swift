import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The directory that holds the control socket when it cannot live in the config dir. Trusted only when it
/// is a real directory (not a link), owned by this user, with no access for anyone else: whoever could create
/// or write it could put their own socket there and answer the CLI in the daemon's place.
enum PrivateDirectory {
    /// Why the directory is not trusted; each says what to do.
    enum Untrusted: Error, Equatable, CustomStringConvertible {
        /// Something other than a directory (a file or a symbolic link) has its name.
        case notADirectory(String)
        /// Another user owns it.
        case wrongOwner(String, owner: UInt32)
        /// Group or others have some access to it.
        case openToOthers(String, mode: UInt32)
        /// It could not be created or examined.
        case unusable(String, Int32)

        var description: String {
            let fix = "remove it (or set XDG_RUNTIME_DIR to a private directory) and start `touchdeck serve` again"
            switch self {
            case .notADirectory(let path):
                return "refusing the control socket directory \(path): it is not a plain directory; \(fix)"
            case .wrongOwner(let path, let owner):
                return "refusing the control socket directory \(path): it belongs to uid \(owner), not to you "
                    + "(uid \(getuid())), so another user could answer in the daemon's place; \(fix)"
            case .openToOthers(let path, let mode):
                return "refusing the control socket directory \(path): its mode is \(String(mode, radix: 8)), "
                    + "not 700, so other users could put their own socket there; \(fix)"
            case .unusable(let path, let code):
                return "control socket directory \(path): \(String(cString: strerror(code)))"
            }
        }
    }

    /// The daemon's side: creates the directory (mode 0700) unless it exists, then checks it.
    static func prepare(_ path: String) throws {
        if mkdir(path, 0o700) != 0 && errno != EEXIST { throw Untrusted.unusable(path, errno) }
        try check(path)
    }

    /// Both sides: throws unless `path` is a directory owned by this user with no access for others.
    static func check(_ path: String) throws {
        var info = stat()
        // lstat: a symbolic link planted under the expected name is refused, not followed.
        guard lstat(path, &info) == 0 else { throw Untrusted.unusable(path, errno) }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw Untrusted.notADirectory(path) }
        guard info.st_uid == getuid() else { throw Untrusted.wrongOwner(path, owner: info.st_uid) }
        guard info.st_mode & 0o077 == 0 else { throw Untrusted.openToOthers(path, mode: info.st_mode & 0o7777) }
    }
}
