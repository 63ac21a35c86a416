import DeckDesktop
import DeckKit
import DeckRecord
import Foundation
import Testing

@testable import DeckHost

/// The recording machine's transitions, every start and every stop path, with plain strings for the file, the
/// sound and whoever waits for an answer (the same paths through the daemon are in Tests/live/test_record_live.py).
@Suite struct RecordingMachineTests {
    typealias Machine = RecordingMachine<String, String, String>
    typealias Action = RecordingAction<String, String, String>

    static let left = Monitor(id: 7, name: "DP-1", frame: PixelRect(x: 0, y: 0, width: 640, height: 360))
    static let right = Monitor(id: 5, name: "HDMI-1", frame: PixelRect(x: 640, y: 0, width: 640, height: 360))
    static let url = URL(fileURLWithPath: "/videos/TouchDeck 2026-12-02 DP-1.mp4")
    var machine = Machine()

    static func request(displayId: Int? = nil, maxSeconds: Int? = nil) -> Machine.Request {
        .init(displayId: displayId, fps: 30, maxSide: nil, maxSeconds: maxSeconds, by: "iPad")
    }

    static let stoppedWhileStarting = HostMessage.RecordDenied(
        reason: .error, message: "the recording was stopped while it started")

    /// Starts a recording of the leftmost monitor up to its open file; returns the actions of the open.
    @discardableResult
    mutating func run(sound: Bool = true, maxSeconds: Int? = nil) -> [Action] {
        _ = machine.start(Self.request(maxSeconds: maxSeconds), asker: "device")
        _ = machine.monitors(1, [Self.right, Self.left])
        _ = machine.soundJoined(1, "sound")
        _ = machine.soundStarted(1, error: sound ? nil : "no sound server")
        return machine.fileOpened(1, "file", url: Self.url, fps: 30)
    }

    static func closed(saved: Bool = true, error: String? = nil) -> ClosedRecording {
        ClosedRecording(url: url, durationMicros: 65_000_000, bytes: 4096, saved: saved, error: error)
    }

