/// The seam through which the host follows which app has the focus, for decks that follow the focused app
/// (DESIGN.md#deck, DESIGN.md#seams). X11 watches `_NET_ACTIVE_WINDOW` and the active window's `WM_CLASS`; sway
/// sends its window focus events; a desktop with no public way to tell gives `.unavailable(reason)`.
public struct FocusWatch: Sendable {
    /// Why this desktop cannot say which app has the focus; nil when it can.
    public var unavailable: String?
    /// Follows the focus until the stream's consumer stops: the focused app's names (X11: WM_CLASS instance and
    /// class; Wayland: the app id; empty: no app, or not known) first as soon as they are known, then at every
    /// change. The watch ends when the stream is dropped.
    public var follow: @Sendable () -> AsyncStream<[String]>

    public init(unavailable: String? = nil, follow: @escaping @Sendable () -> AsyncStream<[String]>) {
        self.unavailable = unavailable
        self.follow = follow
    }

    /// A desktop that cannot say which app has the focus: the stream ends at once.
    public static func unavailable(_ reason: String) -> FocusWatch {
        FocusWatch(unavailable: reason) { AsyncStream { $0.finish() } }
    }

    /// A focus the caller moves by hand (tests): `move` reports a newly focused app to every follower.
    public static func driven() -> (watch: FocusWatch, move: @Sendable ([String]) -> Void) {
        let (stream, continuation) = AsyncStream.makeStream(of: [String].self, bufferingPolicy: .bufferingNewest(8))
        return (FocusWatch { stream }, { continuation.yield($0) })
    }
}
