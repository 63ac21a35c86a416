import DeckDesktop
import Foundation
import Testing

@testable import DeckWayland

/// `LockProbe.gnomeScreenSaver` against a stand-in for GNOME Shell's service (Tests/wayland/fake_screensaver.py)
/// on the private bus of `scripts/with-mutter`; skipped without one.
@Suite(.serialized, .enabled(if: privateMutter)) struct GnomeScreenSaverTests {
    @Test func theShieldIsFollowedAndAMissingServiceIsNotLocked() async throws {
        let probe = LockProbe.gnomeScreenSaver()
        #expect(await probe.isLocked() == false, "no service: not locked")
        let service = Process()
        service.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        service.arguments = [
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("wayland/fake_screensaver.py").path
        ]
        let output = Pipe()
        service.standardOutput = output
        try service.run()
        defer {
            kill(service.processIdentifier, SIGKILL)
            for _ in 0..<500 where service.isRunning { usleep(10_000) }
        }
        let ready = try await offThePool { String(decoding: output.fileHandleForReading.availableData, as: UTF8.self) }
        #expect(ready.hasPrefix("ready"))
        #expect(await probe.isLocked() == false)
        try await offThePool { try Self.gdbus("SetActive", "true") }
        #expect(await probe.isLocked() == true)
        try await offThePool { try Self.gdbus("SetActive", "false") }
        #expect(await probe.isLocked() == false)
    }

    static func gdbus(_ method: String, _ argument: String) throws {
        let call = Process()
        call.executableURL = URL(fileURLWithPath: "/usr/bin/gdbus")
        call.arguments = [
            "call", "--session", "--dest", "org.gnome.ScreenSaver", "--object-path", "/org/gnome/ScreenSaver",
            "--method", "org.gnome.ScreenSaver.\(method)", argument,
        ]
        call.standardOutput = FileHandle.nullDevice
        try call.run()
        for _ in 0..<1000 where call.isRunning { usleep(10_000) }
    }
}
