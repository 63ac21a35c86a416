import DeckKit
import DeckMedia
import DeckRecord
import DeckScreen
import DeckTransport
import Foundation

/// The recording the host runs (at most one), as the actor keeps it.
struct RecordingJob {
    let serial: UInt64
    let monitor: Monitor
    let fps: Int
    let url: URL
    /// Who started it: a device's name, or "touchdeck record".
    let startedBy: String
    /// Nil while the recorder is being opened (off the actor).
    var recorder: Recorder?
    /// Its place in the shared sound capture, when the file has a sound track.
    var sound: RecordingSound?
}

/// What the actor holds for recording: the job, its folder and the fetches in flight.
struct RecordingHost {
    var library: RecordingLibrary
    var job: RecordingJob?
    var serial: UInt64 = 0
    /// Connections with a `fetchRecording` being read (one chunk in flight per device connection).
    var fetching: Set<ConnectionID> = []
    /// The last state broadcast, for devices that authorize later.
    var state = HostMessage.RecordState(state: .idle)
}

// Recording (PROTOCOL §6 "Recording", SPEC §11): start, pause, resume, the one stop path, the state broadcast,
// the list and the fetch.
extension DeckServer {
    /// A recording request from a device; only devices allowed to view the screen may record or read.
    func handleRecording(_ message: DeviceMessage, from id: ConnectionID) {
        guard screenAllowed(for: id) else {
            if case .listRecordings = message { return sendSealed(.recordings(.init(recordings: [])), to: id) }
            return sendSealed(
                .recordDenied(.init(reason: .notAllowed, message: "this device may not view the screen")), to: id)
        }
        let name = connections[id]?.session.authorizedDevice.flatMap { devices.record(id: $0)?.name } ?? "a device"
        switch message {
        case .recordStart(let request):
            Task {
                let outcome = await self.startRecording(
                    displayId: request.displayId, fps: request.fps, maxSide: request.maxSide, by: name)
                if let denial = outcome.denial { self.sendSealed(.recordDenied(denial), to: id) }
            }
        case .recordPause: if let denial = pauseRecording(true) { sendSealed(.recordDenied(denial), to: id) }
        case .recordResume: if let denial = pauseRecording(false) { sendSealed(.recordDenied(denial), to: id) }
        case .recordStop:
            guard recordingHost.job != nil else {
                return sendSealed(
                    .recordDenied(.init(reason: .notRecording, message: "nothing is being recorded")), to: id)
            }
            Task { await self.stopRecording(.requested) }
        case .listRecordings:
            let library = recordingHost.library
            Task {
                let entries = await Task.detached { library.list() }.value
                self.sendSealed(.recordings(.init(recordings: entries)), to: id)
            }
        case .fetchRecording(let request): fetchRecording(request, for: id)
        default: break
        }
    }

    /// A `record` key: starts recording its monitor when nothing records, else stops the recording (whichever
    /// monitor it shows). Answered with a `pressResult` like any key; the state goes out as `recordState`.
    func pressedRecordKey(_ press: DeviceMessage.Press, displayId: Int?, fps: Int, from id: ConnectionID) {
        let answer = { (reason: String?) in
            let reply = HostMessage.PressResult(page: press.page, index: press.index, ok: reason == nil, reason: reason)
            self.sendSealed(.pressResult(reply), to: id)
        }
        guard screenAllowed(for: id) else { return answer("this device may not view the screen") }
        let name = connections[id]?.session.authorizedDevice.flatMap { devices.record(id: $0)?.name } ?? "a device"
        Task {
            if self.recordingHost.job?.recorder != nil {
                await self.stopRecording(.requested)
                return answer(nil)
            }
            let outcome = await self.startRecording(displayId: displayId, fps: fps, maxSide: nil, by: name)
            answer(outcome.denial?.message)
        }
    }

    /// What a start led to.
    struct RecordingStartOutcome {
        var state: HostMessage.RecordState?
        var denial: HostMessage.RecordDenied?
    }

