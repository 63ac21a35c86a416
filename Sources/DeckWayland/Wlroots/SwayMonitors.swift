import DeckDesktop
import DeckKit
import Foundation

/// Extend on sway (DESIGN.md#viewing, PROTOCOL §6 "Extend"): a headless output made with `create_output`, given the
/// device's mode, scale and a place beside the others over sway's IPC, captured by `capture` (the portal).
///
/// Taking it away: `output NAME unplug` where sway has it (1.8 and later); else `disable`; and where even that fails —
/// Debian 12's sway 1.7 on wlroots 0.15, whose headless outputs refuse to be disabled ("Failed to commit output") —
/// the output is parked: its workspaces move to another output and it shrinks to 320×240 far beyond the others, where
/// the pointer cannot reach it. The record keeps every output made, so the next Extend re-uses a parked one instead of
/// making another. The other outputs are pinned where they are before an output is added (sway would otherwise
/// re-arrange outputs that have no position of their own).
///
/// Every call blocks on sway's IPC (a few milliseconds each); the host calls them off its actor, one at a time.
struct SwayMonitors: Sendable {
    let ipc: SwayIPC
    let record: VirtualMonitorRecord
    let capture: StartCapture?

    /// The seam's value.
    var virtualMonitors: VirtualMonitors {
        VirtualMonitors(
            unavailable: { ipc.outputs() == nil ? "sway does not answer on its IPC socket" : nil },
            create: { request throws(ScreenSourceError) in try create(request) },
            remove: { monitor in remove(monitor.name) },
            cleanUp: { cleanUp() },
            existing: {
                let shown = Set(record.load().shown)
                return (ipc.outputs() ?? []).filter { $0.active && shown.contains($0.name) }.map(\.name)
            },
            parked: {
                let record = record.load()
                return Set(record.made).subtracting(record.shown)
            },
            resize: { monitor, request throws(ScreenSourceError) in try resize(monitor, to: request) })
    }

    func create(_ request: ExtendRequest) throws(ScreenSourceError) -> VirtualMonitor {
        guard let before = ipc.outputs() else { throw .captureFailed("sway does not answer on its IPC socket") }
        let made = record.load().made
        let name: String
        if let parked = made.first(where: { name in before.contains { $0.name == name } }) {
            name = parked
        } else {
            if let error = ipc.run("create_output") { throw .captureFailed("sway could not add an output: \(error)") }
            let known = Set(before.map(\.name))
            guard let added = ipc.outputs()?.first(where: { !known.contains($0.name) }) else {
                throw .captureFailed("sway added no output")
            }
            name = added.name
            record.update { $0.made.append(name) }
        }
        return try configure(name, request, before: before, made: made)
    }

    /// The output of `monitor` (a made one no capture is on) at the request's mode, scale and place, in place: its
    /// workspaces and windows stay on it. A monitor sway no longer shows is made again instead.
    func resize(_ monitor: Monitor, to request: ExtendRequest) throws(ScreenSourceError) -> VirtualMonitor {
        guard let before = ipc.outputs() else { throw .captureFailed("sway does not answer on its IPC socket") }
        let made = record.load().made
        guard made.contains(monitor.name), before.contains(where: { $0.name == monitor.name && $0.active }) else {
            return try create(request)
        }
        return try configure(monitor.name, request, before: before, made: made)
    }

    /// Gives the made output `name` the request's mode and scale, beside the other outputs (pinned where they are).
    private func configure(_ name: String, _ request: ExtendRequest, before: [SwayOutput], made: [String])
        throws(ScreenSourceError) -> VirtualMonitor
    {
        let others = before.filter { $0.active && $0.name != name && !made.contains($0.name) }
        let place = Self.place(request, beside: others)
        record.update { if !$0.shown.contains(name) { $0.shown.append(name) } }
        // Pinned first, so adding an output moves none of them.
        let pins = others.map { "output \($0.name) pos \($0.rect.x) \($0.rect.y)" }
        let mode = String(format: "%.3f", request.scale)
        let set =
            "output \(name) enable mode \(request.width)x\(request.height) scale \(mode) pos \(place.x) \(place.y)"
        if let error = ipc.run((pins + [set]).joined(separator: "; ")) {
            _ = remove(name)
            throw .captureFailed("sway refused the new output's mode: \(error)")
        }
        let frame = PixelRect(x: place.x, y: place.y, width: request.width, height: request.height)
        let layout = request.layoutSize
        return VirtualMonitor(
            monitor: Monitor(id: MonitorID.of(connector: name), name: name, frame: frame, scale: request.scale),
            pointerArea: PixelRect(x: place.x, y: place.y, width: layout.width, height: layout.height),
            capture: capture)
    }

    /// Where the new output goes: beside the box around `others` (top- or left-aligned with it), in layout pixels.
    static func place(_ request: ExtendRequest, beside others: [SwayOutput]) -> (x: Int, y: Int) {
        let size = request.layoutSize
        let left = others.map(\.rect.x).min() ?? 0
        let top = others.map(\.rect.y).min() ?? 0
        let right = others.map { $0.rect.x + $0.rect.width }.max() ?? 0
        let bottom = others.map { $0.rect.y + $0.rect.height }.max() ?? 0
        switch request.placement {
        case .right: return (right, top)
        case .left: return (left - size.width, top)
        case .below: return (left, bottom)
        case .above: return (left, top - size.height)
        }
    }

    /// Unplugs, disables or parks the output; nil when it is gone or disabled, else what was done instead.
    func remove(_ name: String) -> String? {
        defer { record.update { $0.shown.removeAll { $0 == name } } }
        guard let outputs = ipc.outputs(), let output = outputs.first(where: { $0.name == name }) else { return nil }
        if ipc.run("output \(name) unplug") == nil { return nil }
        if ipc.run("output \(name) disable") == nil, ipc.outputs()?.first(where: { $0.name == name })?.active != true {
            return nil
        }
        guard output.active else { return nil }
        return park(output, among: outputs)
    }

    /// Moves the output's workspaces to another output and puts it, small, out of the pointer's reach.
    private func park(_ output: SwayOutput, among outputs: [SwayOutput]) -> String {
        let made = Set(record.load().made)
        let others = outputs.filter { $0.active && !made.contains($0.name) }
        if let home = others.first {
            let focused = focusedWorkspace()
            for workspace in ipc.workspaces(on: output.name) {
                _ = ipc.run("workspace \"\(workspace)\"; move workspace to output \(home.name)")
            }
            // The focus leaves the parked output whatever was focused before (new windows open where it is).
            _ = ipc.run("focus output \(home.name)")
            if let focused { _ = ipc.run("workspace \"\(focused)\"") }
        }
        let far = (others.map { $0.rect.x + $0.rect.width }.max() ?? 0) + 100_000
        // `enable` again: the refused `disable` is kept in sway's config for the output and would make this fail too.
        _ = ipc.run("output \(output.name) enable mode 320x240 scale 1 pos \(far) 0")
        return "sway cannot remove or turn off \(output.name): parked it, emptied, out of the pointer's reach"
    }

    private func focusedWorkspace() -> String? {
        let list = ipc.call(SwayIPC.getWorkspaces) as? [[String: Any]] ?? []
        return list.first { $0["focused"] as? Bool == true }?["name"] as? String
    }

    /// Takes away what a host that was killed left shown.
    func cleanUp() -> String? {
        let shown = record.load().shown
        guard !shown.isEmpty, ipc.outputs() != nil else { return nil }
        let notes = shown.compactMap { remove($0) }
        return "removed the monitors a host left: \(shown.joined(separator: ", "))"
            + (notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))")
    }
}
