import Foundation
import Synchronization

/// When a button may go down after the pointer moved, on a remote-desktop session (Mutter's or the portal's).
///
/// Mutter learns which surface is under the pointer only when it next looks after a motion, and a client of a seat
/// whose pointer is new (a headless session's virtual pointer) binds it a moment later: a press sent right after
/// the motion that brought the pointer there reached nobody, and the client saw only the release (3 first taps
/// of 4 on a headless Mutter). So a press waits until the motion before it has settled: `first` after the
/// session's first motion, `later` after any other motion to a new place; a press with no motion just before it
/// (a held button, a second click at the same place) does not wait.
///
/// `now` and `sleep` are the clock and the back-end thread's sleep; a test passes a clock it moves by hand.
final class PointerSettle: Sendable {
    private struct State {
        var motions = 0
        var lastMotion: ContinuousClock.Instant?
        var lastPlace: (x: Double, y: Double)?
    }

    private let state = Mutex(State())
    private let first: Duration
    private let later: Duration
    private let now: @Sendable () -> ContinuousClock.Instant
    private let sleep: @Sendable (Duration) -> Void

    init(
        first: Duration = .milliseconds(120), later: Duration = .milliseconds(25),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
        sleep: @escaping @Sendable (Duration) -> Void = { $0.block() }
    ) {
        self.first = first
        self.later = later
        self.now = now
        self.sleep = sleep
    }

    /// The pointer was moved to (`x`, `y`).
    func moved(x: Double, y: Double) {
        state.withLock { state in
            guard state.lastPlace.map({ $0.x != x || $0.y != y }) ?? true else { return }
            state.motions += 1
            state.lastPlace = (x, y)
            state.lastMotion = now()
        }
    }

    /// How long a press must still wait now.
    func waitBeforePress() -> Duration {
        state.withLock { state in
            guard let last = state.lastMotion else { return .zero }
            let settle = state.motions == 1 ? first : later
            state.lastMotion = nil
            return max(.zero, settle - (now() - last))
        }
    }

    /// Blocks the calling thread (the back-end's serial queue) until a press may go down.
    func holdBeforePress() { sleep(waitBeforePress()) }
}

extension Duration {
    /// Sleeps the calling thread this long (on a back-end's own serial queue, never on the cooperative pool).
    func block() {
        guard self > .zero else { return }
        let (seconds, attoseconds) = components
        usleep(UInt32(clamping: seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
    }
}
