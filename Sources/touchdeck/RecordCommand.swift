import DeckHost
import DeckKit
import Foundation

struct RecordCommand: Command {
    static let name = "record"
    static let usage = [
        "record start [--display N] [--fps 30|60] [--max-length 2h|90m|30s] | pause | resume | stop | list [--config-dir D]"
    ]
    static let summary = "record a monitor to MP4 in the videos folder; start, pause, resume, stop, list"
    static let options = [
        (
            "start",
            "start recording (--display N: the monitor id, default the leftmost; --fps 30 or 60; --max-length: it "
                + "stops by itself after that long, 2h unless said, at most 24h)"
        ),
        ("pause, resume", "pause without a gap in the file, and go on"), ("stop", "stop and save the file"),
        ("list", "the saved files with length and size (1 KB = 1000 bytes, as the web client counts)"),
        configDirOption,
    ]
    let arguments: Arguments
    let action: String
    var display: Int?
    var fps: Int?
    var maxSeconds: Int?

    init(_ arguments: Arguments) throws {
        self.arguments = arguments
        action = arguments.positionals.first ?? ""
        if let text = arguments.options["display"] {
            guard let value = Int(text) else { throw UsageError("--display needs a monitor id (see the app's list)") }
            display = value
        }
        if let text = arguments.options["fps"] {
            guard let value = Int(text), value == 30 || value == 60 else { throw UsageError("--fps is 30 or 60") }
            fps = value
        }
        if let text = arguments.options["max-length"] {
            guard let seconds = Self.seconds(text), seconds >= 1, seconds <= DeviceMessage.RecordStart.longestMaxSeconds
            else { throw UsageError("--max-length is a length such as 2h, 90m or 30s (at most 24h)") }
            maxSeconds = seconds
        }
    }

    /// "2h", "90m", "30s" or a bare number of seconds.
    static func seconds(_ text: String) -> Int? {
        let units: [Character: Int] = ["h": 3600, "m": 60, "s": 1]
        guard let last = text.last else { return nil }
        if let unit = units[last] { return Int(text.dropLast()).map { $0 * unit } }
        return Int(text)
    }

    func validate() throws {
        let startOptions: Set<String> = action == "start" ? ["display", "fps", "max-length"] : []
        try arguments.allow(options: startOptions.union(["config-dir"]))
        guard ["start", "pause", "resume", "stop", "list"].contains(action), arguments.positionals.count == 1 else {
            throw UsageError("say start, pause, resume, stop or list")
        }
    }

    func run() async throws -> Int32 {
        var request = ControlRequest(command: .record)
        request.action = action
        request.display = display
        request.fps = fps
        request.maxSeconds = maxSeconds
        guard let response = ask(request, arguments) else { return 1 }
        let folder = response.recordFolder ?? "?"
        switch action {
        case "list":
            let entries = response.recordings ?? []
            print(entries.isEmpty ? "No recordings in \(folder)." : "Recordings in \(folder):")
            for entry in entries {
                print("  \(entry.name)  \(Self.length(entry.durationMs))  \(Self.size(entry.size))")
            }
            if let state = response.recordState, state.state != .idle { print(Self.describe(state)) }
        case "stop":
            if let saved = response.saved {
                print("Saved \(saved.name) (\(Self.length(saved.durationMs)), \(Self.size(saved.size))) in \(folder).")
            } else {
                print("Stopped; nothing was saved.")
            }
        default:
            if let state = response.recordState { print(Self.describe(state)) }
        }
        return 0
    }

    static func describe(_ state: HostMessage.RecordState) -> String {
        let what = state.state == .paused ? "Paused" : state.state == .recording ? "Recording" : "Not recording"
        guard state.state != .idle else { return what + "." }
        return
            "\(what): \(state.name ?? "?") (display \(state.displayId ?? 0), \(state.fps ?? 30) fps, \(length(state.elapsedMs)))"
    }

    static func length(_ milliseconds: Int) -> String {
        let seconds = milliseconds / 1000
        return String(format: "%d:%02d", seconds / 60, seconds % 60)
    }

    static func size(_ bytes: Int) -> String { ByteSize.text(bytes) }
}
