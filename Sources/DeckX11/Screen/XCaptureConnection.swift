import CX11
import CXDamage
import CXrandr
import DeckDesktop

/// The capture thread's own `Display*` and what it made there: a damage object on the root window, a region to
/// fetch damage into, one shared image of the monitor's size (reused for every frame) and the cursor's picture.
/// Freed in `deinit`. Made by the thread that starts the capture, then handed to the capture thread, the only
/// one that uses it from then on (Xlib connections are never shared between threads).
final class XCaptureConnection {
    /// Opens, closes and notes a lost connection.
    private let connection: XDisplay
    private var display: OpaquePointer { connection.handle }
    private let root: Window
    /// The captured rectangle, in root coordinates.
    let area: PixelRect
    let format: PixelFormat
    private let monitor: Monitor
    private let events: XCaptureEvents
    private let damage: Damage
    /// Reused for every XDamageSubtract: the server moves the damage into it, we read it out.
    private let parts: XserverRegion
    /// nil where the server refuses shared memory: then every grab is an XGetImage. A `var` only so `deinit`
    /// can free it before the display closes.
    private var shared: XSharedImage?
    private(set) var cursor: CursorImage?

    /// Opens `name` (nil: `$DISPLAY`) and sets up the capture of `monitor`; throws `noDisplay`, `noSuchMonitor`
    /// (the rectangle is off the screen) or `captureFailed` (no DAMAGE or XFIXES, an unusual pixel layout).
    init(name: String?, monitor: Monitor) throws(ScreenSourceError) {
        XErrorTrap.install()
        guard let connection = XDisplay(name: name) else { throw .noDisplay }
        let display = connection.handle
        let root = XDefaultRootWindow(display)
        let area = monitor.frame.clamped(to: rootFrame(display, root))
        // Nothing but the display exists yet: a throw here drops `connection`, the usual close, unless it was
        // lost meanwhile.
        guard !area.isEmpty else { throw .noSuchMonitor }
        let events = try XCaptureEvents(display)
        let format = try visualFormat(display)
        self.connection = connection
        self.root = root
        self.area = area
        self.format = format
        self.monitor = monitor
        self.events = events
        damage = XDamageCreate(display, root, Int32(XDamageReportNonEmpty))
        parts = XFixesCreateRegion(display, nil, 0)
        XFixesSelectCursorInput(display, root, UInt(XFixesDisplayCursorNotifyMask))
        XRRSelectInput(display, root, Int32(RRScreenChangeNotifyMask))
        XSelectInput(display, root, StructureNotifyMask)
        let sharing = XShmQueryExtension(display) != 0
        shared = sharing ? XSharedImage(connection: connection, width: area.width, height: area.height) : nil
        cursor = readCursor()
        XSync(display, 0)
        guard !isLost else { throw .noDisplay }
    }

    // A lost connection is never called again (see XDisplay): `connection` closes its socket by hand once
    // this is done.
    deinit {
        if isLost {
            shared?.serverGone = true
            return
        }
        XDamageDestroy(display, damage)
        XFixesDestroyRegion(display, parts)
        shared = nil  // its deinit detaches the segment, which needs the display still open
        // `connection` closes the display once the last holder lets go (the shared image holds it too).
    }

    /// Whether the X server went away; nothing else may be called then.
    var isLost: Bool { connection.isLost }

    /// The socket to wait on for events.
    var fileDescriptor: Int32 { XConnectionNumber(display) }

    /// Whether the capture reads through shared memory.
    var sharesMemory: Bool { shared != nil }

    /// Sends what is buffered; true when events are already queued on our side (poll would not see them).
    func flush() -> Bool {
        XFlush(display)
        return XEventsQueued(display, QueuedAlready) > 0
    }

    /// Reads every event that has arrived: the damage inside the monitor (monitor-relative), whether the
    /// cursor's picture changed (then `cursor` is read again) and whether the screen layout changed.
    func takeEvents() -> XCaptureChanges {
        var changes = XCaptureChanges()
        var damaged = false
        var event = XEvent()
        while !isLost, XPending(display) > 0 {
            XNextEvent(display, &event)
            switch events.kind(of: &event) {
            case .damage: damaged = true
            case .cursor: changes.cursorChanged = true
            case .layout: changes.layoutChanged = true
            case nil: break
            }
        }
        if damaged, !isLost { changes.damage = takeDamage() }
        if changes.cursorChanged, !isLost { cursor = readCursor() }
        return changes
    }

    /// Moves the damage so far out of the server's damage object; what lands after this is reported anew.
    private func takeDamage() -> [PixelRect] {
        XDamageSubtract(display, damage, 0, parts)
        var count: Int32 = 0
        guard let rectangles = XFixesFetchRegion(display, parts, &count) else { return [] }
        defer { XFree(rectangles) }
        return (0..<Int(count)).compactMap { index in
            let part = rectangles[index]
            let rect = PixelRect(x: Int(part.x), y: Int(part.y), width: Int(part.width), height: Int(part.height))
                .clamped(to: area)
            return rect.isEmpty
                ? nil : PixelRect(x: rect.x - area.x, y: rect.y - area.y, width: rect.width, height: rect.height)
        }
    }

