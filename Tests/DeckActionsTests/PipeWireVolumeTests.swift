import DeckDesktop
import DeckSound
import DeckTesting
import Foundation
import Testing

@testable import DeckActions

/// The live volume checks of `VolumeControlTests`, run against PipeWire's PulseAudio server
/// (pipewire-pulse with WirePlumber) instead of PulseAudio: the same libpulse calls must work on both.
/// Each test starts its own PipeWire through `scripts/with-pipewire`; no desktop variables are needed.
@Suite struct PipeWireVolumeTests {
    func near(_ level: Double) -> @Sendable (VolumeState) -> Bool {
        { $0.available && abs($0.level - level) < 0.01 }
    }

    @Test func theServerIsPipeWire() async throws {
        let pipewire = try PrivatePipeWire()
        try await pipewire.start()
        #expect(try pipewire.pactl("info").contains("Server Name: PulseAudio (on PipeWire"))
        #expect(try pipewire.pactl("get-default-sink").contains(PrivatePipeWire.sink))
    }

    @Test func setLevelIsSeenByPactl() async throws {
        let pipewire = try PrivatePipeWire()
        try await pipewire.start()
        let inbox = Inbox<VolumeState>()
        let volume = VolumeControl.live(server: pipewire.server, onChange: inbox.send)
        #expect(await inbox.next(where: \.available) != nil)
        #expect(await volume.setLevel(0.3) == .ok)
        #expect(try pipewire.pactl("get-sink-volume", "@DEFAULT_SINK@").contains("/  30% /"))
        #expect(await inbox.next(where: near(0.3)) != nil)
        #expect(abs(volume.current().level - 0.3) < 0.01)
    }

    @Test func changesMadeElsewhereArePushed() async throws {
        let pipewire = try PrivatePipeWire()
        try await pipewire.start()
        let inbox = Inbox<VolumeState>()
        let volume = VolumeControl.live(server: pipewire.server, onChange: inbox.send)
        #expect(await inbox.next(where: \.available) != nil)
        try pipewire.pactl("set-sink-volume", "@DEFAULT_SINK@", "45%")
        #expect(await inbox.next(where: near(0.45)) != nil)
        try pipewire.pactl("set-sink-mute", "@DEFAULT_SINK@", "1")
        #expect(await inbox.next(where: \.muted) != nil)
        #expect(await volume.toggleMute() == .ok)
        #expect(try pipewire.pactl("get-sink-mute", "@DEFAULT_SINK@").contains("Mute: no"))
        #expect(await inbox.next(where: { $0.available && !$0.muted }) != nil)
    }

    @Test func channelsAreAveraged() async throws {
        let pipewire = try PrivatePipeWire()
        try await pipewire.start()
        let inbox = Inbox<VolumeState>()
        let volume = VolumeControl.live(server: pipewire.server, onChange: inbox.send)
        #expect(await inbox.next(where: \.available) != nil)
        try pipewire.pactl("set-sink-volume", "@DEFAULT_SINK@", "20%", "60%")
        #expect(await inbox.next(where: near(0.4)) != nil)
        try pipewire.pactl("set-sink-volume", "@DEFAULT_SINK@", "150%")
        #expect(await inbox.next(where: near(1)) != nil)
        #expect(volume.current().level <= 1)
    }

    /// PipeWire opens its pulse socket a moment before WirePlumber has a default sink, so a retry may land
    /// in between: the control must then follow the default sink that appears after it connected.
    @Test func noServerIsUnavailableUntilOneAppears() async throws {
        let pipewire = try PrivatePipeWire()
        let inbox = Inbox<VolumeState>()
        let volume = VolumeControl.live(server: pipewire.server, retryEvery: .milliseconds(200), onChange: inbox.send)
        #expect(await inbox.next(where: { $0 == .unavailable }) != nil)
        #expect(await volume.setLevel(0.5) == .failed("no sound server"))
        #expect(await volume.toggleMute() == .failed("no sound server"))
        try await pipewire.start()
        #expect(await inbox.next(where: \.available) != nil)
        pipewire.stop()
        #expect(await inbox.next(where: { !$0.available }) != nil)
        try await pipewire.start()
        #expect(await inbox.next(where: \.available) != nil)
        // The `available` above may come from PipeWire's dummy sink, just before WirePlumber makes the null sink
        // the default; the control learns of the new default from the server's change event a moment later
        // (longer on a loaded machine), so the level must reach the null sink within a bounded number of tries.
        var reached = false
        for _ in 0..<50 where !reached {
            let applied = await volume.setLevel(0.25) == .ok
            reached = try applied && pipewire.pactl("get-sink-volume", "@DEFAULT_SINK@").contains("/  25% /")
            if !reached { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(reached, "setLevel never reached the default sink PipeWire settled on")
    }
}

/// A PipeWire of the test's own (session bus, pipewire, wireplumber, pipewire-pulse, null sink), started
/// by `scripts/with-pipewire --dir`, so the recipe lives in one place; stopped by the script's PID, whose
/// exit stops the servers.
final class PrivatePipeWire {
    static let sink = "touchdeck_null"
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../scripts/with-pipewire").standardized.path

    let dir: String
    var server: String { "unix:" + dir + "/run/pulse/native" }
    private var ready: String { dir + "/ready" }
    private var output: String { dir + "/with-pipewire.out" }
    private var child: ChildExit?

    init() throws {
        dir = NSTemporaryDirectory() + "touchdeck-pw-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// Returns once the null sink is the default: the script runs its command (which marks `ready`) only
    /// then. Fails with the script's output (the servers' logs) if it gives up.
    func start() async throws {
        let log = open(output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        defer { close(log) }
        let marker = ["/bin/sh", "-c", "touch \"$1\" && exec sleep infinity", "sh", ready]
        child = try DetachedProcess.spawn(
            ["/bin/bash", Self.script, "--dir", dir] + marker, environment: ["PATH": "/usr/bin:/bin"],
            directory: dir, output: log)
        // The script bounds each of its own waits; a minute here only guards against a hung script.
        for _ in 0..<2400 where !FileManager.default.fileExists(atPath: ready) && child?.ended == nil {
            try await Task.sleep(for: .milliseconds(25))
        }
        let said = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        try #require(FileManager.default.fileExists(atPath: ready), "scripts/with-pipewire failed:\n\(said)")
    }

    func stop() {
        guard let child else { return }
        kill(child.pid, SIGTERM)
        while child.ended == nil { usleep(5000) }
        try? FileManager.default.removeItem(atPath: ready)
        self.child = nil
    }

    @discardableResult
    func pactl(_ arguments: String...) throws -> String {
        try LiveDesktop.run(["pactl", "--server=\(server)"] + arguments)
    }
}