    @Test mutating func aStartWaitsForTheMonitorsThenTheSoundThenTheFile() {
        #expect(machine.start(Self.request(), asker: "device") == [.listMonitors(serial: 1)])
        #expect(machine.monitors(1, [Self.right, Self.left]) == [.joinSound(serial: 1)])
        #expect(machine.soundJoined(1, "sound").isEmpty)
        let file = RecordingFileRequest(monitor: Self.left, maxSide: nil, fps: 30, sound: true)
        #expect(machine.soundStarted(1, error: nil) == [.openFile(serial: 1, file)])
        #expect(machine.running == nil && machine.isBusy)
        let metadata = ["display": "DP-1", "fps": "30", "sound": "true", "file": Self.url.path, "by": "iPad"]
        #expect(
            machine.fileOpened(1, "file", url: Self.url, fps: 30) == [
                .attachSound("sound", to: "file"),
                .thumbnail(Self.left, name: Self.url.lastPathComponent),
                .log(.init(level: .notice, message: "recording started", metadata: metadata)),
                .notify(
                    title: "TouchDeck is recording your screen",
                    body: "Monitor DP-1 at 30 fps, started by iPad. Stop it with: touchdeck record stop"),
                .broadcastRunning,
                .watch(serial: 1, after: .zero),
                .started("device"),
            ])
        #expect(machine.running?.file == "file")
    }

    @Test mutating func aMonitorAskedForByIdIsRecorded() {
        _ = machine.start(Self.request(displayId: 5), asker: "device")
        _ = machine.monitors(1, [Self.left, Self.right])
        _ = machine.soundJoined(1, "sound")
        let file = RecordingFileRequest(monitor: Self.right, maxSide: nil, fps: 30, sound: true)
        #expect(machine.soundStarted(1, error: nil) == [.openFile(serial: 1, file)])
    }

    @Test mutating func noSoundMakesAVideoOnlyFile() {
        _ = machine.start(Self.request(), asker: "device")
        _ = machine.monitors(1, [Self.left])
        _ = machine.soundJoined(1, "sound")
        let file = RecordingFileRequest(monitor: Self.left, maxSide: nil, fps: 30, sound: false)
        let notice = LogLine(level: .notice, message: "recording without sound", metadata: ["why": "no sound server"])
        #expect(
            machine.soundStarted(1, error: "no sound server") == [
                .log(notice), .leaveSound("sound"), .openFile(serial: 1, file),
            ])
        #expect(
            machine.fileOpened(1, "file", url: Self.url, fps: 30).first
                == .thumbnail(Self.left, name: Self.url.lastPathComponent))
        #expect(machine.running?.sound == nil)
    }

    @Test mutating func noDisplayOrAnUnknownOneIsDenied() {
        _ = machine.start(Self.request(), asker: "device")
        #expect(
            machine.monitors(1, []) == [
                .denied("device", .init(reason: .noDisplay, message: "there is no display to record"))
            ])
        #expect(!machine.isBusy)
        _ = machine.start(Self.request(displayId: 99), asker: "device")
        let unknown = HostMessage.RecordDenied(reason: .noDisplay, message: "no display has id 99 (ids: 7, 5)")
        #expect(machine.monitors(2, [Self.right, Self.left]) == [.denied("device", unknown)])
        #expect(!machine.isBusy)
    }

    @Test mutating func aSecondStartWhileStartingOrRunningIsRefused() {
        let already = HostMessage.RecordDenied(reason: .alreadyRecording, message: "a recording is already running")
        _ = machine.start(Self.request(), asker: "device")
        #expect(machine.start(Self.request(), asker: "key") == [.denied("key", already)])
        _ = machine.monitors(1, [Self.left])
        #expect(machine.start(Self.request(), asker: "key") == [.denied("key", already)])
        _ = machine.soundJoined(1, "sound")
        _ = machine.soundStarted(1, error: nil)
        #expect(machine.start(Self.request(), asker: "key") == [.denied("key", already)])
        _ = machine.fileOpened(1, "file", url: Self.url, fps: 30)
        #expect(machine.start(Self.request(), asker: "key") == [.denied("key", already)])
    }

    @Test mutating func aStartThatFailsIsDeniedWithWhy() {
        _ = machine.start(Self.request(), asker: "device")
        _ = machine.monitors(1, [Self.left])
        _ = machine.soundJoined(1, "sound")
        _ = machine.soundStarted(1, error: nil)
        #expect(
            machine.fileDidNotOpen(1, error: "the folder is gone") == [
                .leaveSound("sound"),
                .log(.init(level: .error, message: "recording could not start: the folder is gone")),
                .denied("device", .init(reason: .error, message: "the recording could not start: the folder is gone")),
            ])
        #expect(!machine.isBusy)
    }

    @Test mutating func aStopWhileWaitingForTheMonitors() {
        _ = machine.start(Self.request(), asker: "device")
        #expect(
            machine.stop(.requested, asker: "stopper") == [
                .broadcast(.init(state: .idle)), .denied("device", Self.stoppedWhileStarting), .saved("stopper", nil),
            ])
        #expect(machine.monitors(1, [Self.left]).isEmpty)
    }

    @Test mutating func aStopWhileWaitingForTheSoundLeavesItAndALateJoinIsLeftToo() {
        _ = machine.start(Self.request(), asker: "device")
        _ = machine.monitors(1, [Self.left])
        #expect(
            machine.stop(.requested, asker: nil) == [
                .broadcast(.init(state: .idle)), .denied("device", Self.stoppedWhileStarting),
            ])
        #expect(machine.soundJoined(1, "sound") == [.leaveSound("sound")])
        #expect(machine.soundStarted(1, error: nil).isEmpty)
    }

    @Test mutating func aStopWhileTheFileOpensClosesTheLateFileUnseen() {
        _ = machine.start(Self.request(), asker: "device")
        _ = machine.monitors(1, [Self.left])
        _ = machine.soundJoined(1, "sound")
        _ = machine.soundStarted(1, error: nil)
        #expect(
            machine.stop(.ended, asker: "shutdown") == [
                .leaveSound("sound"), .broadcast(.init(state: .idle)), .denied("device", Self.stoppedWhileStarting),
                .saved("shutdown", nil),
            ])
        #expect(machine.fileOpened(1, "file", url: Self.url, fps: 30) == [.discardFile("file")])
        #expect(machine.fileDidNotOpen(1, error: "late").isEmpty)
        #expect(machine.start(Self.request(), asker: "again") == [.listMonitors(serial: 2)])
    }

    @Test mutating func aStopWhileNothingRecordsAnswersNothingSaved() {
        #expect(machine.stop(.requested, asker: "stopper") == [.saved("stopper", nil)])
        #expect(machine.stop(.requested, asker: nil).isEmpty)
    }

    @Test mutating func theDeviceStoppingLeavesTheSoundBeforeTheFileClosesThenTellsEveryone() {
        run()
        #expect(machine.stop(.requested, asker: "stopper") == [.leaveSound("sound"), .closeFile(serial: 1, "file")])
        #expect(!machine.isBusy && machine.running == nil)
        let state = HostMessage.RecordState(
            state: .idle, elapsedMs: 65_000, name: Self.url.lastPathComponent, reason: .requested)
        let saved = ["file": Self.url.path, "length": "1:05", "reason": "requested"]
        let entry = HostMessage.RecordingEntry(name: Self.url.lastPathComponent, size: 4096, durationMs: 65_000)
        #expect(
            machine.fileClosed(1, Self.closed()) == [
                .broadcast(state),
                .log(.init(level: .notice, message: "recording saved", metadata: saved)),
                .notify(title: "TouchDeck saved a recording", body: "\(Self.url.lastPathComponent) (1:05) in /videos"),
                .saved("stopper", entry),
            ])
        #expect(machine.fileClosed(1, Self.closed()).isEmpty)
    }

    @Test mutating func aFileThatWasNotSavedHasNoNameAndNoEntry() {
        run()
        _ = machine.stop(.error, asker: "stopper")
        let actions = machine.fileClosed(1, Self.closed(saved: false, error: "the capture ended: gone"))
        #expect(actions.first == .broadcast(.init(state: .idle, elapsedMs: 65_000, name: nil, reason: .error)))
        #expect(actions.last == .saved("stopper", nil))
    }

    @Test mutating func aNewRecordingMayStartWhileTheLastFileCloses() {
        run()
        _ = machine.stop(.requested, asker: "first")
        #expect(machine.start(Self.request(), asker: "second") == [.listMonitors(serial: 2)])
        #expect(
            machine.fileClosed(1, Self.closed()).last
                == .saved("first", .init(name: Self.url.lastPathComponent, size: 4096, durationMs: 65_000)))
        #expect(machine.isBusy)
    }

    @Test mutating func aFullDiskStopsItWithDiskFull() {
        run()
        let actions = machine.failed(1, .diskFull)
        #expect(
            actions == [
                .log(.init(level: .error, message: "recording stopped: the disk is full")), .leaveSound("sound"),
                .closeFile(serial: 1, "file"),
            ])
        let folder = "Saved 1:05 as \(Self.url.lastPathComponent) in /videos"
        #expect(
            machine.fileClosed(1, Self.closed()).contains(
                .notify(title: "TouchDeck stopped recording: the disk is full", body: folder)))
    }

    @Test mutating func aCaptureThatEndsStopsItWithErrorOnce() {
        // The monitor gone, the desktop session restarted: the recorder reports it once; a late second is ignored.
        run()
        _ = machine.failed(1, .capture("the monitor was unplugged"))
        #expect(machine.failed(1, .capture("the monitor was unplugged")).isEmpty)
        let actions = machine.fileClosed(1, Self.closed(error: "the capture ended: the monitor was unplugged"))
        let folder = "Saved 1:05 as \(Self.url.lastPathComponent) in /videos"
        #expect(
            actions.contains(
                .notify(
                    title: "TouchDeck stopped recording: the capture ended: the monitor was unplugged", body: folder)))
        #expect(
            actions.first
                == .broadcast(.init(state: .idle, elapsedMs: 65_000, name: Self.url.lastPathComponent, reason: .error)))
    }

    @Test mutating func aFailureWhileStartingEndsTheStart() {
        _ = machine.start(Self.request(), asker: "device")
        _ = machine.monitors(1, [Self.left])
        _ = machine.soundJoined(1, "sound")
        let actions = machine.failed(1, .encoder("no x264"))
        #expect(actions.contains(.denied("device", Self.stoppedWhileStarting)))
        #expect(!machine.isBusy)
    }

    @Test mutating func theWatchLooksAgainUntilTheLengthLimit() {
        run(maxSeconds: 2)
        #expect(
            machine.looked(1, elapsedMicros: 500_000, devicesConnected: 1) == [.watch(serial: 1, after: .seconds(1))])
        #expect(
            machine.looked(1, elapsedMicros: 1_500_000, devicesConnected: 1) == [
                .watch(serial: 1, after: .milliseconds(500))
            ])
        let limit = LogLine(
            level: .notice, message: "recording reached its length limit", metadata: ["limit.seconds": "2"])
        #expect(
            machine.looked(1, elapsedMicros: 2_000_000, devicesConnected: 1) == [
                .log(limit), .leaveSound("sound"), .closeFile(serial: 1, "file"),
            ])
        #expect(machine.looked(1, elapsedMicros: 2_100_000, devicesConnected: 1).isEmpty)
        let folder = "Saved 1:05 as \(Self.url.lastPathComponent) in /videos"
        #expect(
            machine.fileClosed(1, Self.closed()).contains(
                .notify(title: "TouchDeck stopped recording at its length limit", body: folder)))
    }

    @Test mutating func aRecordingLeftWithNobodyConnectedIsToldOnce() {
        run()
        let told = Action.notify(
            title: "TouchDeck is still recording your screen (10 min)",
            body: "No device is connected. Stop it with: touchdeck record stop")
        #expect(
            machine.looked(1, elapsedMicros: 600_000_000, devicesConnected: 0) == [
                told, .watch(serial: 1, after: .seconds(1)),
            ])
        #expect(
            machine.looked(1, elapsedMicros: 601_000_000, devicesConnected: 0) == [
                .watch(serial: 1, after: .seconds(1))
            ])
    }
}
