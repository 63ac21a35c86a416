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
final class PointerSettle: Sendable {
    private struct State {
        var motions = 0
        var lastMotion: ContinuousClock.Instant?
        var lastPlace: (x: Double, y: Double)?
    }

    private let state = Mutex(State())
    private let first: Duration
    private let later: Duration

    init(first: Duration = .milliseconds(120), later: Duration = .milliseconds(25)) {
        self.first = first
        self.later = later
    }

    /// The pointer was moved to (`x`, `y`).
    func moved(x: Double, y: Double) {
        state.withLock { state in
            guard state.lastPlace.map({ $0.x != x || $0.y != y }) ?? true else { return }
            state.motions += 1
            state.lastPlace = (x, y)
            state.lastMotion = .now
        }
    }

    /// How long a press must still wait now.
    func waitBeforePress() -> Duration {
        state.withLock { state in
            guard let last = state.lastMotion else { return .zero }
            let settle = state.motions == 1 ? first : later
            state.lastMotion = nil
            return max(.zero, settle - (ContinuousClock.now - last))
        }
    }
}

extension Duration {
    /// Sleeps the calling thread this long (on a back-end's own serial queue, never on the cooperative pool).
    func block() {
        guard self > .zero else { return }
        let (seconds, attoseconds) = components
        usleep(UInt32(clamping: seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
    }
}
