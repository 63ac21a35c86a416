import CX11
import CXrandr
import DeckDesktop

/// RandR requests on a connection of their own (never the capture's): read the layout, make and drop a mode, size
/// the screen, set a CRTC. Opened for one Extend step and closed after it, on the host's monitor lane.
final class XRandRConnection: XDisplayUser {
    let connection: XDisplay
    private let root: Window

    /// Opens `name` (nil: `$DISPLAY`); nil without a display or without RandR 1.2 (the first with outputs and CRTCs).
    init?(name: String?) {
        guard let connection = XDisplay(name: name) else { return nil }
        XErrorTrap.install()
        self.connection = connection
        root = XDefaultRootWindow(connection.handle)
        var (event, error, major, minor): (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
        guard XRRQueryExtension(connection.handle, &event, &error) != 0,
            XRRQueryVersion(connection.handle, &major, &minor) != 0, (major, minor) >= (1, 2)
        else { return nil }
    }

    /// The configuration now (without probing the outputs again: the server's current view).
    func layout() -> RandRLayout? {
        guard let resources = XRRGetScreenResourcesCurrent(display, root) else { return nil }
        defer { XRRFreeScreenResources(resources) }
        let info = resources.pointee
        let crtcs = (0..<Int(info.ncrtc)).compactMap { crtc(info.crtcs[$0], resources) }
        let outputs = (0..<Int(info.noutput)).compactMap { output(info.outputs[$0], resources) }
        let modes = (0..<Int(info.nmode)).map { index in
            let mode = info.modes[index]
            return RandRLayout.Mode(id: UInt(mode.id), name: String(cString: mode.name))
        }
        var (minWidth, minHeight, maxWidth, maxHeight): (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
        XRRGetScreenSizeRange(display, root, &minWidth, &minHeight, &maxWidth, &maxHeight)
        let screen = XDefaultScreen(display)
        return RandRLayout(
            screen: RandRLayout.Screen(
                width: Int(XDisplayWidth(display, screen)), height: Int(XDisplayHeight(display, screen)),
                widthMM: Int(XDisplayWidthMM(display, screen)), heightMM: Int(XDisplayHeightMM(display, screen))),
            maxWidth: Int(maxWidth), maxHeight: Int(maxHeight), crtcs: crtcs, outputs: outputs, modes: modes)
    }

    private func crtc(_ id: RRCrtc, _ resources: UnsafeMutablePointer<XRRScreenResources>) -> RandRLayout.Crtc? {
        guard let info = XRRGetCrtcInfo(display, resources, id) else { return nil }
        defer { XRRFreeCrtcInfo(info) }
        let crtc = info.pointee
        return RandRLayout.Crtc(
            id: UInt(id), x: Int(crtc.x), y: Int(crtc.y), width: Int(crtc.width), height: Int(crtc.height),
            mode: UInt(crtc.mode), rotation: crtc.rotation,
            outputs: (0..<Int(crtc.noutput)).map { UInt(crtc.outputs[$0]) })
    }

    private func output(_ id: RROutput, _ resources: UnsafeMutablePointer<XRRScreenResources>) -> RandRLayout.Output? {
        guard let info = XRRGetOutputInfo(display, resources, id) else { return nil }
        defer { XRRFreeOutputInfo(info) }
        let output = info.pointee
        return RandRLayout.Output(
            id: UInt(id), name: String(cString: output.name), connected: output.connection == RR_Connected,
            crtc: UInt(output.crtc), crtcs: (0..<Int(output.ncrtc)).map { UInt(output.crtcs[$0]) },
            modes: (0..<Int(output.nmode)).map { UInt(output.modes[$0]) })
    }

    /// Makes a mode of these timings called `name` (the one of that name when it exists already); nil if refused.
    func makeMode(_ timings: CVTMode, name: String, in layout: RandRLayout) -> UInt? {
        if let known = layout.modes.first(where: { $0.name == name }) { return known.id }
        var bytes = Array(name.utf8CString)
        return bytes.withUnsafeMutableBufferPointer { characters -> UInt? in
            var info = XRRModeInfo()
            info.width = UInt32(timings.width)
            info.height = UInt32(timings.height)
            info.dotClock = UInt(timings.dotClock)
            info.hSyncStart = UInt32(timings.hSyncStart)
            info.hSyncEnd = UInt32(timings.hSyncEnd)
            info.hTotal = UInt32(timings.hTotal)
            info.vSyncStart = UInt32(timings.vSyncStart)
            info.vSyncEnd = UInt32(timings.vSyncEnd)
            info.vTotal = UInt32(timings.vTotal)
            info.name = characters.baseAddress
            info.nameLength = UInt32(characters.count - 1)
            info.modeFlags = UInt(RR_HSyncPositive | RR_VSyncNegative)
            let mode = checked { XRRCreateMode(display, root, &info) }
            return mode.flatMap { $0 == 0 ? nil : UInt($0) }
        }
    }

    /// Adds `mode` to the output's list; nil when done, else the server's error.
    func addMode(_ mode: UInt, to output: UInt) -> String? {
        failure { XRRAddOutputMode(display, RROutput(output), RRMode(mode)) }
    }

    /// Takes `mode` off the output's list and forgets it (the second fails while something still uses it).
    func dropMode(_ mode: UInt, from output: UInt?) -> String? {
        let off = output.flatMap { output in failure { XRRDeleteOutputMode(display, RROutput(output), RRMode(mode)) } }
        return off ?? failure { XRRDestroyMode(display, RRMode(mode)) }
    }

    /// Sizes the screen; nil when done, else the server's error.
    func setScreen(_ screen: RandRLayout.Screen) -> String? {
        failure {
            XRRSetScreenSize(
                display, root, Int32(screen.width), Int32(screen.height), Int32(screen.widthMM),
                Int32(screen.heightMM))
        }
    }

    /// Sets a CRTC (mode 0 and no outputs: off); nil when done, else what the server said.
    func setCrtc(_ crtc: RandRLayout.Crtc) -> String? {
        guard let resources = XRRGetScreenResourcesCurrent(display, root) else { return "no screen resources" }
        defer { XRRFreeScreenResources(resources) }
        var outputs = crtc.outputs.map { RROutput($0) }
        var status: Int32 = 0
        let error = outputs.withUnsafeMutableBufferPointer { list in
            failure {
                status = XRRSetCrtcConfig(
                    display, resources, RRCrtc(crtc.id), Time(CurrentTime), Int32(crtc.x), Int32(crtc.y),
                    RRMode(crtc.mode), Rotation(crtc.rotation), list.baseAddress, Int32(list.count))
            }
        }
        if let error { return error }
        return status == RRSetConfigSuccess ? nil : "the X server answered status \(status) to a CRTC change"
    }

    /// Holds every other client's requests while `body` changes the layout, so nobody sees it half done.
    func grabbed<T>(_ body: () -> T) -> T {
        XGrabServer(display)
        defer {
            XUngrabServer(display)
            XSync(display, 0)
        }
        return body()
    }

    /// Runs a request and waits for its answer; nil when the server reported an error (or the display is lost).
    private func checked<T>(_ request: () -> T) -> T? {
        XErrorTrap.clear(display)
        let value = request()
        XSync(display, 0)
        return XErrorTrap.last(display) == 0 && !isBroken ? value : nil
    }

    /// Runs a request and waits for its answer: nil when it went through, else the X error's code in words.
    private func failure(_ request: () -> Void) -> String? {
        XErrorTrap.clear(display)
        request()
        XSync(display, 0)
        if isBroken { return "the X server went away" }
        let code = XErrorTrap.last(display)
        return code == 0 ? nil : "the X server refused it (X error \(code))"
    }
}

@available(*, unavailable) extension XRandRConnection: Sendable {}