    /// The pointer's position relative to the monitor's corner; nil when it is on another X screen.
    func pointer() -> (x: Int, y: Int)? {
        var rootReturn: Window = 0
        var child: Window = 0
        var x: Int32 = 0
        var y: Int32 = 0
        var windowX: Int32 = 0
        var windowY: Int32 = 0
        var mask: UInt32 = 0
        guard XQueryPointer(display, root, &rootReturn, &child, &x, &y, &windowX, &windowY, &mask) != 0 else {
            return nil
        }
        return (Int(x) - area.x, Int(y) - area.y)
    }

    /// The cursor's picture now; nil when the server has none to give.
    private func readCursor() -> CursorImage? {
        guard let image = XFixesGetCursorImage(display) else { return nil }
        defer { XFree(image) }
        let info = image.pointee
        let count = Int(info.width) * Int(info.height)
        // XFixes hands ARGB pixels as C `unsigned long`s: 64 bits each here, the colour in the low 32.
        let pixels = (0..<count).map { UInt32(truncatingIfNeeded: info.pixels[$0]) }
        return CursorImage(
            width: Int(info.width), height: Int(info.height), hotX: Int(info.xhot), hotY: Int(info.yhot),
            pixels: pixels)
    }

    /// Whether the monitor is still where it was: inside the root window and, when it is an XRandR monitor,
    /// still listed with the same rectangle.
    func monitorIsThere() -> Bool {
        guard rootFrame(display, root).contains(area), !isLost else { return false }
        var count: Int32 = 0
        guard monitor.id != 0, let list = XRRGetMonitors(display, root, 1, &count) else { return true }
        defer { XRRFreeMonitors(list) }
        return (0..<Int(count)).contains { index in
            let info = list[index]
            return Int(info.name) == monitor.id
                && PixelRect(x: Int(info.x), y: Int(info.y), width: Int(info.width), height: Int(info.height))
                    == monitor.frame
        }
    }

    /// Reads the monitor's pixels and lends them to `body` (stride in bytes); throws `noDisplay` when the
    /// server went away, `noSuchMonitor` when the monitor left the screen, `captureFailed` otherwise.
    func grab(_ body: (UnsafeMutableRawPointer, Int) -> Void) throws(ScreenSourceError) {
        if let shared {
            guard shared.read(from: root, x: area.x, y: area.y), let data = shared.image.pointee.data else {
                throw failure("XShmGetImage")
            }
            body(UnsafeMutableRawPointer(data), Int(shared.image.pointee.bytes_per_line))
            return
        }
        XErrorTrap.clear(display)
        guard
            let image = XGetImage(
                display, root, Int32(area.x), Int32(area.y), UInt32(area.width), UInt32(area.height),
                cx11_all_planes(), ZPixmap), let data = image.pointee.data
        else { throw failure("XGetImage") }
        defer { _ = cx11_destroy_image(image) }
        body(UnsafeMutableRawPointer(data), Int(image.pointee.bytes_per_line))
    }

    private func failure(_ request: String) -> ScreenSourceError {
        if isLost { return .noDisplay }
        if !monitorIsThere() { return .noSuchMonitor }
        return .captureFailed("\(request) failed (error \(XErrorTrap.last(display)))")
    }
}

/// What `takeEvents` found.
struct XCaptureChanges {
    var damage: [PixelRect] = []
    var cursorChanged = false
    var layoutChanged = false
}

/// The root window's current size (Xlib's DisplayWidth is a copy from connection time).
func rootFrame(_ display: OpaquePointer, _ root: Window) -> PixelRect {
    var parent: Window = 0
    var x: Int32 = 0
    var y: Int32 = 0
    var width: UInt32 = 0
    var height: UInt32 = 0
    var border: UInt32 = 0
    var depth: UInt32 = 0
    guard XGetGeometry(display, root, &parent, &x, &y, &width, &height, &border, &depth) != 0 else {
        return PixelRect(x: 0, y: 0, width: 0, height: 0)
    }
    return PixelRect(x: 0, y: 0, width: Int(width), height: Int(height))
}

/// The layout of the default visual's pixels, if they are 32-bit BGRx/BGRA in memory (every 24- and 32-bit
/// TrueColor visual on a little-endian machine); 16-bit and palette displays are not supported.
private func visualFormat(_ display: OpaquePointer) throws(ScreenSourceError) -> PixelFormat {
    let screen = XDefaultScreen(display)
    let depth = XDefaultDepth(display, screen)
    guard let visual = XDefaultVisual(display, screen), visual.pointee.red_mask == 0xff_0000,
        visual.pointee.green_mask == 0xff00, visual.pointee.blue_mask == 0xff, depth == 24 || depth == 32,
        XImageByteOrder(display) == LSBFirst
    else { throw .captureFailed("unsupported pixel layout (depth \(depth))") }
    return depth == 32 ? .bgra : .bgrx
}

@available(*, unavailable) extension XCaptureConnection: Sendable {}