    /// Starts recording `displayId` (nil: the leftmost monitor). Answers once the file is open.
    func startRecording(displayId: Int?, fps: Int, maxSide: Int?, by who: String) async -> RecordingStartOutcome {
        guard recordingHost.job == nil else {
            return .init(denial: .init(reason: .alreadyRecording, message: "a recording is already running"))
        }
        // Held from here, so a second start while this one opens is refused too.
        recordingHost.serial += 1
        let serial = recordingHost.serial
        let placeholder = Monitor(id: displayId ?? -1, name: "", frame: PixelRect(x: 0, y: 0, width: 0, height: 0))
        recordingHost.job = RecordingJob(
            serial: serial, monitor: placeholder, fps: StreamRate.normalize(fps: fps), url: URL(fileURLWithPath: "/"),
            startedBy: who)
        let (source, library, log, encoder) = (desktop.screen, recordingHost.library, self.log, desktop.encoder)
        let monitors = (try? await source.monitors()).map(Monitor.leftToRight) ?? []
        guard let monitor = displayId.map({ id in monitors.first { $0.id == id } }) ?? monitors.first else {
            recordingHost.job = nil
            let known = monitors.map { "\($0.id)" }.joined(separator: ", ")
            let message =
                monitors.isEmpty
                ? "there is no display to record" : "no display has id \(displayId ?? -1) (ids: \(known))"
            return .init(denial: .init(reason: .noDisplay, message: message))
        }
        // Sound first: the file's tracks are fixed when it opens (an AAC track only when the capture runs).
        // Joined here on the actor, so joins and leaves reach the sound queue in the order they were asked.
        let (sound, soundError) = await RecordingSound.join(desktop.sound)
        if let soundError { log.notice("recording without sound", ["why": "\(soundError)"]) }
        guard recordingHost.job?.serial == serial else {
            sound.leave()
            return .init(denial: .init(reason: .error, message: "the recording was stopped while it started"))
        }
        let withSound = soundError == nil
        let opened: Result<(Recorder, URL), any Error> = await Task.detached {
            Result {
                let url = try library.newFile(monitor: monitor, at: Date())
                let options = Recorder.Options(
                    monitor: monitor, maxSide: maxSide, fps: fps, encoder: encoder == .auto ? .x264 : encoder,
                    sound: withSound, url: url)
                let recorder = try Recorder(
                    options, capture: source.capture, log: { log.warning($0) },
                    failed: { error in Task { await self.recordingFailed(serial, error) } })
                return (recorder, url)
            }
        }.value
        guard recordingHost.job?.serial == serial else {
            sound.leave()
            if case .success(let (recorder, _)) = opened { Task.detached { recorder.stop() } }
            return .init(denial: .init(reason: .error, message: "the recording was stopped while it started"))
        }
        switch opened {
        case .failure(let error):
            sound.leave()
            recordingHost.job = nil
            log.error("recording could not start: \(error)")
            return .init(denial: .init(reason: .error, message: "the recording could not start: \(error)"))
        case .success(let (recorder, url)):
            if withSound { sound.attach(recorder) }
            recordingHost.job = RecordingJob(
                serial: serial, monitor: monitor, fps: recorder.fps, url: url, startedBy: who, recorder: recorder,
                sound: withSound ? sound : nil)
            takeThumbnail(of: monitor, for: url.lastPathComponent)
            log.notice(
                "recording started",
                [
                    "display": monitor.name, "fps": "\(recorder.fps)", "sound": "\(withSound)", "file": url.path,
                    "by": who,
                ])
            notifier.notify(
                "TouchDeck is recording your screen",
                "Monitor \(monitor.name) at \(recorder.fps) fps, started by \(who). Stop it with: touchdeck record stop"
            )
            let state = currentRecordState()
            broadcastRecordState(state)
            return .init(state: state)
        }
    }

    /// Pauses (`true`) or resumes; returns why not, if it could not.
    func pauseRecording(_ pause: Bool) -> HostMessage.RecordDenied? {
        guard let recorder = recordingHost.job?.recorder else {
            return .init(reason: .notRecording, message: "nothing is being recorded")
        }
        let changed = pause ? recorder.pause() : recorder.resume()
        guard changed else {
            return .init(
                reason: .notRecording,
                message: pause ? "the recording is already paused" : "the recording is not paused")
        }
        broadcastRecordState(currentRecordState())
        return nil
    }

    private func recordingFailed(_ serial: UInt64, _ error: RecordingError) async {
        guard recordingHost.job?.serial == serial else { return }
        log.error("recording stopped: \(error)")
        await stopRecording(error == .diskFull ? .diskFull : .error)
    }

