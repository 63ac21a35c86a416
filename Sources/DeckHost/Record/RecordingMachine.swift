import DeckDesktop
import DeckKit
import Foundation

/// The recording's stages (PROTOCOL §6 "Recording"): idle → starting (waiting for the monitors, then for the
/// sound to say whether it runs, then for the file to open) → running (watched for its length limit) → idle,
/// the file still closing off the actor.
///
/// A value like `SessionMachine`: every event returns `RecordingAction`s, the actor performs them (the desktop
/// asked, the sound joined, the file opened and closed off the actor, messages, the log) and feeds what comes
/// back in as events. `File` and `Sound` are the handles the actor opened (`Recorder`, `RecordingSound`),
/// `Asker` whoever waits for a start's or a stop's answer; tests use plain values.
struct RecordingMachine<File, Sound, Asker> {
    /// What a start asks for.
    struct Request: Equatable {
        /// Nil: the leftmost monitor.
        var displayId: Int?
        var fps: Int
        var maxSide: Int?
        var maxSeconds: Int?
        /// A device's name, or "touchdeck record".
        var by: String
    }

    /// What a starting recording waits for, in this order.
    enum Waiting {
        case monitors
        /// The sound capture's answer; `Sound` is nil until the actor hands over the handle it subscribed.
        case sound(Monitor, Sound?)
        /// The file; `Sound` nil: a video-only file.
        case file(Monitor, Sound?)
    }

    struct Starting {
        let serial: UInt64
        let asker: Asker
        let request: Request
        var waiting: Waiting
    }

    struct Running {
        let serial: UInt64
        let monitor: Monitor
        let fps: Int
        let url: URL
        let startedBy: String
        let file: File
        let sound: Sound?
        let limitSeconds: Int
        var watch: RecordingWatch
    }

    enum Stage {
        case idle
        case starting(Starting)
        case running(Running)
    }

    /// A stopped recording whose file is being closed: who waits for it and why it stopped. A new recording may
    /// start meanwhile.
    struct Closing {
        let reason: HostMessage.RecordState.StopReason
        let asker: Asker?
    }

    private(set) var stage = Stage.idle
    private(set) var closing: [UInt64: Closing] = [:]
    /// The last number handed to a recording.
    private var serial: UInt64 = 0

    /// The running recording, once its file is open.
    var running: Running? {
        if case .running(let running) = stage { return running }
        return nil
    }

    /// Whether a recording is starting or running (a second start is refused; a stop has something to stop).
    var isBusy: Bool {
        if case .idle = stage { return false }
        return true
    }

    mutating func nextSerial() -> UInt64 {
        serial += 1
        return serial
    }

    mutating func enter(_ next: Stage) { stage = next }

    mutating func close(_ serial: UInt64, _ closing: Closing) { self.closing[serial] = closing }

    mutating func closed(_ serial: UInt64) -> Closing? { closing.removeValue(forKey: serial) }
}

/// What the actor does for the recording machine.
enum RecordingAction<File, Sound, Asker> {
    /// Ask the desktop for its monitors, then `monitors`.
    case listMonitors(serial: UInt64)
    /// Subscribe to the sound capture on the actor (in order with every leave), then `soundJoined` at once and
    /// `soundStarted` when the capture answers.
    case joinSound(serial: UInt64)
    /// Create the file and its recorder off the actor, then `fileOpened` or `fileDidNotOpen`.
    case openFile(serial: UInt64, RecordingFileRequest)
    /// From now on the sound's packets go to the file.
    case attachSound(Sound, to: File)
    /// Leave the sound capture (before the file closes; the last consumer out gives the speakers back).
    case leaveSound(Sound)
    /// Close the file off the actor (the queue drains, the trailer is written), then `fileClosed`.
    case closeFile(serial: UInt64, File)
    /// A file that opened after its recording was stopped: closed off the actor, nobody waits for it.
    case discardFile(File)
    /// The list's picture of the recording: the monitor as it starts.
    case thumbnail(Monitor, name: String)
    /// After `after`, look at the running file's length and the devices connected, then `looked`.
    case watch(serial: UInt64, after: Duration)
    /// Send this state to every authorized device.
    case broadcast(HostMessage.RecordState)
    /// Send the running recording's state now (paused or not, its length) to every authorized device.
    case broadcastRunning
    /// The start succeeded: answer with the state just sent.
    case started(Asker)
    case denied(Asker, HostMessage.RecordDenied)
    /// The stop is done: the saved file's entry, nil when nothing was saved.
    case saved(Asker, HostMessage.RecordingEntry?)
    case log(LogLine)
    case notify(title: String, body: String)
}

extension RecordingAction: Equatable where File: Equatable, Sound: Equatable, Asker: Equatable {}

/// What a recording's file is opened with (the encoder is the desktop's, added by the actor).
struct RecordingFileRequest: Equatable {
    let monitor: Monitor
    let maxSide: Int?
    let fps: Int
    /// Whether the file gets a sound track (fixed when it opens).
    let sound: Bool
}

/// What the actor learned of a closed file.
struct ClosedRecording: Equatable {
    let url: URL
    let durationMicros: UInt64
    let bytes: Int64
    /// The file is on disk.
    let saved: Bool
    /// What ended it, when it was a failure.
    let error: String?
}
