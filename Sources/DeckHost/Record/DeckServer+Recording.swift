import DeckDesktop
import DeckKit
import DeckMedia
import DeckRecord
import DeckTransport
import Foundation

/// Recording as the actor keeps it: the machine with the handles the actor opens, and whoever waits.
typealias Recording = RecordingMachine<Recorder, RecordingSound, RecordingAsker>

/// Who waits for a start's or a stop's answer.
enum RecordingAsker {
    /// A device's `recordStart`: told only a refusal (`recordDenied`); a start is heard in `recordState`.
    case device(ConnectionID)
    /// A record key: answered with its `pressResult`.
    case key(DeviceMessage.Press, ConnectionID)
    /// `touchdeck record start`.
    case start(CheckedContinuation<DeckServer.RecordingStartOutcome, Never>)
    /// `touchdeck record stop` and the host stopping: the saved file's entry.
    case stop(CheckedContinuation<HostMessage.RecordingEntry?, Never>)
}

/// What the actor holds for recording: the machine, its folder and the fetches in flight.
struct RecordingHost {
    var library: RecordingLibrary
    var machine = Recording()
    /// Connections with a `fetchRecording` being read or its chunk not yet written to the socket (one chunk in
    /// flight per device connection).
    var fetching: Set<ConnectionID> = []
    /// The last state broadcast, for devices that authorize later.
    var state = HostMessage.RecordState(state: .idle)
    /// Where a viewer's encode meets a recording of the same picture, so one x264 encode serves both.
    let encodes = EncodeShare()
}

// Recording (PROTOCOL §6 "Recording", DESIGN.md#recording): start, pause, resume, the one stop path, the state
// broadcast, the list and the fetch.
extension DeckServer {
    /// A recording request from a device; only devices allowed to view the screen may record or read.
    func handleRecording(_ message: DeviceMessage, from id: ConnectionID) {
        guard screenAllowed(for: id) else {
            if case .listRecordings = message { return sendSealed(.recordings(.init(recordings: [])), to: id) }
            return sendSealed(.recordDenied(.init(reason: .notAllowed, message: notAllowedMessage(for: id))), to: id)
        }
        let name = deviceName(of: id) ?? "a device"
        switch message {
        case .recordStart(let request):
            let wanted = Recording.Request(
                displayId: request.displayId, fps: request.fps, maxSide: request.maxSide,
                maxSeconds: request.maxSeconds, by: name)
            carryOut(recordingHost.machine.start(wanted, asker: .device(id)))
        case .recordPause: if let denial = pauseRecording(true) { sendSealed(.recordDenied(denial), to: id) }
        case .recordResume: if let denial = pauseRecording(false) { sendSealed(.recordDenied(denial), to: id) }
        case .recordStop:
            guard recordingHost.machine.isBusy else {
                return sendSealed(
                    .recordDenied(.init(reason: .notRecording, message: "nothing is being recorded")), to: id)
            }
            carryOut(recordingHost.machine.stop(.requested, asker: nil))
        case .listRecordings: listRecordings(for: id)
        case .fetchRecording(let request): fetchRecording(request, for: id)
        case .deleteRecording(let request): deleteRecording(request.name, for: id)
        default: break
        }
    }

    /// What a device that may not view the screen is told, with the command that allows it.
    func notAllowedMessage(for id: ConnectionID) -> String {
        let quoted = deviceName(of: id).map { "\"\($0)\"" } ?? "NAME"
        return
            "This device may not view or record the screen. On the computer, run: touchdeck devices allow-screen \(quoted) on"
    }

    /// The name of the file being recorded now, if any.
    var recordingNow: String? { recordingHost.machine.running?.url.lastPathComponent }

    private func listRecordings(for id: ConnectionID) {
        let (library, active) = (recordingHost.library, recordingNow)
        Task {
            let entries = (try? await FileWork.run { library.list(recording: active) }) ?? []
            self.sendSealed(.recordings(.init(recordings: entries)), to: id)
        }
    }

    /// `deleteRecording`: removes a saved file (never the one being recorded) and answers with the new list.
    private func deleteRecording(_ name: String, for id: ConnectionID) {
        let request = DeviceMessage.DeleteRecording.type
        guard name != recordingNow else {
            let text = "\(name) is being recorded: stop the recording first"
            sendSealed(.error(.init(code: .unavailable, message: text, request: request)), to: id)
            return listRecordings(for: id)
        }
        let library = recordingHost.library
        Task {
            let removed = await FileWork.result { try library.delete(name) }
            if case .failure(let error) = removed {
                self.sendSealed(.error(.init(code: .badMessage, message: "\(error)", request: request)), to: id)
            } else {
                self.log.notice("recording deleted", ["file": name])
            }
            self.listRecordings(for: id)
        }
    }

    /// A `record` key: starts recording its monitor when nothing records, else stops the recording (whichever
    /// monitor it shows). Answered with a `pressResult` like any key; the state goes out as `recordState`.
    func pressedRecordKey(_ press: DeviceMessage.Press, displayId: Int?, fps: Int, from id: ConnectionID) {
        guard screenAllowed(for: id) else { return answerKey(press, for: id, refusal: notAllowedMessage(for: id)) }
        if recordingHost.machine.running != nil {
            return carryOut(recordingHost.machine.stop(.requested, asker: .key(press, id)))
        }
        let name = deviceName(of: id) ?? "a device"
        let wanted = Recording.Request(displayId: displayId, fps: fps, maxSide: nil, maxSeconds: nil, by: name)
        carryOut(recordingHost.machine.start(wanted, asker: .key(press, id)))
    }

