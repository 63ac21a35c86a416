import DeckDesktop
import DeckKit

/// The X server's RandR configuration as Extend reads it and puts it back: the screen's size, every CRTC and every
/// output. Plain values (XIDs as numbers), so that planning a monitor is tested without a server and the part that
/// must be restored is kept in the record as JSON.
struct RandRLayout: Codable, Equatable, Sendable {
    /// The screen (the root window) in pixels and in millimetres.
    struct Screen: Codable, Equatable, Sendable {
        var width: Int
        var height: Int
        var widthMM: Int
        var heightMM: Int
    }

    /// One CRTC: where it scans out from and what drives it (mode 0: off).
    struct Crtc: Codable, Equatable, Sendable {
        var id: UInt
        var x: Int
        var y: Int
        var width: Int
        var height: Int
        var mode: UInt
        var rotation: UInt16
        var outputs: [UInt]

        var isOn: Bool { mode != 0 }
        var frame: PixelRect { PixelRect(x: x, y: y, width: width, height: height) }
    }

    /// One output (a connector): whether a monitor is plugged in, the CRTC driving it (0: off), the CRTCs it may use.
    struct Output: Codable, Equatable, Sendable {
        var id: UInt
        var name: String
        var connected: Bool
        var crtc: UInt
        var crtcs: [UInt]
        var modes: [UInt]
    }

    /// A mode the server knows, by id and name.
    struct Mode: Codable, Equatable, Sendable {
        var id: UInt
        var name: String
    }

    var screen: Screen
    /// The largest screen the server allows.
    var maxWidth: Int
    var maxHeight: Int
    var crtcs: [Crtc]
    var outputs: [Output]
    var modes: [Mode]

    /// Why Extend cannot use this server, for `unavailable`.
    static let noFreeOutput =
        "this X server has no free output to add a monitor to (Xvfb cannot; Xorg with modesetting, amdgpu, intel or "
        + "the dummy driver can)"

    /// An output that is off with a CRTC of its own free: one that was made before (`made`, re-used first: a driver
    /// such as dummy calls an output connected once it was lit), else the first disconnected one. A connected
    /// output that is off is a real monitor its user switched off: never taken.
    func freeOutput(made: [String]) -> (output: Output, crtc: Crtc)? {
        let off = outputs.filter { $0.crtc == 0 }
        let ordered =
            made.compactMap { name in off.first { $0.name == name } } + off.filter { !$0.connected }
        for output in ordered {
            if let crtc = crtcs.first(where: { output.crtcs.contains($0.id) && !$0.isOn && $0.outputs.isEmpty }) {
                return (output, crtc)
            }
        }
        return nil
    }

    /// The CRTCs that are on, around which the new monitor is placed.
    var lit: [Crtc] { crtcs.filter(\.isOn) }
}

/// Where a new monitor of `size` goes and what moves for it: beside the box around the lit CRTCs (top- or
/// left-aligned with it); to the left of or above the box, where X has no negative coordinates, the others move
/// right or down by as much, and the screen grows to hold everything.
struct RandRPlan: Equatable, Sendable {
    var frame: PixelRect
    /// The lit CRTCs at their new places (the same places for right and below).
    var moved: [RandRLayout.Crtc]
    var screen: RandRLayout.Screen

    init(_ layout: RandRLayout, width: Int, height: Int, placement: ExtendRequest.Placement) {
        let lit = layout.lit
        let left = lit.map(\.x).min() ?? 0
        let top = lit.map(\.y).min() ?? 0
        let right = lit.map { $0.x + $0.width }.max() ?? 0
        let bottom = lit.map { $0.y + $0.height }.max() ?? 0
        var (x, y) =
            switch placement {
            case .right: (right, top)
            case .left: (left - width, top)
            case .below: (left, bottom)
            case .above: (left, top - height)
            }
        let (dx, dy) = (max(0, -x), max(0, -y))
        (x, y) = (x + dx, y + dy)
        frame = PixelRect(x: x, y: y, width: width, height: height)
        moved = lit.map { crtc in
            var crtc = crtc
            crtc.x += dx
            crtc.y += dy
            return crtc
        }
        let old = layout.screen
        let newWidth = max(old.width + dx, x + width, moved.map { $0.x + $0.width }.max() ?? 0)
        let newHeight = max(old.height + dy, y + height, moved.map { $0.y + $0.height }.max() ?? 0)
        // The same pixels per millimetre as before (96 dpi where the server says 0 mm).
        func millimetres(_ pixels: Int, _ oldPixels: Int, _ oldMM: Int) -> Int {
            oldMM > 0 && oldPixels > 0
                ? Int((Double(pixels) * Double(oldMM) / Double(oldPixels)).rounded())
                : Int((Double(pixels) * 25.4 / 96).rounded())
        }
        screen = RandRLayout.Screen(
            width: newWidth, height: newHeight, widthMM: millimetres(newWidth, old.width, old.widthMM),
            heightMM: millimetres(newHeight, old.height, old.heightMM))
    }
}
