/// A rectangle in the desktop's pixel coordinates (the X root window's, or a Wayland output's).
public struct PixelRect: Equatable, Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    /// A rectangle from its origin and size.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Whether it covers no pixel.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The part of `self` inside `other` (empty when they do not meet).
    public func clamped(to other: PixelRect) -> PixelRect {
        let left = max(x, other.x)
        let top = max(y, other.y)
        let right = min(x + width, other.x + other.width)
        let bottom = min(y + height, other.y + other.height)
        return PixelRect(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top))
    }
}

/// One monitor of the desktop, as a screen source lists it.
public struct Monitor: Equatable, Hashable, Sendable {
    /// Chosen by the back-end, stable while its desktop session lasts (X11: the monitor's name atom), so a
    /// device can list once and ask for the same monitor later. This is the `displays` entry's `id`.
    public var id: Int
    /// The name the desktop gives it (X11: the XRandR monitor name, usually the output's, e.g. `HDMI-1`).
    public var name: String
    /// Where it sits on the desktop, in pixels.
    public var frame: PixelRect
    /// Device pixels per layout pixel (X11 has no per-monitor scale: the desktop's `Xft.dpi` / 96).
    public var scale: Double

    /// A monitor from its parts.
    public init(id: Int, name: String, frame: PixelRect, scale: Double = 1) {
        self.id = id
        self.name = name
        self.frame = frame
        self.scale = scale
    }

    /// Monitors left to right (then top to bottom), the order `displays` lists them in.
    public static func leftToRight(_ monitors: [Monitor]) -> [Monitor] {
        monitors.sorted { ($0.frame.x, $0.frame.y, $0.name) < ($1.frame.x, $1.frame.y, $1.name) }
    }
}
