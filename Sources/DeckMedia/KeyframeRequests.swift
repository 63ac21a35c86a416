import Synchronization

/// A flag any thread may raise ("the next frame must be an IDR"); the encoder's thread takes it.
///
/// Requests come from the session (viewer joined, client decode error, frames dropped) while the encoder
/// runs on its own thread; several requests before the next frame make one keyframe.
public final class KeyframeRequests: Sendable {
    private let pending = Mutex(false)

    public init() {}

    /// Asks for a keyframe on the next frame.
    public func request() {
        pending.withLock { $0 = true }
    }

    /// Whether a keyframe was asked for since the last call; clears the request.
    public func take() -> Bool {
        pending.withLock { value in
            defer { value = false }
            return value
        }
    }
}
