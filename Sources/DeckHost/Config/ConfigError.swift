import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Failures of the config store. Messages name files, never their contents.
public enum ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A system call failed; the operation and errno are kept.
    case system(String, Int32)
    /// The config directory could not be created or is not a directory.
    case directory(String)
    /// The file was unreadable and could not be moved aside, so it is not written.
    case frozen(String)

    public var description: String {
        switch self {
        case .system(let operation, let code): "\(operation): \(String(cString: strerror(code)))"
        case .directory(let path): "config directory \(path) is not usable"
        case .frozen(let name): "\(name) is unreadable and was not moved aside; not overwriting it"
        }
    }
}
