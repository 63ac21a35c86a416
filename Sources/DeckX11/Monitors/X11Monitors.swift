import CX11
import CXrandr
import DeckDesktop
import DeckKit
import Foundation

/// Extend on X11 (DESIGN.md#viewing, PROTOCOL §6 "Extend"): an output that is off and has a CRTC free (a
/// disconnected connector of a real GPU, or one of the dummy driver's) is given a mode of the device's size and
/// turned on beside the lit ones, the screen growing to hold it; the capture and XTest then serve it as any monitor.
/// Taking it away turns it off and drops the mode; once the last monitor made is gone, the other CRTCs and the
/// screen's size are put back as they were before the first. A device that turned keeps its output: `resize` gives it
/// the new mode where it is, never off in between.
///
/// What must be put back is written to the record before anything changes, so a host that was killed restores it
/// at its next start. X11 has no scale per output: the request's scale is ignored and the monitor's pixels are the
/// device's. Every call opens a RandR connection of its own (never the capture's) and blocks on the server; the
/// host calls them off its actor, one at a time.
struct X11Monitors: Sendable {
    let display: String?
    let record: VirtualMonitorRecord

    /// What the made monitors changed, kept in the record until the last of them is gone.
    struct Saved: Codable, Equatable, Sendable {
        /// The screen's size before the first (nil: not known, left as it is).
        var screen: RandRLayout.Screen?
        /// The CRTCs lit before the first, as they were.
        var crtcs: [RandRLayout.Crtc]
        /// Each shown output's mode, by the output's name.
        var modes: [String: String] = [:]
    }

    /// The seam's value.
    var virtualMonitors: VirtualMonitors {
        VirtualMonitors(
            unavailable: { unavailable() }, create: { request throws(ScreenSourceError) in try create(request) },
            remove: { monitor in remove(monitor.name) }, cleanUp: { cleanUp() },
            existing: {
                let shown = record.load().shown
                let lit = XRandRConnection(name: display)?.layout()?.outputs.filter { $0.crtc != 0 }.map(\.name)
                return shown.filter { (lit ?? []).contains($0) }
            },
            resize: { monitor, request throws(ScreenSourceError) in try resize(monitor, to: request) })
    }

    /// Why this server cannot add a monitor now; nil when it can.
    func unavailable() -> String? {
        switch server() {
        case .success(let (_, layout)):
            layout.freeOutput(made: record.load().made) == nil ? RandRLayout.noFreeOutput : nil
        case .failure(.captureFailed(let reason)): reason
        case .failure(let error): "\(error)"
        }
    }

    /// A RandR connection and the layout now, or why there is none.
    private func server() -> Result<(XRandRConnection, RandRLayout), ScreenSourceError> {
        guard let connection = XRandRConnection(name: display) else {
            let reachable = XDisplay(name: display) != nil
            return .failure(
                .captureFailed(
                    reachable
                        ? "this X server has no RandR 1.2 (outputs and CRTCs) to add a monitor with"
                        : "no X display to add a monitor to"))
        }
        guard let layout = connection.layout() else {
            return .failure(.captureFailed("the X server's RandR layout could not be read"))
        }
        return .success((connection, layout))
    }

    func create(_ request: ExtendRequest) throws(ScreenSourceError) -> VirtualMonitor {
        let (connection, layout) = try server().get()
        guard let (output, crtc) = layout.freeOutput(made: record.load().made) else {
            throw .captureFailed(RandRLayout.noFreeOutput)
        }
        let plan = try Self.plan(request, from: layout, within: layout)
        let modeName = Self.modeName(request)
        record.update { contents in
            // The layout before the first monitor still on is what the last removal puts back.
            let lit = Set(layout.outputs.filter { $0.crtc != 0 }.map(\.name))
            let earlier = contents.shown.contains(where: lit.contains) ? Self.saved(in: contents) : nil
            var saved = earlier ?? Saved(screen: layout.screen, crtcs: layout.lit)
            saved.modes[output.name] = modeName
            if !contents.made.contains(output.name) { contents.made.append(output.name) }
            if !contents.shown.contains(output.name) { contents.shown.append(output.name) }
            contents.saved = Self.text(saved)
        }
        try light(output, on: crtc, as: plan, for: request, in: layout, through: connection, failing: "be turned on")
        return Self.made(output, at: plan, on: connection)
    }

