/// Where a touch on the device lands on the host, and how big the video may be.
///
/// Two steps keep device and host apart: the device turns a touch into a position inside the video
/// (0…1 on each axis), the host turns that into a pixel of the chosen monitor. Neither side needs to
/// know the other's scale.
public enum ScreenGeometry {
    /// The smallest long side a device may ask for.
    public static let minSide = 320
    /// The largest long side a device may ask for.
    public static let maxSide = 3840

    /// The video size for a monitor of `width`×`height` pixels when the device asks for `maxSide`.
    ///
    /// The request is clamped to 320…3840, the monitor is never upscaled, the aspect is kept and both
    /// sides are even (H.264 works on 2×2 chroma blocks).
    public static func fit(width: Int, height: Int, maxSide requested: Int) -> PixelSize {
        let target = Double(min(max(requested, minSide), maxSide))
        let scale = min(1, target / Double(max(width, height, 1)))
        return PixelSize(
            width: even(Double(width) * scale, atMost: width),
            height: even(Double(height) * scale, atMost: height))
    }

    /// Rounds to the nearest even number, but never above the monitor's own (even) size.
    private static func even(_ value: Double, atMost source: Int) -> Int {
        let nearest = Int((value / 2).rounded()) * 2
        let ceiling = source - source % 2
        return max(2, min(nearest, ceiling))
    }

    /// The rectangle the video occupies when it is fitted (aspect kept, centred) into `view`.
    public static func videoRect(video: Size, in view: Size) -> Rect {
        guard video.width > 0, video.height > 0 else { return Rect(x: 0, y: 0, width: 0, height: 0) }
        let scale = min(view.width / video.width, view.height / video.height)
        let width = video.width * scale
        let height = video.height * scale
        return Rect(x: (view.width - width) / 2, y: (view.height - height) / 2, width: width, height: height)
    }

    /// A touch in the view → a position inside the video (0…1), or nil on the letterbox.
    ///
    /// The view shows the video scaled by `zoom` about the view's centre and then moved by `offset`;
    /// this undoes both (offset first, then zoom), then the letterbox.
    public static func normalized(
        touch: Point, view: Size, video: Size, zoom: Double = 1, offset: Size = .zero
    ) -> Point? {
        let rect = videoRect(video: video, in: view)
        guard zoom > 0, rect.width > 0, rect.height > 0 else { return nil }
        let centre = Point(x: view.width / 2, y: view.height / 2)
        let unzoomed = Point(
            x: centre.x + (touch.x - offset.width - centre.x) / zoom,
            y: centre.y + (touch.y - offset.height - centre.y) / zoom)
        guard rect.containsInclusive(unzoomed) else { return nil }
        return Point(x: (unzoomed.x - rect.minX) / rect.width, y: (unzoomed.y - rect.minY) / rect.height)
    }

    /// A position inside the video (0…1) → a whole pixel of the host's desktop inside `display`.
    ///
    /// `display` is the monitor's rectangle on the desktop; monitors left of or above the primary one
    /// start at negative coordinates. 1.0 lands on the last pixel, not on the neighbour's first.
    public static func global(normalized point: Point, display: Rect) -> Point {
        let x = (display.minX + unit(point.x) * display.width).rounded(.down)
        let y = (display.minY + unit(point.y) * display.height).rounded(.down)
        return Point(x: min(x, display.maxX - 1), y: min(y, display.maxY - 1))
    }

    /// Clamps to 0…1; anything that is not a number counts as 0.
    private static func unit(_ value: Double) -> Double {
        value.isNaN ? 0 : min(max(value, 0), 1)
    }

    /// Limits the pan so no empty space shows beyond the zoomed video.
    ///
    /// Zoomed by `zoom`, the video may move half of its growth each way. `covered` is the height the
    /// on-screen keyboard covers at the bottom: the view may then also move up by that much, even at 1×,
    /// so the covered part can be brought into sight.
    public static func clampOffset(_ offset: Size, zoom: Double, view: Size, covered: Double = 0) -> Size {
        // Zooming grows the video by (zoom − 1) × its size, half of it on each side.
        let growth = max(0, zoom - 1) / 2
        let maxX = max(0, view.width * growth)
        let maxY = max(0, view.height * growth)
        let minY = -maxY - max(0, covered)
        return Size(width: min(max(offset.width, -maxX), maxX), height: min(max(offset.height, minY), maxY))
    }
}
