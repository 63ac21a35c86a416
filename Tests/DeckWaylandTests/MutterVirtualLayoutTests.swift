import CDeckShim
import CGio
import DeckDesktop
import DeckKit
import Foundation
import Testing

@testable import DeckWayland

/// Extend on GNOME without Mutter: where a made monitor goes in the layout, the scale picked among those Mutter
/// supports, and the ApplyMonitorsConfig arguments the shim builds from a GetCurrentState reply.
struct MutterVirtualLayoutTests {
    static let meta = MutterLayout.Box(name: "Meta-0", rect: PixelRect(x: 0, y: 0, width: 1280, height: 720))
    static let made = MutterLayout.Box(name: "Meta-1", rect: PixelRect(x: 1280, y: 0, width: 2388, height: 1668))

    static func placed(_ placement: ExtendRequest.Placement) -> [String: PixelRect] {
        Dictionary(
            uniqueKeysWithValues: MutterLayout.place("Meta-1", placement, in: [meta, made]).map { ($0.name, $0.rect) })
    }

    @Test func theMadeMonitorGoesBesideTheOthersAndTheLayoutStartsAtTheOrigin() {
        #expect(Self.placed(.right)["Meta-1"] == PixelRect(x: 1280, y: 0, width: 2388, height: 1668))
        #expect(Self.placed(.below)["Meta-1"] == PixelRect(x: 0, y: 720, width: 2388, height: 1668))
        // Left and above: Mutter wants no negative positions, so the others move instead.
        #expect(
            Self.placed(.left) == [
                "Meta-1": PixelRect(x: 0, y: 0, width: 2388, height: 1668),
                "Meta-0": PixelRect(x: 2388, y: 0, width: 1280, height: 720),
            ])
        #expect(
            Self.placed(.above) == [
                "Meta-1": PixelRect(x: 0, y: 0, width: 2388, height: 1668),
                "Meta-0": PixelRect(x: 0, y: 1668, width: 1280, height: 720),
            ])
    }

    @Test func aLogicalLayoutDividesByTheScaleAndAPhysicalOneDoesNot() {
        let frame = PixelRect(x: 1280, y: 0, width: 2388, height: 1668)
        #expect(MutterLayout.rect(frame, scale: 2, logical: true) == PixelRect(x: 1280, y: 0, width: 1194, height: 834))
        #expect(MutterLayout.rect(frame, scale: 2, logical: false) == frame)
    }

    @Test func theScaleIsTheSupportedOneNearestTheDevices() {
        #expect(MutterVirtualMonitors.nearest(2.625, among: [1, 2, 3]) == 3)
        #expect(MutterVirtualMonitors.nearest(2, among: [1, 2, 3]) == 2)
        #expect(MutterVirtualMonitors.nearest(2, among: []) == 1)
    }

    @Test func applyMonitorsConfigKeepsTheOthersAndMovesAndScalesTheMadeOne() throws {
        let text = MutterMonitorsTests.state(
            monitors: [
                MutterMonitorsTests.monitor("Meta-0", MutterMonitorsTests.mode(1280, 720, current: true)),
                "(('Meta-1', 'MetaVendor', 'Virtual remote monitor', '0x000001'), [('2388x1668@60.000', 2388, 1668, "
                    + "60.0, 1.0, [1.0, 2.0, 3.0], {'is-current': <true>})], @a{sv} {})",
            ],
            logical: [
                MutterMonitorsTests.logical(0, 0, scale: 1, transform: 0, "Meta-0"),
                MutterMonitorsTests.logical(1280, 0, scale: 1, transform: 0, "Meta-1"),
            ])
        let state = try MutterMonitorsTests.reply(text)
        var scales = [Double](repeating: 0, count: 8)
        let count = deck_gv_supported_scales(state.raw, "Meta-1", &scales, 8)
        #expect(Array(scales.prefix(Int(count))) == [1, 2, 3])
        #expect(deck_gv_layout_mode(state.raw) == 2)
        var placement = deck_placement()
        withUnsafeMutableBytes(of: &placement.connector) { $0.copyBytes(from: Array("Meta-1".utf8)) }
        (placement.x, placement.y, placement.scale) = (0, 720, 2)
        let arguments = try #require(deck_gv_apply_monitors(state.raw, &placement, 1))
        let printed = String(cString: g_variant_print(arguments, 0))
        g_variant_unref(g_variant_ref_sink(arguments))
        #expect(
            printed
                == "(2, 1, [(0, 0, 1.0, 0, false, [('Meta-0', '1280x720@60.000', {})]), "
                + "(0, 720, 2.0, 0, false, [('Meta-1', '2388x1668@60.000', {})])], {})")
    }
}

/// The made monitor's stream before and after a viewing takes it: frames go nowhere until then, an end seen alone is
/// told to the viewing that comes (its capture does not start), and nothing goes anywhere after `detach`.
struct FrameRelayTests {
    final class Seen: @unchecked Sendable {
        let lock = NSLock()
        var frames = 0
        var ends: [ScreenSourceError] = []
    }

    static func handlers(_ seen: Seen) -> CaptureHandlers {
        CaptureHandlers(
            frame: { _ in seen.lock.withLock { seen.frames += 1 } },
            ended: { error in seen.lock.withLock { seen.ends.append(error) } })
    }

    /// One 2×2 picture's pixels for every frame (the relay never reads them).
    nonisolated(unsafe) static let pixels = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 16)

    static func frame() -> CapturedFrame {
        CapturedFrame(
            width: 2, height: 2, stride: 8, format: .bgrx, pixels: UnsafeRawPointer(pixels),
            damage: [PixelRect(x: 0, y: 0, width: 2, height: 2)], capturedAt: 0)
    }

    @Test func framesGoToTheViewingOnlyWhileItIsAttached() {
        let relay = FrameRelay()
        let stream = relay.handlers(ending: {})
        let seen = Seen()
        stream.frame(Self.frame())
        #expect(relay.attach(Self.handlers(seen)) == nil)
        stream.frame(Self.frame())
        relay.detach()
        stream.frame(Self.frame())
        #expect(seen.frames == 1)
    }

    @Test func anEndWhileNobodyListensIsToldToTheViewingThatComes() {
        let relay = FrameRelay()
        let stopped = Seen()
        let stream = relay.handlers(ending: { stopped.lock.withLock { stopped.frames += 1 } })
        stream.ended(.noSuchMonitor)
        let seen = Seen()
        #expect(relay.attach(Self.handlers(seen)) == .noSuchMonitor)
        stream.frame(Self.frame())
        #expect(seen.frames == 0 && seen.ends.isEmpty)
        #expect(stopped.frames == 1, "the stream's end stops the session")
    }
}
