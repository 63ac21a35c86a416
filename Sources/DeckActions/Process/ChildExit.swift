import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// How a child process ended.
enum ExitStatus: Equatable, Sendable {
    /// It called exit with this code.
    case exited(Int32)
    /// A signal ended it.
    case signaled(Int32)
}

/// Reaps one child so it never lingers as a zombie, and lets callers ask how it ended.
///
/// `@unchecked Sendable`: `status` is written once by the reaper thread and read by anyone, always
/// under `lock`.
final class ChildExit: @unchecked Sendable {
    let pid: pid_t
    private let lock = NSLock()
    private var status: ExitStatus?

    init(pid: pid_t) {
        self.pid = pid
        // A blocking waitpid on a thread of its own, not the cooperative pool: a launched app may run for
        // days. waitpid(pid) rather than waitpid(-1) leaves other children (Foundation.Process) alone.
        let reaper = Thread { [self] in
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
            let ended: ExitStatus = (raw & 0x7f) == 0 ? .exited((raw >> 8) & 0xff) : .signaled(raw & 0x7f)
            lock.withLock { status = ended }
        }
        reaper.stackSize = 64 * 1024
        reaper.start()
    }

    /// The exit status if the child has ended.
    var ended: ExitStatus? { lock.withLock { status } }

    /// Waits until the child ends or `limit` passes (then nil: still running). Polls, because the reaper
    /// thread cannot resume an async caller that may have given up already.
    func wait(upTo limit: Duration) async -> ExitStatus? {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        while clock.now < deadline {
            if let ended { return ended }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return ended
    }
}
