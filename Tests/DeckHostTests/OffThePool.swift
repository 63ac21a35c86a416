import DeckDesktop
import Foundation

/// Runs blocking work on a thread of its own and waits for it without holding a thread.
///
/// A test that blocks on a socket whose server answers through a Swift task (the control socket) must not
/// block one of the cooperative pool's threads: there are only as many as cores, two on a small machine, and
/// two such tests at once left no thread for the server's task (they hung `swift test`).
func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
