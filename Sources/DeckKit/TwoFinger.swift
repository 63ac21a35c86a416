/// What a two-finger gesture on the screen view does, decided once per gesture.
///
/// Pinch and two-finger swipe arrive together, so the first clear movement picks one and it sticks
/// until the fingers lift: a scroll whose fingers drift apart a little must not turn into a zoom.
public enum TwoFinger: String, Sendable, CaseIterable {
    /// Not enough movement yet to tell.
    case undecided
    /// Local zoom of the video; nothing is sent to the host.
    case zoom
    /// Scroll on the host.
    case scroll
    /// Move the zoomed (or keyboard-lifted) video locally; nothing is sent to the host.
    case pan

    /// Spread change (fraction of the starting distance between the fingers) above which it is a zoom.
    public static let zoomSpread = 0.08
    /// Distance in points the fingers must travel together before it is a scroll or pan.
    public static let moveDistance = 12.0
    /// Zoom levels above this count as zoomed in; pinching back to 1× leaves tiny leftovers.
    public static let zoomedAbove = 1.01

    /// The mode for this gesture.
    ///
    /// - Parameters:
    ///   - spread: distance between the fingers now ÷ distance when they landed.
    ///   - moved: how far the fingers' midpoint has moved, in points.
    ///   - zoom: the view's current zoom.
    ///   - covered: height the on-screen keyboard covers; while it covers, swiping lifts the view.
    public static func decide(
        _ current: TwoFinger, spread: Double, moved: Double, zoom: Double, covered: Double = 0
    ) -> TwoFinger {
        if current != .undecided { return current }
        if abs(spread - 1) > zoomSpread { return .zoom }
        guard moved > moveDistance else { return .undecided }
        return zoom > zoomedAbove || covered > 0 ? .pan : .scroll
    }
}