    /// The output of `monitor` (lit, made here, no capture on it now) given the request's mode where it is, placed
    /// beside the other monitors as they were before the first: it is never off in between, so a window manager
    /// moves no window off it (a device that turned). One that is no longer lit is made again instead.
    func resize(_ monitor: Monitor, to request: ExtendRequest) throws(ScreenSourceError) -> VirtualMonitor {
        let (connection, layout) = try server().get()
        let contents = record.load()
        guard contents.shown.contains(monitor.name), let saved = Self.saved(in: contents),
            let output = layout.outputs.first(where: { $0.name == monitor.name && $0.crtc != 0 }),
            let crtc = layout.crtcs.first(where: { $0.id == output.crtc })
        else { return try create(request) }
        // What the plan starts from: the others where they were before the first monitor, this one off.
        var before = layout
        before.screen = saved.screen ?? layout.screen
        before.crtcs = layout.crtcs.map { current in
            guard current.id != crtc.id else {
                var off = current
                (off.mode, off.outputs) = (0, [])
                return off
            }
            return saved.crtcs.first { $0.id == current.id } ?? current
        }
        let plan = try Self.plan(request, from: before, within: layout)
        let modeName = Self.modeName(request)
        let oldMode = saved.modes[output.name]
        record.update { contents in
            var updated = Self.saved(in: contents) ?? saved
            updated.modes[output.name] = modeName
            contents.saved = Self.text(updated)
        }
        try light(
            output, on: crtc, as: plan, for: request, in: layout, through: connection, failing: "take the new mode")
        if let oldMode, oldMode != modeName, let mode = connection.layout()?.modes.first(where: { $0.name == oldMode })
        {
            _ = connection.dropMode(mode.id, from: output.id)
        }
        return Self.made(output, at: plan, on: connection)
    }

    /// Where the request's monitor goes from `layout`; refused when the screen would outgrow what `server` allows.
    private static func plan(_ request: ExtendRequest, from layout: RandRLayout, within server: RandRLayout)
        throws(ScreenSourceError) -> RandRPlan
    {
        let plan = RandRPlan(layout, width: request.width, height: request.height, placement: request.placement)
        guard plan.screen.width <= server.maxWidth, plan.screen.height <= server.maxHeight else {
            throw .captureFailed(
                "the X server's screen can be at most \(server.maxWidth)x\(server.maxHeight): no room for "
                    + "\(request.width)x\(request.height) beside the monitors")
        }
        return plan
    }

    private static func modeName(_ request: ExtendRequest) -> String { "touchdeck-\(request.width)x\(request.height)" }

    /// The monitor `output` shows once lit as `plan` says.
    private static func made(_ output: RandRLayout.Output, at plan: RandRPlan, on connection: XRandRConnection)
        -> VirtualMonitor
    {
        VirtualMonitor(
            monitor: Monitor(
                id: Int(XInternAtom(connection.display, output.name, 0)), name: output.name, frame: plan.frame,
                scale: X11Resources.scale(in: XResourceManagerString(connection.display).map { String(cString: $0) })))
    }

    /// Under one grab, lights `output` as `plan` says, or takes it away and throws what the server refused.
    private func light(
        _ output: RandRLayout.Output, on crtc: RandRLayout.Crtc, as plan: RandRPlan, for request: ExtendRequest,
        in layout: RandRLayout, through connection: XRandRConnection, failing verb: String
    ) throws(ScreenSourceError) {
        let refusal = connection.grabbed {
            reshape(output, on: crtc, as: plan, for: request, in: layout, through: connection, failing: verb)
        }
        if let refusal {
            _ = takeAway(output.name, on: connection)
            throw .captureFailed(refusal)
        }
    }

    /// Makes and adds the mode, grows the screen to hold both the layout now and the planned one, moves the others,
    /// gives the output's CRTC the mode and place, then sets the screen to the plan's size (for a new monitor the
    /// plan only grows the screen, so that last step is nothing). Nil when all went through, else what the server
    /// refused (the CRTC's refusal worded "NAME could not `verb`").
    private func reshape(
        _ output: RandRLayout.Output, on crtc: RandRLayout.Crtc, as plan: RandRPlan, for request: ExtendRequest,
        in layout: RandRLayout, through connection: XRandRConnection, failing verb: String
    ) -> String? {
        guard
            let mode = connection.makeMode(
                CVTMode(width: request.width, height: request.height), name: Self.modeName(request), in: layout)
        else { return "the X server refused a mode of \(request.width)x\(request.height)" }
        if !output.modes.contains(mode), let error = connection.addMode(mode, to: output.id) {
            return "\(output.name) refused the mode: \(error)"
        }
        let (now, next) = (layout.screen, plan.screen)
        let meanwhile = RandRLayout.Screen(
            width: max(now.width, next.width), height: max(now.height, next.height),
            widthMM: max(now.widthMM, next.widthMM), heightMM: max(now.heightMM, next.heightMM))
        if meanwhile != now, let error = connection.setScreen(meanwhile) {
            return "the screen could not grow to \(meanwhile.width)x\(meanwhile.height): \(error)"
        }
        for moved in plan.moved where !layout.crtcs.contains(moved) {
            if let error = connection.setCrtc(moved) { return "a monitor could not move aside: \(error)" }
        }
        var lit = crtc
        (lit.x, lit.y, lit.width, lit.height) = (plan.frame.x, plan.frame.y, plan.frame.width, plan.frame.height)
        (lit.mode, lit.rotation, lit.outputs) = (mode, UInt16(RR_Rotate_0), [output.id])
        if let error = connection.setCrtc(lit) { return "\(output.name) could not \(verb): \(error)" }
        if next != meanwhile, let error = connection.setScreen(next) {
            return "the screen could not take \(next.width)x\(next.height): \(error)"
        }
        return nil
    }