    /// The one stop path: `recordStop`, `touchdeck record stop`, a full disk, a capture or encoder failure and
    /// the host quitting all end here. The file is closed (off the actor), every device learns the new state
    /// and the user is told where it was saved. Returns the saved file's entry.
    @discardableResult
    func stopRecording(_ reason: HostMessage.RecordState.StopReason) async -> HostMessage.RecordingEntry? {
        guard let job = recordingHost.job else { return nil }
        recordingHost.job = nil
        job.sound?.leave()  // before the file closes; the last consumer out gives the speakers back
        guard let recorder = job.recorder else {
            broadcastRecordState(.init(state: .idle))
            return nil
        }
        let summary = await Task.detached { recorder.stop() }.value
        let name = summary.url.lastPathComponent
        let saved = FileManager.default.fileExists(atPath: summary.url.path)
        broadcastRecordState(
            .init(state: .idle, elapsedMs: Int(summary.durationMicros / 1000), name: saved ? name : nil, reason: reason)
        )
        let length = Self.clock(summary.durationMicros)
        let folder = summary.url.deletingLastPathComponent().path
        log.notice("recording saved", ["file": summary.url.path, "length": length, "reason": reason.rawValue])
        switch reason {
        case .diskFull:
            notifier.notify("TouchDeck stopped recording: the disk is full", "Saved \(length) as \(name) in \(folder)")
        case .error:
            notifier.notify(
                "TouchDeck stopped recording: \(summary.error.map { "\($0)" } ?? "an error")",
                "Saved \(length) as \(name) in \(folder)")
        case .requested, .ended:
            notifier.notify("TouchDeck saved a recording", "\(name) (\(length)) in \(folder)")
        }
        guard saved else { return nil }
        return .init(name: name, size: Int(summary.bytes), durationMs: Int(summary.durationMicros / 1000))
    }

    /// "1:05" for 65 s.
    static func clock(_ micros: UInt64) -> String {
        let seconds = Int(micros / 1_000_000)
        return String(format: "%d:%02d", seconds / 60, seconds % 60)
    }

    /// The state now, from the job.
    func currentRecordState() -> HostMessage.RecordState {
        guard let job = recordingHost.job, let recorder = job.recorder else { return .init(state: .idle) }
        return .init(
            state: recorder.isPaused ? .paused : .recording, displayId: job.monitor.id, fps: job.fps,
            elapsedMs: Int(recorder.elapsedMicros / 1000), name: job.url.lastPathComponent)
    }

    func broadcastRecordState(_ state: HostMessage.RecordState) {
        recordingHost.state = state
        broadcast(.recordState(state))
    }

    /// After `authorized`: the state now (with the elapsed time of this moment).
    func sendRecordState(to id: ConnectionID) {
        let state = recordingHost.job?.recorder != nil ? currentRecordState() : recordingHost.state
        sendSealed(.recordState(state), to: id)
    }

    /// One chunk at a time per connection: the next `fetchRecording` only after the last `recordingChunk`.
    private func fetchRecording(_ request: DeviceMessage.FetchRecording, for id: ConnectionID) {
        guard !recordingHost.fetching.contains(id) else {
            return sendSealed(
                .error(.init(code: .badMessage, message: "one recordingChunk at a time: wait for the last one")), to: id
            )
        }
        recordingHost.fetching.insert(id)
        let library = recordingHost.library
        Task {
            let read = await Task.detached { Result { try library.chunk(of: request.name, from: request.offset) } }
                .value
            self.recordingHost.fetching.remove(id)
            switch read {
            case .success(let chunk): self.sendSealed(.recordingChunk(chunk), to: id)
            case .failure(let error): self.sendSealed(.error(.init(code: .badMessage, message: "\(error)")), to: id)
            }
        }
    }

    /// The list's picture of a recording: the monitor as the recording starts.
    private func takeThumbnail(of monitor: Monitor, for name: String) {
        let (source, library) = (desktop.screen, recordingHost.library)
        Task.detached {
            guard let image = try? await source.grab(monitor), let compressor = try? JPEGCompressor(),
                let url = try? Thumbnail.dataURL(of: image, using: compressor)
            else { return }
            library.saveThumbnail(url, for: name)
        }
    }
}
