import CX11
import DeckDesktop
import Foundation
import Testing

@testable import DeckActions
@testable import DeckX11

/// A private 1920×1080 Xvfb with `Tests/support/xpointer.py` recording every pointer and key event on it.
///
/// Private, not the shared `scripts/with-desktop` display: the pointer is one per X server, so another
/// suite's windows or moves on a shared display would take or shift the events under test.
final class PointerRecorder {
    var display: String { xvfb.name }
    private let xvfb: PrivateXvfb
    private let recorder: ChildExit
    private let dir: String
    private let events: String

    init() throws {
        dir = NSTemporaryDirectory() + "touchdeck-pointer-" + UUID().uuidString.prefix(8)
        events = dir + "/events.jsonl"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        xvfb = try PrivateXvfb(size: "1920x1080", numbers: 600..<900)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../support/xpointer.py").standardized.path
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = xvfb.name
        let log = open(dir + "/xpointer.log", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { close(log) }
        recorder = try DetachedProcess.spawn(
            ["/usr/bin/env", "python3", script, events], environment: environment, directory: dir, output: log)
        _ = try lines(until: { $0.contains { $0.kind == "ready" } })
    }

    deinit {
        Self.stop(recorder)
        xvfb.stop()
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// Stops the X server now, as a desktop session that ends would.
    func stopServer() { xvfb.stop() }

    /// Stops a child by its PID once (a reaped child's PID may belong to another process by now).
    private static func stop(_ child: ChildExit) {
        guard child.ended == nil else { return }
        kill(child.pid, SIGTERM)
        while child.ended == nil { usleep(5000) }
    }

    /// Waits until an event matching `last` is recorded and returns every event up to it, each as
    /// `PointerRecord.description`. Motion to where the pointer already is is left out: Xvfb reports an
    /// XTest move to the same pixel, other servers may not, and it changes nothing a client sees.
    func events(through last: String) throws -> [String] {
        var position: (x: Int?, y: Int?) = (nil, nil)
        return try lines(until: { $0.contains { $0.description == last } }).filter { record in
            defer { position = (record.x ?? position.x, record.y ?? position.y) }
            return record.kind != "ready" && !(record.kind == "motion" && (record.x, record.y) == position)
        }.map(\.description)
    }

    /// Reads the recording until `done` holds; fails after a generous limit rather than hanging.
    private func lines(until done: ([PointerRecord]) -> Bool) throws -> [PointerRecord] {
        for _ in 0..<1500 {
            let text = (try? String(contentsOfFile: events, encoding: .utf8)) ?? ""
            // Only whole lines: the recorder may be halfway through writing the last one.
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            let records = lines.compactMap { try? JSONDecoder().decode(PointerRecord.self, from: Data($0.utf8)) }
            #expect(records.count == lines.count, "xpointer.py wrote a line that is not a record:\n\(text)")
            if done(records) { return records }
            if recorder.ended != nil { break }
            usleep(10_000)
        }
        let log = (try? String(contentsOfFile: dir + "/xpointer.log", encoding: .utf8)) ?? ""
        let seen = (try? String(contentsOfFile: events, encoding: .utf8)) ?? ""
        Issue.record("the recorder never saw the expected event; recorded:\n\(seen)\nxpointer.py said:\n\(log)")
        throw CancellationError()
    }
}

/// One line of `xpointer.py`'s recording.
struct PointerRecord: Decodable, CustomStringConvertible {
    let kind: String
    let button: Int?
    let x: Int?
    let y: Int?
    let state: Int?
    let keysym: Int?

    private enum CodingKeys: String, CodingKey {
        case kind = "type"
        case button, x, y, state, keysym
    }

    /// `motion 384,216 held` (left button down while moving), `press 1 480,810`, `key 0x61`.
    var description: String {
        let at = "\(x ?? -1),\(y ?? -1)"
        switch kind {
        case "motion": return "motion \(at)" + ((state ?? 0) & Int(Button1Mask) != 0 ? " held" : "")
        case "press", "release": return "\(kind) \(button ?? -1) \(at)"
        case "key": return "key 0x" + String(keysym ?? 0, radix: 16)
        default: return kind
        }
    }
}
