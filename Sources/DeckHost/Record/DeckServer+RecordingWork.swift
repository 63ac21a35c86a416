import DeckDesktop
import DeckKit
import DeckMedia
import DeckRecord
import DeckSound
import Foundation

// Carrying out the recording machine's actions: the I/O off the actor, its results fed back as events.
extension DeckServer {
    func carryOut(_ actions: [Recording.Action]) {
        for action in actions { carryOut(action) }
        refreshTray()
    }

    private func carryOut(_ action: Recording.Action) {
        switch action {
        case .listMonitors(let serial): listMonitors(serial)
        case .joinSound(let serial): joinRecordingSound(serial)
        case .openFile(let serial, let request): openFile(serial, request)
        case .attachSound(let sound, let recorder): sound.attach(recorder)
        case .leaveSound(let sound): sound.leave()
        case .closeFile(let serial, let recorder): closeFile(serial, recorder)
        case .discardFile(let recorder): Task.detached { recorder.stop() }
        case .thumbnail(let monitor, let name): takeThumbnail(of: monitor, for: name)
        case .watch(let serial, let after): watchRecording(serial, after: after)
        case .broadcast(let state): broadcastRecordState(state)
        case .broadcastRunning: broadcastRecordState(currentRecordState())
        case .started(let asker): answer(asker, .init(state: recordingHost.state))
        case .denied(let asker, let denial): answer(asker, .init(denial: denial))
        case .saved(let asker, let entry): answer(asker, saved: entry)
        case .log(let line): log.write(line)
        case .notify(let title, let body): notifier.notify(title, body)
        }
    }

    /// A start's answer, to whoever asked.
    private func answer(_ asker: RecordingAsker, _ outcome: RecordingStartOutcome) {
        switch asker {
        case .device(let id): if let denial = outcome.denial { sendSealed(.recordDenied(denial), to: id) }
        case .key(let press, let id): answerKey(press, for: id, refusal: outcome.denial?.message)
        case .start(let waiting): waiting.resume(returning: outcome)
        case .stop: break
        }
    }

    /// A stop's answer, once the file is closed.
    private func answer(_ asker: RecordingAsker, saved entry: HostMessage.RecordingEntry?) {
        switch asker {
        case .key(let press, let id): answerKey(press, for: id, refusal: nil)
        case .stop(let waiting): waiting.resume(returning: entry)
        case .device, .start: break
        }
    }

    private func listMonitors(_ serial: UInt64) {
        let source = desktop.screen
        Task {
            let monitors = (try? await source.monitors()) ?? []
            self.carryOut(self.recordingHost.machine.monitors(serial, monitors))
        }
    }

    /// Joined here on the actor, so joins and leaves reach the sound queue in the order they were asked; the
    /// capture's answer comes back later.
    private func joinRecordingSound(_ serial: UInt64) {
        let sound = RecordingSound()
        sound.subscribe(to: desktop.sound) { error in
            Task { await self.recordingSoundStarted(serial, error) }
        }
        carryOut(recordingHost.machine.soundJoined(serial, sound))
    }

    private func recordingSoundStarted(_ serial: UInt64, _ error: SoundError?) {
        carryOut(recordingHost.machine.soundStarted(serial, error: error.map { "\($0)" }))
    }

    /// A new file in the folder and its recorder, off the actor.
    private func openFile(_ serial: UInt64, _ request: RecordingFileRequest) {
        let (source, library, log, encoder) = (desktop.screen, recordingHost.library, self.log, desktop.encoder)
        let share = recordingHost.encodes
        Task.detached {
            do {
                let url = try library.newFile(monitor: request.monitor, at: Date())
                let options = Recorder.Options(
                    monitor: request.monitor, maxSide: request.maxSide, fps: request.fps,
                    encoder: encoder == .auto ? .x264 : encoder, sound: request.sound, url: url)
                let recorder = try Recorder(
                    options, capture: source.capture, log: log, share: share,
                    failed: { error in Task { await self.recordingFailed(serial, error) } })
                await self.fileOpened(serial, recorder, url: url)
            } catch {
                await self.fileDidNotOpen(serial, error)
            }
        }
    }

    private func fileOpened(_ serial: UInt64, _ recorder: Recorder, url: URL) {
        carryOut(recordingHost.machine.fileOpened(serial, recorder, url: url, fps: recorder.fps))
    }

    private func fileDidNotOpen(_ serial: UInt64, _ error: any Error) {
        carryOut(recordingHost.machine.fileDidNotOpen(serial, error: "\(error)"))
    }

    private func recordingFailed(_ serial: UInt64, _ error: RecordingError) {
        carryOut(recordingHost.machine.failed(serial, error))
    }

    /// The queue drains and the trailer is written off the actor; then the machine tells everyone.
    private func closeFile(_ serial: UInt64, _ recorder: Recorder) {
        Task.detached {
            let summary = recorder.stop()
            let closed = ClosedRecording(
                url: summary.url, durationMicros: summary.durationMicros, bytes: summary.bytes,
                saved: FileManager.default.fileExists(atPath: summary.url.path), error: summary.error.map { "\($0)" })
            await self.fileClosed(serial, closed)
        }
    }

    private func fileClosed(_ serial: UInt64, _ closed: ClosedRecording) {
        carryOut(recordingHost.machine.fileClosed(serial, closed))
    }

    /// Looks at the running file's length (read from its recorder) and the devices connected after `after`.
    private func watchRecording(_ serial: UInt64, after: Duration) {
        Task {
            if after > .zero { try? await Task.sleep(for: after) }
            guard let running = self.recordingHost.machine.running, running.serial == serial else { return }
            let elapsed = running.file.elapsedMicros
            self.carryOut(
                self.recordingHost.machine.looked(
                    serial, elapsedMicros: elapsed, devicesConnected: self.authorizedConnections.count))
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
