import DeckKit
import DeckLog
import DeckRecord
import Foundation

// Running and stopping: the watch, failures, and the one stop path every end goes through.
extension RecordingMachine {
    /// The watch looked at the running file: its length limit, and a recording left running with nobody
    /// connected (`RecordingWatch`); otherwise it looks again (in a second, or sooner when the limit comes).
    mutating func looked(_ serial: UInt64, elapsedMicros: UInt64, devicesConnected: Int) -> [Action] {
        guard case .running(var running) = stage, running.serial == serial else { return [] }
        let step = running.watch.look(elapsedMicros: elapsedMicros, devicesConnected: devicesConnected)
        enter(.running(running))
        let again = Action.watch(serial: serial, after: running.watch.wait(elapsedMicros: elapsedMicros))
        switch step {
        case .stop:
            let limit = ["limit.seconds": "\(running.limitSeconds)"]
            return [.log(.init(level: .notice, message: "recording reached its length limit", metadata: limit))]
                + stop(.maxLength, asker: nil)
        case .tellUnattended(let minutes):
            let title = "TouchDeck is still recording your screen (\(minutes) min)"
            return [.notify(title: title, body: "No device is connected. Stop it with: touchdeck record stop"), again]
        case .none:
            return [again]
        }
    }

    /// The recorder reported a failure once (a capture or encoder failure, a full disk).
    mutating func failed(_ serial: UInt64, _ error: RecordingError) -> [Action] {
        guard currentSerial == serial else { return [] }
        return [.log(.init(level: .error, message: "recording stopped: \(error)"))]
            + stop(error == .diskFull ? .diskFull : .error, asker: nil)
    }

    /// The serial of the recording starting or running.
    var currentSerial: UInt64? {
        switch stage {
        case .idle: nil
        case .starting(let starting): starting.serial
        case .running(let running): running.serial
        }
    }

    /// The one stop path: `recordStop`, `touchdeck record stop`, a record key, the length limit, a full disk, a
    /// capture or encoder failure and the host quitting all end here. A running recording leaves the sound
    /// capture before its file closes (off the actor); `asker` hears the saved file once it is closed. A
    /// starting one ends at once: every device hears `idle` and its asker that it was stopped.
    mutating func stop(_ reason: HostMessage.RecordState.StopReason, asker: Asker?) -> [Action] {
        let told: [Action] = asker.map { [.saved($0, nil)] } ?? []
        switch stage {
        case .idle:
            return told
        case .starting(let starting):
            enter(.idle)
            return leaveSound(of: starting.waiting) + [
                .broadcast(.init(state: .idle)), .denied(starting.asker, Self.stoppedWhileStarting),
            ] + told
        case .running(let running):
            enter(.idle)
            close(running.serial, Closing(reason: reason, asker: asker))
            return (running.sound.map { [.leaveSound($0)] } ?? []) + [.closeFile(serial: running.serial, running.file)]
        }
    }

    private func leaveSound(of waiting: Waiting) -> [Action] {
        switch waiting {
        case .monitors, .sound(_, nil), .file(_, nil): []
        case .sound(_, let sound?), .file(_, let sound?): [.leaveSound(sound)]
        }
    }

    /// The file is closed: every device hears `idle` with its length and name, the user where it was saved,
    /// and whoever stopped it gets its entry.
    mutating func fileClosed(_ serial: UInt64, _ file: ClosedRecording) -> [Action] {
        guard let closing = closed(serial) else { return [] }
        let name = file.url.lastPathComponent
        let elapsedMs = Int(file.durationMicros / 1000)
        let state = HostMessage.RecordState(
            state: .idle, elapsedMs: elapsedMs, name: file.saved ? name : nil, reason: closing.reason)
        let length = Self.clock(file.durationMicros)
        let saved = ["file": file.url.path, "length": length, "reason": closing.reason.rawValue]
        let entry =
            file.saved ? HostMessage.RecordingEntry(name: name, size: Int(file.bytes), durationMs: elapsedMs) : nil
        return [
            .broadcast(state),
            .log(.init(level: .notice, message: "recording saved", metadata: saved)),
            notice(closing.reason, file, length: length),
        ] + (closing.asker.map { [.saved($0, entry)] } ?? [])
    }

    /// What the user is told when a file was saved, by why the recording stopped.
    private func notice(_ reason: HostMessage.RecordState.StopReason, _ file: ClosedRecording, length: String) -> Action
    {
        let name = file.url.lastPathComponent
        let folder = file.url.deletingLastPathComponent().path
        let savedAs = "Saved \(length) as \(name) in \(folder)"
        switch reason {
        case .diskFull: return .notify(title: "TouchDeck stopped recording: the disk is full", body: savedAs)
        case .error:
            return .notify(title: "TouchDeck stopped recording: \(file.error ?? "an error")", body: savedAs)
        case .maxLength: return .notify(title: "TouchDeck stopped recording at its length limit", body: savedAs)
        case .requested, .ended:
            return .notify(title: "TouchDeck saved a recording", body: "\(name) (\(length)) in \(folder)")
        }
    }

    /// "1:05" for 65 s.
    static func clock(_ micros: UInt64) -> String {
        let seconds = Int(micros / 1_000_000)
        return String(format: "%d:%02d", seconds / 60, seconds % 60)
    }
}
