import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Why a program could not be started.
enum SpawnError: Error, Equatable {
    /// `posix_spawn` refused, with its errno.
    case spawnFailed(program: String, errno: Int32)
}

extension SpawnError: CustomStringConvertible {
    var description: String {
        switch self {
        case .spawnFailed(let program, let code): "\(program): \(String(cString: strerror(code)))"
        }
    }
}

/// Starts programs in their own session (`setsid`), stdin on /dev/null and no inherited descriptors, so
/// they outlive the host, never get its terminal's signals and do not keep its sockets open.
enum DetachedProcess {
    /// Starts `arguments[0]` (an absolute path) and returns a handle that reaps it; its stdout and stderr go to
    /// `output` (or /dev/null).
    static func spawn(
        _ arguments: [String], environment: [String: String], directory: String?, output: Int32? = nil
    ) throws(SpawnError) -> ChildExit {
        ChildExit(
            pid: try launch(arguments, environment: environment, directory: directory, output: output, errors: output))
    }

    /// Starts `arguments[0]` (an absolute path) with stdout to `output` and stderr to `errors` (each /dev/null when
    /// nil) and returns its pid, which is also its process group's: for a caller that reaps it itself.
    static func launch(
        _ arguments: [String], environment: [String: String], directory: String?, output: Int32?, errors: Int32?
    ) throws(SpawnError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        redirect(&actions, output: output, errors: errors, directory: directory)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        detach(&attributes)
        return try start(arguments, environment: environment, actions: &actions, attributes: &attributes)
    }

    /// stdin from /dev/null, stdout to `output` and stderr to `errors` (or /dev/null), nothing else inherited.
    private static func redirect(
        _ actions: inout posix_spawn_file_actions_t, output: Int32?, errors: Int32?, directory: String?
    ) {
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for (descriptor, target) in [(Int32(1), output), (2, errors)] {
            if let target {
                posix_spawn_file_actions_adddup2(&actions, target, descriptor)
            } else {
                posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0)
            }
        }
        GlibcExtras.closeFrom3(&actions)
        if let directory { GlibcExtras.changeDirectory(&actions, directory) }
    }

    /// A new session, default signal dispositions and an empty signal mask.
    private static func detach(_ attributes: inout posix_spawnattr_t) {
        // The host may block or ignore signals (SIGPIPE is ignored by most servers); ignored dispositions
        // survive exec, so the child gets every signal reset to default and an empty mask.
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        let flags = GlibcExtras.spawnSetsid | Int32(POSIX_SPAWN_SETSIGDEF) | Int32(POSIX_SPAWN_SETSIGMASK)
        posix_spawnattr_setflags(&attributes, Int16(flags))
    }

    private static func start(
        _ arguments: [String], environment: [String: String],
        actions: inout posix_spawn_file_actions_t, attributes: inout posix_spawnattr_t
    ) throws(SpawnError) -> pid_t {
        let argv = CStringArray(arguments)
        let envp = CStringArray(environment.map { "\($0.key)=\($0.value)" })
        var pid: pid_t = 0
        var result = posix_spawn(&pid, arguments[0], &actions, &attributes, argv.pointers, envp.pointers)
        // ETXTBSY: a script written a moment ago is still open for writing in a child another thread is
        // forking (until that child's exec closes it); it clears within microseconds.
        for _ in 0..<20 where result == ETXTBSY {
            usleep(5_000)
            result = posix_spawn(&pid, arguments[0], &actions, &attributes, argv.pointers, envp.pointers)
        }
        guard result == 0 else { throw .spawnFailed(program: arguments[0], errno: result) }
        return pid
    }
}

/// A NULL-terminated `char *[]` that frees its strings.
private final class CStringArray {
    let pointers: [UnsafeMutablePointer<CChar>?]

    init(_ strings: [String]) {
        pointers = strings.map { strdup($0) } + [nil]
    }

    deinit {
        for pointer in pointers { free(pointer) }
    }
}

/// glibc extensions the Swift Glibc module does not import.
enum GlibcExtras {
    /// `POSIX_SPAWN_SETSID` (glibc ≥ 2.26): a macro behind `_GNU_SOURCE`, so Swift does not see it.
    static let spawnSetsid: Int32 = 0x80

    private typealias FileActionWithPath =
        @convention(c) (
            UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>
        ) -> Int32
    private typealias FileActionWithFD =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// `posix_spawn_file_actions_addchdir_np` (glibc ≥ 2.29), looked up at run time because the header
    /// declares it only under `_GNU_SOURCE`.
    static func changeDirectory(_ actions: inout posix_spawn_file_actions_t, _ path: String) {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addchdir_np") else { return }
        _ = unsafeBitCast(symbol, to: FileActionWithPath.self)(&actions, path)
    }

    /// `posix_spawn_file_actions_addclosefrom_np(actions, 3)` (glibc ≥ 2.34), when the C library has it.
    static func closeFrom3(_ actions: inout posix_spawn_file_actions_t) {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: FileActionWithFD.self)(&actions, 3)
    }
}
