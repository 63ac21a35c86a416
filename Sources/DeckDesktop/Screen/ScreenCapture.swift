import Glibc

/// One frame of a running capture, lent to the frame handler for the length of the call: the pixels live in
/// the back-end's own buffer (an XShm segment, a PipeWire buffer) and are reused for the next frame, so the
/// handler must finish with them before it returns (the encoder converts them to I420 in that time).
public struct CapturedFrame {
    public var width: Int
    public var height: Int
    /// Bytes from the start of one row to the start of the next, at least `width * 4`.
    public var stride: Int
    public var format: PixelFormat
    /// `stride * (height - 1) + width * 4` bytes at least; valid only during the handler call.
    public var pixels: UnsafeRawPointer
    /// The parts that changed since the frame before, in the frame's own pixels (monitor-relative); the whole
    /// frame for the first one and after `refresh()`.
    public var damage: [PixelRect]
    /// When the pixels were read, in microseconds since the Unix epoch (the host's clock).
    public var capturedAt: UInt64

    /// A frame from its parts.
    public init(
        width: Int, height: Int, stride: Int, format: PixelFormat, pixels: UnsafeRawPointer, damage: [PixelRect],
        capturedAt: UInt64
    ) {
        self.width = width
        self.height = height
        self.stride = stride
        self.format = format
        self.pixels = pixels
        self.damage = damage
        self.capturedAt = capturedAt
    }

    /// Microseconds since the Unix epoch now.
    public static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return UInt64(time.tv_sec) * 1_000_000 + UInt64(time.tv_nsec / 1000)
    }
}

/// What a capture of one monitor reports, on the back-end's own thread (X11: its capture thread; Wayland:
/// PipeWire's). The handlers are called one at a time, never after `ScreenCapture.stop()` has returned.
public struct CaptureHandlers: Sendable {
    /// A frame: the monitor changed (or `refresh()` asked for one). Not called while the screen is still.
    public var frame: @Sendable (CapturedFrame) -> Void
    /// The capture ended by itself (the display went away, the monitor was unplugged, the compositor ended
    /// the session); no frame follows. Not called after `stop()`.
    public var ended: @Sendable (ScreenSourceError) -> Void

    /// Handlers from their closures.
    public init(
        frame: @escaping @Sendable (CapturedFrame) -> Void, ended: @escaping @Sendable (ScreenSourceError) -> Void
    ) {
        self.frame = frame
        self.ended = ended
    }
}

/// A running capture of one monitor (the screen source of DESIGN.md#viewing, its continuous half). Frames arrive only
/// when something changed, at most `fps` per second; an unchanged screen costs no frame and next to no CPU.
public protocol ScreenCapture: AnyObject, Sendable {
    /// The most frames per second to deliver from now on.
    func setFPS(_ fps: Int)
    /// Deliver the next frame even if nothing changed (the encoder needs a picture for a keyframe).
    func refresh()
    /// Ends the capture; when it returns no handler is running and none will be called again. Idempotent.
    func stop()
    /// Why the desktop takes no pointer or keys while this capture runs (the user shared the screen but not remote
    /// control); nil when it does.
    var inputRefusal: String? { get }
}

extension ScreenCapture {
    public var inputRefusal: String? { nil }
}

/// Starts a capture of `monitor` at `fps`; throws a `ScreenSourceError` when it cannot start. The first frame
/// (the whole monitor) follows as soon as the back-end has one.
public typealias StartCapture =
    @Sendable (_ monitor: Monitor, _ fps: Int, _ handlers: CaptureHandlers) throws ->
    any ScreenCapture
