import DeckDesktop
import Foundation
import Testing

@testable import DeckWayland

/// The restore token file without a portal.
struct PortalRestoreTokenTests {
    @Test func aSavedTokenIsReadBackFromAFileOnlyTheUserCanRead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("touchdeck-token-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let token = PortalRestoreToken(directory: folder)
        #expect(token.load() == nil)
        try token.save("first")
        try token.save("renewed")
        #expect(token.load() == "renewed")
        let mode = try FileManager.default.attributesOfItem(atPath: token.file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        try Data("  \n".utf8).write(to: token.file)
        #expect(token.load() == nil, "a blank file is no token")
    }

    @Test func eachMonitorHasATokenFileOfItsOwnNamedSafely() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("touchdeck-token-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = PortalRestoreToken(directory: folder)
        let first = base.forMonitor("HEADLESS-1")
        let second = base.forMonitor("HEADLESS-2")
        #expect(first.file.lastPathComponent == "portal-restore-token-HEADLESS-1")
        try first.save("one")
        #expect(second.load() == nil && base.load() == nil, "one monitor's approval stood for another")
        #expect(base.forMonitor("HEADLESS-1").load() == "one")
        let odd = base.forMonitor("../DP 1/é")
        #expect(odd.file.lastPathComponent == "portal-restore-token-.._DP_1__")
        #expect(odd.file.deletingLastPathComponent().standardizedFileURL.path == folder.standardizedFileURL.path)
    }

    @Test func aStreamFitsTheAskedMonitorByItsPixelsOrItsLayoutSizeEitherWayRound() {
        let tablet = Monitor(
            id: 1, name: "HEADLESS-2", frame: PixelRect(x: 1280, y: 0, width: 2388, height: 1668), scale: 2)
        #expect(PortalCapture.fits(tablet, width: 2388, height: 1668))
        #expect(PortalCapture.fits(tablet, width: 1194, height: 834))
        #expect(PortalCapture.fits(tablet, width: 1668, height: 2388))
        #expect(PortalCapture.fits(tablet, width: 0, height: 0), "a portal that gives no size is taken at its word")
        let small = Monitor(id: 2, name: "HEADLESS-2", frame: PixelRect(x: 1280, y: 0, width: 800, height: 600))
        #expect(!PortalCapture.fits(small, width: 1280, height: 720))
        #expect(!PortalCapture.fits(tablet, width: 1280, height: 720))
    }

    /// A still picture (a screencopy) stands in for a cast's first only when the cast can show no other output: no
    /// other output has a size `fits` would take for the asked one.
    @Test func aStillIsTakenOnlyWhenNoOtherOutputCouldBeTheStream() {
        func output(_ name: String, _ width: Int, _ height: Int, scale: Double = 1) -> Monitor {
            Monitor(id: 0, name: name, frame: PixelRect(x: 0, y: 0, width: width, height: height), scale: scale)
        }
        let main = output("DP-1", 1920, 1080)
        #expect(PortalDesktop.onlyOutputOfItsSize(main, among: [main, output("DP-2", 1280, 1024)]))
        #expect(PortalDesktop.onlyOutputOfItsSize(main, among: [main]))
        #expect(!PortalDesktop.onlyOutputOfItsSize(main, among: [main, output("DP-2", 1920, 1080)]), "the same size")
        #expect(!PortalDesktop.onlyOutputOfItsSize(main, among: [main, output("DP-2", 1080, 1920)]), "turned")
        #expect(
            !PortalDesktop.onlyOutputOfItsSize(main, among: [main, output("DP-2", 3840, 2160, scale: 2)]),
            "a scaled output whose layout size is the asked monitor's pixels")
        let scaled = output("eDP-1", 2880, 1800, scale: 2)
        #expect(!PortalDesktop.onlyOutputOfItsSize(scaled, among: [scaled, output("HDMI-1", 1440, 900)]), "its layout")
        #expect(PortalDesktop.onlyOutputOfItsSize(scaled, among: [scaled, output("HDMI-1", 1920, 1200)]))
    }
}
