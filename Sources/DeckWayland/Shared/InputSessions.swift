import Foundation

/// A remote-desktop session input can go through (Mutter's, the RemoteDesktop portal's).
protocol InputSession: AnyObject, Sendable {
    /// Whether it ended (stopped by us or by the compositor).
    var hasEnded: Bool { get }
    /// Ends it; idempotent.
    func end()
}

/// Where a Wayland back-end's input goes: through the newest running capture's session (its stream places the
/// pointer), else through an input-only session of its own, opened when needed and ended after `idle` seconds
/// without use (GNOME Shell shows an open remote-desktop session in its top bar, KDE asks the user for one).
///
/// `@unchecked Sendable`: `captures` is guarded by `lock`; `inputOnly` and `uses` are touched only on `queue`, the
/// back-end's input queue, which also keeps input events in the order they were asked for.
final class InputSessions<Session: InputSession>: @unchecked Sendable {
    let queue: DispatchQueue
    private let idle: Double
    private let lock = NSLock()
    private var captures: [Session] = []
    private var inputOnly: Session?
    private var uses = 0

    init(queue: DispatchQueue, idle: Double) {
        self.queue = queue
        self.idle = idle
    }

    /// A capture's session started: input goes through it while it is the newest running one.
    func started(_ session: Session) { lock.withLock { captures.append(session) } }
    func ended(_ session: Session) { lock.withLock { captures.removeAll { $0 === session } } }

    /// Whether an input-only session is open now.
    var hasInputOnly: Bool { queue.sync { inputOnly != nil } }

    /// Runs `body` on the queue (where `current` and `forget` may be called) and returns what it returns.
    func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in queue.async { continuation.resume(returning: body()) } }
    }

    /// On the queue: the newest running capture's session, else the input-only one (`open`ed when missing), each
    /// use putting off its end by `idle` seconds.
    func current<Failure: Error>(open: () -> Result<Session, Failure>) -> Result<Session, Failure> {
        if let capture = lock.withLock({ captures.last(where: { !$0.hasEnded }) }) { return .success(capture) }
        if let inputOnly, !inputOnly.hasEnded {
            endWhenIdle()
            return .success(inputOnly)
        }
        let opened = open()
        if case .success(let session) = opened {
            inputOnly = session
            endWhenIdle()
        }
        return opened
    }

    /// On the queue: after a failed call, ends and forgets `session` if it is the input-only one (the next call
    /// opens another).
    func forget(_ session: Session) {
        guard session === inputOnly else { return }
        session.end()
        inputOnly = nil
    }

    /// On the queue: counts a use and ends the input-only session `idle` seconds later unless it was used again.
    private func endWhenIdle() {
        uses += 1
        let use = uses
        queue.asyncAfter(deadline: .now() + idle) {
            guard use == self.uses, let session = self.inputOnly else { return }
            session.end()
            self.inputOnly = nil
        }
    }
}
