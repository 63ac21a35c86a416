import DeckKit

/// The seam through which the host reaches the computer's clipboard (DESIGN.md#clipboard, DESIGN.md#seams): it
/// sets it to what a device pasted, follows it while a device allowed to views, and says which window has the
/// focus (a terminal pastes with Ctrl+Shift+V). The X11 back-end is `ClipboardAccess.x11` (XFixes selection
/// events, the host owning the selection it sets); a desktop whose clipboard cannot be reached gives
/// `.unavailable(reason)`.
public struct ClipboardAccess: Sendable {
    /// Why this desktop's clipboard cannot be reached; nil when it can.
    public var unavailable: String?
    /// Makes `content` the computer's clipboard (kept until another app copies); returns once apps can paste it.
    public var write: @Sendable (ClipboardContent) async -> ActionResult
    /// Follows the computer's clipboard: every copy another app makes from now on, read within the limits of
    /// `ClipboardRules`, until the feed is stopped. Nothing is read before or after.
    public var follow: @Sendable () -> ClipboardFeed
    /// The focused window's class names (X11: WM_CLASS instance and class; Wayland: the app id); empty when
    /// unknown.
    public var focusedWindowClass: @Sendable () async -> [String]
    /// The primary selection (X11's PRIMARY: the text last selected, pasted with the middle button), set and
    /// followed beside the clipboard for a device whose user asked for it; nil on a desktop where the host does
    /// not reach one.
    public var primary: PrimarySelection?

    public init(
        unavailable: String? = nil, write: @escaping @Sendable (ClipboardContent) async -> ActionResult,
        follow: @escaping @Sendable () -> ClipboardFeed,
        focusedWindowClass: @escaping @Sendable () async -> [String], primary: PrimarySelection? = nil
    ) {
        self.unavailable = unavailable
        self.write = write
        self.follow = follow
        self.focusedWindowClass = focusedWindowClass
        self.primary = primary
    }

    /// A desktop whose clipboard the host cannot reach: writes fail with `reason`, the feed stays silent.
    public static func unavailable(_ reason: String) -> ClipboardAccess {
        ClipboardAccess(
            unavailable: reason, write: { _ in .failed(reason) }, follow: { ClipboardFeed.silent },
            focusedWindowClass: { [] })
    }

    /// Traps if called: for tests that must never touch the clipboard.
    public static let unimplemented = ClipboardAccess(
        write: { _ in trap("write") }, follow: { trap("follow") }, focusedWindowClass: { trap("focusedWindowClass") })

    private static func trap(_ call: String) -> Never {
        preconditionFailure("ClipboardAccess.\(call) called in a test that does not expect the clipboard")
    }
}

/// The primary selection's half of the seam: set and followed as the clipboard is (`ClipboardAccess.write` and
/// `follow`), within the same limits.
public struct PrimarySelection: Sendable {
    public var write: @Sendable (ClipboardContent) async -> ActionResult
    public var follow: @Sendable () -> ClipboardFeed

    public init(
        write: @escaping @Sendable (ClipboardContent) async -> ActionResult,
        follow: @escaping @Sendable () -> ClipboardFeed
    ) {
        self.write = write
        self.follow = follow
    }
}

/// The copies a follow reads, in order, and how to end it. Stopping ends `copies` and forgets anything the
/// back-end was still reading.
public struct ClipboardFeed: Sendable {
    public let copies: AsyncStream<ClipboardCopy>
    private let end: @Sendable () -> Void

    /// A feed the back-end fills through `continuation`; `stop` finishes it, then calls `stopped`.
    public static func make(stopped: @escaping @Sendable () -> Void) -> (
        ClipboardFeed, AsyncStream<ClipboardCopy>.Continuation
    ) {
        // The newest few only: a viewer wants the latest copy, not every one made while it was slow.
        let (copies, continuation) = AsyncStream.makeStream(
            of: ClipboardCopy.self, bufferingPolicy: .bufferingNewest(4))
        let feed = ClipboardFeed(copies: copies) {
            continuation.finish()
            stopped()
        }
        return (feed, continuation)
    }

    private init(copies: AsyncStream<ClipboardCopy>, end: @escaping @Sendable () -> Void) {
        self.copies = copies
        self.end = end
    }

    /// Ends the follow.
    public func stop() { end() }

    /// A feed that never yields (a desktop without a clipboard).
    public static var silent: ClipboardFeed {
        let (copies, continuation) = AsyncStream.makeStream(of: ClipboardCopy.self)
        return ClipboardFeed(copies: copies) { continuation.finish() }
    }
}
