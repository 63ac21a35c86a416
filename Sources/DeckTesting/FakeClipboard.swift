import DeckDesktop
import DeckKit
import Synchronization

extension ClipboardAccess {
    /// A clipboard the test drives: `FakeClipboard.copy` stands for another app copying.
    public static func fake(_ clipboard: FakeClipboard) -> ClipboardAccess {
        ClipboardAccess(
            write: { clipboard.written($0) }, follow: { clipboard.follow() },
            focusedWindowClass: { clipboard.windowClass })
    }
}

/// The test's side of `ClipboardAccess.fake`: what was written, who follows, copies made "on the computer".
public final class FakeClipboard: Sendable {
    private struct State {
        var writes: [ClipboardContent] = []
        var feeds: [UInt64: AsyncStream<ClipboardCopy>.Continuation] = [:]
        var serial: UInt64 = 0
    }
    private let state = Mutex(State())
    private let result: ActionResult
    /// What `focusedWindowClass` answers.
    public let windowClass: [String]

    /// Writes answer `result`; the focused window has `windowClass`.
    public init(result: ActionResult = .ok, windowClass: [String] = ["gedit", "Gedit"]) {
        self.result = result
        self.windowClass = windowClass
    }

    /// Everything written to the clipboard, in order.
    public var writes: [ClipboardContent] { state.withLock { $0.writes } }

    /// How many follows are running.
    public var followers: Int { state.withLock { $0.feeds.count } }

    /// Another app copied: every running follow reads `copy`.
    public func copy(_ copy: ClipboardCopy) {
        for feed in state.withLock({ Array($0.feeds.values) }) { feed.yield(copy) }
    }

    func written(_ content: ClipboardContent) -> ActionResult {
        state.withLock { $0.writes.append(content) }
        return result
    }

    func follow() -> ClipboardFeed {
        let id = state.withLock { state -> UInt64 in
            state.serial += 1
            return state.serial
        }
        let (feed, continuation) = ClipboardFeed.make { [weak self] in
            _ = self?.state.withLock { $0.feeds.removeValue(forKey: id) }
        }
        state.withLock { $0.feeds[id] = continuation }
        return feed
    }
}
