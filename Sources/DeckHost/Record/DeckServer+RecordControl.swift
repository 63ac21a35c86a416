import DeckKit
import Foundation

extension DeckServer {
    /// `touchdeck record start [--display N] [--fps 30|60] | pause | resume | stop | list`.
    func record(_ request: ControlRequest) async -> ControlResponse {
        var response = ControlResponse()
        response.recordFolder = recordingHost.library.folder.path
        switch request.action {
        case "start":
            let outcome = await startRecording(
                displayId: request.display, fps: request.fps ?? 30, maxSide: nil, maxSeconds: request.maxSeconds,
                by: "touchdeck record")
            if let denial = outcome.denial { return .failure(denial.message) }
            response.recordState = outcome.state
        case "pause", "resume":
            if let denial = pauseRecording(request.action == "pause") { return .failure(denial.message) }
            response.recordState = currentRecordState()
        case "stop":
            guard recordingHost.machine.isBusy else { return .failure("nothing is being recorded") }
            response.saved = await stopRecording(.requested)
            response.recordState = recordingHost.state
        case "list":
            let library = recordingHost.library
            let active = recordingNow
            response.recordings = (try? await FileWork.run { library.list(recording: active) }) ?? []
            response.recordState = recordingHost.machine.running != nil ? currentRecordState() : .init(state: .idle)
        default:
            return .failure("say start, pause, resume, stop or list")
        }
        return response
    }
}