    /// Turns the output off (and, when it was the last made, puts everything back); nil when done, else what could
    /// not be.
    func remove(_ name: String) -> String? {
        guard record.load().shown.contains(name) else { return nil }
        guard let connection = XRandRConnection(name: display) else {
            return "no X display to take \(name) away from (it stays in the record for the next start)"
        }
        return takeAway(name, on: connection)
    }

    /// Takes away what a host that was killed left on.
    func cleanUp() -> String? {
        let shown = record.load().shown
        guard !shown.isEmpty, XRandRConnection(name: display) != nil else { return nil }
        let notes = shown.compactMap { remove($0) }
        return "removed the monitors a host left: \(shown.joined(separator: ", "))"
            + (notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))")
    }

    /// Off with the output and its mode; the layout before the first back when no other made monitor is shown.
    private func takeAway(_ name: String, on connection: XRandRConnection) -> String? {
        let contents = record.load()
        var saved = Self.saved(in: contents) ?? Saved(screen: nil, crtcs: [])
        let last = contents.shown.allSatisfy { $0 == name }
        let problems = restore(name, mode: saved.modes[name], layout: last ? saved : nil, on: connection)
        saved.modes[name] = nil
        record.update { contents in
            contents.shown.removeAll { $0 == name }
            contents.saved = contents.shown.isEmpty ? nil : Self.text(saved)
        }
        return problems
    }

    /// Off with the output, the mode dropped, and with `before` the lit CRTCs back where they were and the screen's
    /// size back; nil when all went through, else what did not.
    private func restore(
        _ name: String, mode modeName: String?, layout before: Saved?, on connection: XRandRConnection
    ) -> String? {
        guard let layout = connection.layout() else { return "the X server's layout could not be read" }
        let output = layout.outputs.first { $0.name == name }
        let mode = layout.modes.first { $0.name == modeName }
        var problems: [String] = []
        connection.grabbed {
            if let output, let crtc = layout.crtcs.first(where: { $0.id == output.crtc }) {
                var off = crtc
                (off.x, off.y, off.mode, off.rotation, off.outputs) = (0, 0, 0, UInt16(RR_Rotate_0), [])
                if let error = connection.setCrtc(off) { problems.append("\(name) stays on: \(error)") }
            }
            for crtc in before?.crtcs ?? [] where layout.crtcs.contains(where: { $0.id == crtc.id && $0 != crtc }) {
                if let error = connection.setCrtc(crtc) { problems.append("a monitor was not put back: \(error)") }
            }
            if let screen = before?.screen, screen != layout.screen, let error = connection.setScreen(screen) {
                problems.append("the screen's size was not put back: \(error)")
            }
            let listed = output.flatMap { output in mode.map { output.modes.contains($0.id) } } == true
            if let mode, let error = connection.dropMode(mode.id, from: listed ? output?.id : nil) {
                problems.append("the mode \(mode.name) was not dropped: \(error)")
            }
        }
        return problems.isEmpty ? nil : problems.joined(separator: "; ")
    }

    private static func saved(in contents: VirtualMonitorRecord.Contents) -> Saved? {
        contents.saved.flatMap { try? JSONDecoder().decode(Saved.self, from: Data($0.utf8)) }
    }

    private static func text(_ saved: Saved) -> String? {
        (try? JSONEncoder().encode(saved)).flatMap { String(data: $0, encoding: .utf8) }
    }
}

extension X11Desktop {
    /// How Extend makes a monitor here (`touchdeck doctor`).
    public static let extendOffered = "an output that was off turned on through XRandR"

    /// Extend on the X server at `display` (nil: `$DISPLAY`), its record kept in `stateDirectory`.
    public static func virtualMonitors(display: String? = nil, stateDirectory: URL) -> VirtualMonitors {
        X11Monitors(display: display, record: VirtualMonitorRecord(folder: stateDirectory)).virtualMonitors
    }

    /// Why Extend is not offered on the X server at `display`, nil when it is (`touchdeck doctor`).
    public static func extendUnavailable(display: String? = nil, stateDirectory: URL) -> String? {
        X11Monitors(display: display, record: VirtualMonitorRecord(folder: stateDirectory)).unavailable()
    }
}
