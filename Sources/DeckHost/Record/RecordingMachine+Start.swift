import DeckDesktop
import DeckKit
import DeckLog
import Foundation

// Starting: the monitor, the sound, the file; one start at a time, answered once the file is open.
extension RecordingMachine {
    typealias Action = RecordingAction<File, Sound, Asker>

    /// Why a start that stopped before its file opened is refused.
    static var stoppedWhileStarting: HostMessage.RecordDenied {
        .init(reason: .error, message: "the recording was stopped while it started")
    }

    /// A start: held from here, so a second start while this one opens is refused too.
    mutating func start(_ request: Request, asker: Asker) -> [Action] {
        guard case .idle = stage else {
            return [.denied(asker, .init(reason: .alreadyRecording, message: "a recording is already running"))]
        }
        let serial = nextSerial()
        enter(.starting(Starting(serial: serial, asker: asker, request: request, waiting: .monitors)))
        return [.listMonitors(serial: serial)]
    }

    /// The desktop's monitors: the one asked for (nil: the leftmost), then the sound.
    mutating func monitors(_ serial: UInt64, _ monitors: [Monitor]) -> [Action] {
        guard case .starting(var starting) = stage, starting.serial == serial, case .monitors = starting.waiting
        else { return [] }
        let ordered = Monitor.leftToRight(monitors)
        let displayId = starting.request.displayId
        guard let monitor = displayId.map({ id in ordered.first { $0.id == id } }) ?? ordered.first else {
            enter(.idle)
            let known = ordered.map { "\($0.id)" }.joined(separator: ", ")
            let message =
                ordered.isEmpty
                ? "there is no display to record" : "no display has id \(displayId ?? -1) (ids: \(known))"
            return [.denied(starting.asker, .init(reason: .noDisplay, message: message))]
        }
        // Sound first: the file's tracks are fixed when it opens (an AAC track only when the capture runs).
        starting.waiting = .sound(monitor, nil)
        enter(.starting(starting))
        return [.joinSound(serial: serial)]
    }

    /// The actor subscribed to the sound capture: the handle is kept until the capture answers.
    mutating func soundJoined(_ serial: UInt64, _ sound: Sound) -> [Action] {
        guard case .starting(var starting) = stage, starting.serial == serial,
            case .sound(let monitor, nil) = starting.waiting
        else { return [.leaveSound(sound)] }
        starting.waiting = .sound(monitor, sound)
        enter(.starting(starting))
        return []
    }

    /// The capture said whether sound runs (`error` nil: the file gets a sound track); then the file opens.
    mutating func soundStarted(_ serial: UInt64, error: String?) -> [Action] {
        guard case .starting(var starting) = stage, starting.serial == serial,
            case .sound(let monitor, let sound?) = starting.waiting
        else { return [] }
        var actions: [Action] = []
        if let error {
            actions.append(.log(.init(level: .notice, message: "recording without sound", metadata: ["why": error])))
            actions.append(.leaveSound(sound))
        }
        starting.waiting = .file(monitor, error == nil ? sound : nil)
        enter(.starting(starting))
        let request = starting.request
        let file = RecordingFileRequest(
            monitor: monitor, maxSide: request.maxSide, fps: request.fps, sound: error == nil)
        return actions + [.openFile(serial: serial, file)]
    }

    /// The file opened: the recording runs, every device hears it, the asker is answered and the watch starts.
    /// A file that opened after its recording was stopped is closed unseen.
    mutating func fileOpened(_ serial: UInt64, _ file: File, url: URL, fps: Int) -> [Action] {
        guard case .starting(let starting) = stage, starting.serial == serial,
            case .file(let monitor, let sound) = starting.waiting
        else { return [.discardFile(file)] }
        let request = starting.request
        let limit = DeviceMessage.RecordStart.limit(request.maxSeconds)
        enter(
            .running(
                Running(
                    serial: serial, monitor: monitor, fps: fps, url: url, startedBy: request.by, file: file,
                    sound: sound, limitSeconds: limit, watch: RecordingWatch(limitSeconds: limit))))
        let metadata = [
            "display": monitor.name, "fps": "\(fps)", "sound": "\(sound != nil)", "file": url.path, "by": request.by,
        ]
        let body =
            "Monitor \(monitor.name) at \(fps) fps, started by \(request.by). Stop it with: touchdeck record stop"
        return (sound.map { [.attachSound($0, to: file)] } ?? []) + [
            .thumbnail(monitor, name: url.lastPathComponent),
            .log(.init(level: .notice, message: "recording started", metadata: metadata)),
            .notify(title: "TouchDeck is recording your screen", body: body),
            .broadcastRunning,
            .watch(serial: serial, after: .zero),
            .started(starting.asker),
        ]
    }

    /// The file could not be created or the recorder not opened: the start is refused with why.
    mutating func fileDidNotOpen(_ serial: UInt64, error: String) -> [Action] {
        guard case .starting(let starting) = stage, starting.serial == serial,
            case .file(_, let sound) = starting.waiting
        else { return [] }
        enter(.idle)
        return (sound.map { [.leaveSound($0)] } ?? []) + [
            .log(.init(level: .error, message: "recording could not start: \(error)")),
            .denied(starting.asker, .init(reason: .error, message: "the recording could not start: \(error)")),
        ]
    }
}
