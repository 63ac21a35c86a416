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
/// `@unchecked Sendable`: `status` and `waiters` are written by the reaper thread and the waiters' timers,
/// always under `lock`; each waiter is taken out of `waiters` under the lock before it is resumed, so it is
/// resumed exactly once.
final class ChildExit: @unchecked Sendable {
    let pid: pid_t
    private let lock = NSLock()
    private var status: ExitStatus?
    private var waiters: [UInt64: CheckedContinuation<ExitStatus?, Never>] = [:]
    private var nextWaiter: UInt64 = 0

    init(pid: pid_t) {
        self.pid = pid
        // A blocking waitpid on a thread of its own, not the cooperative pool: a launched app may run for
        // days. waitpid(pid) rather than waitpid(-1) leaves other children (Foundation.Process) alone.
        let reaper = Thread { [self] in
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
            let ended: ExitStatus = (raw & 0x7f) == 0 ? .exited((raw >> 8) & 0xff) : .signaled(raw & 0x7f)
            let woken = lock.withLock {
                status = ended
                defer { waiters = [:] }
                return Array(waiters.values)
            }
            for waiter in woken { waiter.resume(returning: ended) }
        }
        reaper.stackSize = 64 * 1024
        reaper.start()
    }

    /// The exit status if the child has ended.
    var ended: ExitStatus? { lock.withLock { status } }

    /// Waits until the child ends (resumed by the reaper the moment it does) or `limit` passes (then nil: still
    /// running). A command that ends in 3 ms is answered in 3 ms, not at the next tick of a poll.
    func wait(upTo limit: Duration) async -> ExitStatus? {
        await withCheckedContinuation { continuation in
            let waiter: UInt64? = lock.withLock {
                guard status == nil else { return nil }
                nextWaiter += 1
                waiters[nextWaiter] = continuation
                return nextWaiter
            }
            guard let waiter else { return continuation.resume(returning: ended) }
            Task { [self] in
                try? await Task.sleep(for: limit)
                lock.withLock { waiters.removeValue(forKey: waiter) }?.resume(returning: nil)
            }
        }
    }
}
