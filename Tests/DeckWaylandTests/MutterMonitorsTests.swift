import CGio
import DeckDesktop
import Testing

@testable import DeckWayland

/// The GetCurrentState parser (the shim's `deck_gv_monitors`) on replies written out as GVariant text: what Mutter
/// 43 answers with two monitors, a rotated one, one that is off, and a reply of another shape.
struct MutterMonitorsTests {
    static func reply(_ text: String) throws -> Variant {
        var error: UnsafeMutablePointer<GError>?
        guard let value = g_variant_parse(nil, text, nil, nil, &error) else {
            defer { g_error_free(error) }
            throw ParseError(message: String(cString: error!.pointee.message))
        }
        return Variant(owning: g_variant_ref_sink(value))
    }

    struct ParseError: Error { var message: String }

    static func monitor(_ connector: String, _ modes: String) -> String {
        "(('\(connector)', 'MetaVendor', 'MetaVirtualMonitor', '0x00'), [\(modes)], {'is-builtin': <false>})"
    }

    static func mode(_ width: Int, _ height: Int, current: Bool) -> String {
        "('\(width)x\(height)@60.000', \(width), \(height), 60.0, 1.0, [1.0], {'is-current': <\(current)>})"
    }

    static func logical(_ x: Int, _ y: Int, scale: Double, transform: Int, _ connector: String) -> String {
        "(\(x), \(y), \(scale), uint32 \(transform), false, [('\(connector)', 'MetaVendor', 'MetaVirtualMonitor', "
            + "'0x00')], @a{sv} {})"
    }

    /// A whole reply; the arrays carry their types, so an empty one parses too.
    static func state(monitors: [String], logical: [String]) -> String {
        "(uint32 2, @a((ssss)a(siiddada{sv})a{sv}) [\(monitors.joined(separator: ", "))], "
            + "@a(iiduba(ssss)a{sv}) [\(logical.joined(separator: ", "))], {'layout-mode': <uint32 2>})"
    }

    @Test func monitorsComeLeftToRightWithTheCurrentModeAndRotationApplied() throws {
        let text = Self.state(
            monitors: [
                Self.monitor(
                    "HDMI-1", Self.mode(1920, 1080, current: false) + ", " + Self.mode(1280, 1024, current: true)),
                Self.monitor("eDP-1", Self.mode(2560, 1600, current: true)),
                Self.monitor("DP-2", Self.mode(1920, 1080, current: true)),
            ],
            logical: [
                Self.logical(1280, 0, scale: 2, transform: 0, "eDP-1"),
                Self.logical(0, 0, scale: 1, transform: 1, "HDMI-1"),  // turned a quarter: 1024 wide
            ])
        let monitors = try MutterMonitors.monitors(in: Self.reply(text))
        #expect(monitors.map(\.name) == ["HDMI-1", "eDP-1"], "DP-2 has no logical monitor: it is off")
        #expect(
            monitors.map(\.frame) == [
                PixelRect(x: 0, y: 0, width: 1024, height: 1280), PixelRect(x: 1280, y: 0, width: 2560, height: 1600),
            ])
        #expect(monitors.map(\.scale) == [1, 2])
        #expect(monitors.map(\.id) == [MonitorID.of(connector: "HDMI-1"), MonitorID.of(connector: "eDP-1")])
    }

    @Test func aReplyOfAnotherShapeIsABadReplyNotACrash() throws {
        #expect(throws: DBusError.self) { try MutterMonitors.monitors(in: Self.reply("(uint32 2, 'nothing')")) }
        let none = try MutterMonitors.monitors(in: Self.reply(Self.state(monitors: [], logical: [])))
        #expect(none.isEmpty)
    }
}
