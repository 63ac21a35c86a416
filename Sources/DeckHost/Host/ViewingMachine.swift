import DeckActions
import DeckDesktop
import DeckKit
import DeckTransport
import Foundation

/// Screen viewing's stages (PROTOCOL §6 "Screen", §7 "Video"): idle → starting (waiting for the stream to open
/// and for a sound asked for to say whether it runs) → running (announced with `screenStarted`) → idle.
///
/// A value like `SessionMachine`: every event returns `ViewingAction`s and the actor performs them (the desktop
/// looked at, the stream and the sound opened and stopped off the actor, the pointer lane, messages, the log),
/// feeding what comes back in as events. Each viewing and each sound join has its own number, so an answer
/// that belongs to an ended one is recognized here, in one place. `Stream` and `Sound` are the handles the actor
/// opened (`ScreenStream`, `AudioStream`); tests use plain values.
struct ViewingMachine<Stream, Sound> {
    /// One viewing, from the access decision to its end.
    struct Viewing {
        let serial: UInt64
        let connection: ConnectionID
        let viewer: ScreenAccess.Viewer
        /// For Extend, the asked size until the made monitor replaces it when the stream opens.
        var monitor: Monitor
        var displayId: Int
        /// Extend: the monitor is one made for this viewing (`monitor` once the stream opened).
        var extend: ExtendRequest?
        var pointer: PointerDriver
        /// A pointer wake-up is scheduled (a move held back by the 60-per-second limit).
        var wakeScheduled = false
        var sound = SoundStage.off
        /// The device may trade the clipboard (its permission, on a desktop that has one).
        var clipboardAllowed = false
        /// The follow of the computer's clipboard under way for this viewer, by its ticket.
        var clipboard: UInt64?
    }

    /// The viewer's sound (`audio`), a consumer of the shared capture.
    enum SoundStage {
        case off
        /// Subscribed under `ticket`; `Sound` is nil until the actor hands over the handle it made.
        case joining(ticket: UInt64, Sound?)
        case running(ticket: UInt64, Sound)
    }

    /// The opened stream and what `screenStarted` says of it.
    struct Opened {
        let stream: Stream
        let width: Int
        let height: Int
        let fps: Int
        /// Why the pointer and keys do not reach the desktop (`screenStarted.viewOnly`), if they do not.
        let viewOnly: String?
        /// Extend: the monitor made for the viewing and where the pointer lands across it.
        var made: (monitor: Monitor, pointerArea: PixelRect)? = nil
    }

    enum Stage {
        case idle
        /// Waits for the stream (`nil` until it opened) and for a sound that is `joining`.
        case starting(Viewing, Opened?)
        /// `screenStarted` went out; the lock and the permission are watched.
        case running(Viewing, Opened)
    }

    private(set) var stage = Stage.idle
    /// The last number handed to a viewing or a sound join.
    private var tickets: UInt64 = 0

    /// The current viewing in any stage.
    var viewing: Viewing? {
        switch stage {
        case .idle: nil
        case .starting(let viewing, _), .running(let viewing, _): viewing
        }
    }

    /// The current stream, once it opened.
    var opened: Opened? {
        switch stage {
        case .idle: nil
        case .starting(_, let opened): opened
        case .running(_, let opened): opened
        }
    }

    /// The viewing's number while `connection` views and `screenStarted` has gone out (typing waits for it).
    func announcedSerial(of connection: ConnectionID) -> UInt64? {
        guard case .running(let viewing, _) = stage, viewing.connection == connection else { return nil }
        return viewing.serial
    }

    /// Whether viewing `serial` is still the current one, in any stage.
    func isCurrent(_ serial: UInt64) -> Bool { viewing?.serial == serial }

    /// Whether the viewer's sound runs.
    var soundRunning: Bool {
        if case .running = viewing?.sound { return true }
        return false
    }

    mutating func nextTicket() -> UInt64 {
        tickets += 1
        return tickets
    }

    /// Replaces the current viewing's record (its stage kept).
    mutating func update(_ change: (inout Viewing) -> Void) {
        switch stage {
        case .idle: break
        case .starting(var viewing, let opened):
            change(&viewing)
            stage = .starting(viewing, opened)
        case .running(var viewing, let opened):
            change(&viewing)
            stage = .running(viewing, opened)
        }
    }

    mutating func enter(_ next: Stage) { stage = next }
}

/// What the actor does for the viewing machine.
enum ViewingAction<Stream, Sound> {
    /// Seal and send a message to one connection.
    case send(HostMessage, to: ConnectionID)
    /// Look at the desktop for a start (its monitors, the lock, whether its user must approve), then `looked`.
    case look(DeviceMessage.StartScreen, from: ConnectionID)
    /// Open the stream off the actor, then `streamOpened` or `streamDidNotOpen`.
    case openStream(serial: UInt64, ViewingStreamRequest)
    /// Subscribe the viewer's sound on the actor (in order with every leave), then `soundJoined` at once and
    /// `soundStarted` when the capture answers.
    case joinSound(ticket: UInt64, connection: ConnectionID)
    case setFPS(Stream, Int)
    case requestKeyframe(Stream)
    /// Stop the stream off the actor (joining the capture thread may wait for a frame being encoded).
    case stopStream(Stream)
    /// The viewer's device turned and asks Extend again: the monitor made for it goes to the next stream (which
    /// resizes it where the desktop can, so its windows stay) instead of away with the stopped stream. Comes
    /// before that `stopStream`.
    case keepMonitor(Monitor)
    /// Follow the computer's clipboard for the viewer; each copy comes back as `clipboardCopied(ticket, …)`.
    case followClipboard(ticket: UInt64)
    /// End that follow (nothing it read is kept).
    case stopClipboard(ticket: UInt64)
    /// Leave the sound capture and log what it sent.
    case leaveSound(Sound, viewer: String)
    /// Pointer actions, on the pointer lane in order.
    case input([InputAction])
    /// Call `pointerWake(serial)` at `at` (system uptime).
    case wakePointer(serial: UInt64, at: TimeInterval)
    /// After `after`, look whether the desktop is locked and the viewer still allowed, then `watched`.
    case watch(serial: UInt64, connection: ConnectionID, after: Duration)
    case log(LogLine)
    case notify(title: String, body: String)
}

extension ViewingAction: Equatable where Stream: Equatable, Sound: Equatable {}

/// What a stream is opened with (the encoder is the desktop's, added by the actor).
struct ViewingStreamRequest: Equatable {
    let connection: ConnectionID
    let monitor: Monitor
    let maxSide: Int
    let fps: Int
    /// Extend: a monitor is made first (and `monitor` is only its asked size).
    var extend: ExtendRequest? = nil
}

/// What the actor found when it looked at the desktop for a start, and who asks.
struct ViewingLook: Equatable {
    var deviceId: String
    var name: String
    /// The device's "screen allowed" now (it may have changed while the desktop was asked).
    var allowed: Bool
    /// Nil: the desktop cannot be captured.
    var monitors: [Monitor]?
    var locked: Bool
    var needsApproval: Bool
    /// The device may trade the clipboard, and this desktop has one.
    var clipboard = false
    /// For an Extend request: why this desktop cannot add a monitor (nil: it can).
    var extendUnavailable: String? = nil
}