    /// A record key's `pressResult`: ok, or why not.
    func answerKey(_ press: DeviceMessage.Press, for id: ConnectionID, refusal: String?) {
        let reply = HostMessage.PressResult(
            page: press.page, index: press.index, ok: refusal == nil, reason: refusal, path: press.path)
        sendSealed(.pressResult(reply), to: id)
    }

    /// What a start led to.
    struct RecordingStartOutcome {
        var state: HostMessage.RecordState?
        var denial: HostMessage.RecordDenied?
    }

    /// Starts recording `displayId` (nil: the leftmost monitor). Answers once the file is open
    /// (RecordingMachine+Start).
    func startRecording(displayId: Int?, fps: Int, maxSide: Int?, maxSeconds: Int?, by who: String) async
        -> RecordingStartOutcome
    {
        let request = Recording.Request(
            displayId: displayId, fps: fps, maxSide: maxSide, maxSeconds: maxSeconds, by: who)
        return await withCheckedContinuation { asker in
            carryOut(recordingHost.machine.start(request, asker: .start(asker)))
        }
    }

    /// Pauses (`true`) or resumes; returns why not, if it could not.
    func pauseRecording(_ pause: Bool) -> HostMessage.RecordDenied? {
        guard let recorder = recordingHost.machine.running?.file else {
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

    /// Stops the recording (the one stop path is `RecordingMachine.stop`); returns the saved file's entry once
    /// the file is closed.
    @discardableResult
    func stopRecording(_ reason: HostMessage.RecordState.StopReason) async -> HostMessage.RecordingEntry? {
        await withCheckedContinuation { asker in
            carryOut(recordingHost.machine.stop(reason, asker: .stop(asker)))
        }
    }

    /// The state now, from the running recording.
    func currentRecordState() -> HostMessage.RecordState {
        guard let running = recordingHost.machine.running else { return .init(state: .idle) }
        let recorder = running.file
        return .init(
            state: recorder.isPaused ? .paused : .recording, displayId: running.monitor.id, fps: running.fps,
            elapsedMs: Int(recorder.elapsedMicros / 1000), name: running.url.lastPathComponent)
    }

    func broadcastRecordState(_ state: HostMessage.RecordState) {
        recordingHost.state = state
        for (id, _) in authorizedConnections { sendSealed(.recordState(shown(state, to: id)), to: id) }
    }

    /// After `authorized`: the state now (with the elapsed time of this moment).
    func sendRecordState(to id: ConnectionID) {
        let state = recordingHost.machine.running != nil ? currentRecordState() : recordingHost.state
        sendSealed(.recordState(shown(state, to: id)), to: id)
    }

    /// A device that may not view the screen learns only that a recording runs, is paused or is not running:
    /// no monitor, no file name, no length (as `displays` tells it nothing of the monitors).
    private func shown(_ state: HostMessage.RecordState, to id: ConnectionID) -> HostMessage.RecordState {
        screenAllowed(for: id) ? state : HostMessage.RecordState(state: state.state)
    }

    /// One chunk at a time per connection: the next `fetchRecording` only after the last `recordingChunk` has
    /// been written to the socket, so a device that asks and does not read holds one chunk of host memory,
    /// not one per request (issue 20.1).
    private func fetchRecording(_ request: DeviceMessage.FetchRecording, for id: ConnectionID) {
        let type = DeviceMessage.FetchRecording.type
        guard !recordingHost.fetching.contains(id) else {
            let text = "one recordingChunk at a time: wait for the last one"
            return sendSealed(.error(.init(code: .badMessage, message: text, request: type)), to: id)
        }
        // A file being written would hand over a stub that does not play yet: it is fetched once it ends.
        guard request.name != recordingNow else {
            let text = "\(request.name) is still being recorded: it can be fetched when the recording ends"
            return sendSealed(.error(.init(code: .unavailable, message: text, request: type)), to: id)
        }
        recordingHost.fetching.insert(id)
        let library = recordingHost.library
        Task {
            let read = await FileWork.result { heartbeat in
                try library.chunk(of: request.name, from: request.offset, progress: heartbeat.beat)
            }
            switch read {
            case .success(let chunk): self.sendChunk(chunk, to: id)
            case .failure(let error):
                self.recordingHost.fetching.remove(id)
                self.sendSealed(.error(.init(code: .badMessage, message: "\(error)", request: type)), to: id)
            }
        }
    }

    /// The chunk stays in flight until the transport has written it; a closed connection leaves `fetching`
    /// through `.closed`, so an `onSent` that never runs leaves nothing behind.
    private func sendChunk(_ chunk: HostMessage.RecordingChunk, to id: ConnectionID) {
        guard let text = connections[id]?.session.seal(.recordingChunk(chunk)) else {
            recordingHost.fetching.remove(id)
            return
        }
        link.send(text: text, to: id) { Task { await self.chunkWritten(for: id) } }
    }

    private func chunkWritten(for id: ConnectionID) {
        recordingHost.fetching.remove(id)
    }
}
