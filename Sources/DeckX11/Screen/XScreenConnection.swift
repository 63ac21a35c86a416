import CX11
import CXrandr
import DeckDesktop

/// Monitors and one-shot grabs on one `Display*` (held in an `XDisplay`, which opens, closes and notes a lost
/// connection). Used only on `X11Screen`'s queue.
final class XScreenConnection: XDisplayUser {
    let connection: XDisplay
    private let root: Window
    /// XRandR 1.5 or later: the server keeps a monitor list (XRRGetMonitors).
    private let hasMonitorList: Bool
    /// Cleared after the server refuses a shared segment, so later grabs go straight to XGetImage.
    private(set) var mayShareMemory: Bool

    /// Takes `connection` for the screen source (nothing else may use it from now on).
    init(_ connection: XDisplay) {
        XErrorTrap.install()
        self.connection = connection
        root = XDefaultRootWindow(connection.handle)
        hasMonitorList = Self.randrVersion(connection.handle) >= (1, 5)
        mayShareMemory = XShmQueryExtension(connection.handle) != 0
    }

    private static func randrVersion(_ display: OpaquePointer) -> (Int32, Int32) {
        var event: Int32 = 0
        var error: Int32 = 0
        var major: Int32 = 0
        var minor: Int32 = 0
        guard XRRQueryExtension(display, &event, &error) != 0, XRRQueryVersion(display, &major, &minor) != 0 else {
            return (0, 0)
        }
        return (major, minor)
    }

    /// The monitors, left to right; the whole screen as one when the server keeps no monitor list.
    func monitors() throws -> [Monitor] {
        let scale = X11Resources.scale(in: XResourceManagerString(display).map { String(cString: $0) })
        var monitors = hasMonitorList ? randrMonitors(scale: scale) : []
        if monitors.isEmpty {
            monitors = [Monitor(id: 0, name: "screen", frame: rootFrame(display, root), scale: scale)]
        }
        guard !isBroken else { throw ScreenSourceError.noDisplay }
        return Monitor.leftToRight(monitors)
    }

    private func randrMonitors(scale: Double) -> [Monitor] {
        var count: Int32 = 0
        // Active monitors only: an output that is connected but switched off shows nothing to capture.
        guard let list = XRRGetMonitors(display, root, 1, &count) else { return [] }
        defer { XRRFreeMonitors(list) }
        return (0..<Int(count)).map { index in
            let info = list[index]
            let frame = PixelRect(
                x: Int(info.x), y: Int(info.y), width: Int(info.width), height: Int(info.height))
            // The name atom identifies the monitor for as long as the server runs; the list index would not
            // survive a monitor being added on the left.
            return Monitor(id: Int(info.name), name: atomName(info.name), frame: frame, scale: scale)
        }
    }

    private func atomName(_ atom: Atom) -> String {
        guard let name = XGetAtomName(display, atom) else { return "monitor \(atom)" }
        defer { XFree(name) }
        return String(cString: name)
    }

    /// One picture of the monitor's rectangle (the part still on the screen, if the layout shrank since).
    func grab(_ monitor: Monitor) throws -> ScreenImage {
        let rect = monitor.frame.clamped(to: rootFrame(display, root))
        guard !rect.isEmpty else { throw ScreenSourceError.noSuchMonitor }
        let picture = try sharedGrab(rect) ?? copiedGrab(rect)
        guard !isBroken else { throw ScreenSourceError.noDisplay }
        return picture
    }

    /// Through a shared segment; nil when the server will not share memory with us (then never tried again).
    private func sharedGrab(_ rect: PixelRect) throws -> ScreenImage? {
        guard mayShareMemory else { return nil }
        guard let shared = XSharedImage(connection: connection, width: rect.width, height: rect.height) else {
            mayShareMemory = false
            return nil
        }
        guard shared.read(from: root, x: rect.x, y: rect.y) else {
            throw ScreenSourceError.captureFailed("XShmGetImage failed (error \(XErrorTrap.last(display)))")
        }
        return try Self.picture(of: shared.image)
    }

    /// Through the socket, for servers that refuse shared memory.
    private func copiedGrab(_ rect: PixelRect) throws -> ScreenImage {
        XErrorTrap.clear(display)
        guard
            let image = XGetImage(
                display, root, Int32(rect.x), Int32(rect.y), UInt32(rect.width), UInt32(rect.height),
                cx11_all_planes(), ZPixmap)
        else {
            throw ScreenSourceError.captureFailed("XGetImage failed (error \(XErrorTrap.last(display)))")
        }
        defer { _ = cx11_destroy_image(image) }
        return try Self.picture(of: image)
    }

    /// Copies an image's pixels out, if they are 32-bit BGRx/BGRA in memory (every 24- and 32-bit TrueColor
    /// visual on a little-endian machine); 16-bit and palette displays are not supported.
    private static func picture(of image: UnsafeMutablePointer<XImage>) throws -> ScreenImage {
        let info = image.pointee
        guard info.bits_per_pixel == 32, info.byte_order == LSBFirst, info.red_mask == 0xff_0000,
            info.green_mask == 0xff00, info.blue_mask == 0xff, let data = info.data
        else {
            throw ScreenSourceError.captureFailed(
                "unsupported pixel layout (\(info.bits_per_pixel) bits per pixel, depth \(info.depth))")
        }
        let stride = Int(info.bytes_per_line)
        let bytes = UnsafeRawBufferPointer(start: data, count: stride * Int(info.height))
        return ScreenImage(
            width: Int(info.width), height: Int(info.height), stride: stride,
            format: info.depth == 32 ? .bgra : .bgrx, pixels: Array(bytes))
    }
}

@available(*, unavailable) extension XScreenConnection: Sendable {}
