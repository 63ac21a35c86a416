import DeckKit
import Foundation
import Glibc
import Testing

@testable import DeckWayland

/// The wlroots clipboard's choices that need no compositor: which offered type is read, what a read pipe's bytes
/// become under `ClipboardRules`, and the focused app id in sway's tree (issue 25; the live test is
/// Tests/wayland/test_wlr_clipboard_live.py).
struct WlrClipboardTests {
    @Test func textIsChosenBeforeAPNGAndOtherTypesNever() {
        #expect(WlrClipboard.choose(["image/png", "TEXT", "text/plain;charset=utf-8"]) == "text/plain;charset=utf-8")
        #expect(WlrClipboard.choose(["image/png", "UTF8_STRING"]) == "UTF8_STRING")
        #expect(WlrClipboard.choose(["image/png", "text/html"]) == "image/png")
        #expect(WlrClipboard.choose(["text/html", "image/jpeg", "STRING"]) == nil)
        #expect(!WlrClipboard.offeredTypes(.text).contains(WlrClipboard.ownMarker))
    }

    @Test func aPipeIsReadWithinTheLimitAndOnlyCountedPastIt() throws {
        #expect(read(Data("안녕 🙂".utf8), kind: .text) == .content(.text("안녕 🙂")))
        #expect(read(Data([0x63, 0x61, 0x66, 0xC3, 0x28]), kind: .text) == .unreadable("the copied text is not UTF-8"))
        let big = Data(repeating: 0x79, count: ClipboardRules.maxTextBytes + 70_000)
        #expect(read(big, kind: .text) == .tooLarge(.text, size: big.count))
        #expect(read(Data("GIF89a".utf8), kind: .image) == .unreadable("the copied image is not a PNG file"))
    }

    @Test func theFocusedNodeGivesItsAppIDOrItsXwaylandClass() {
        let tree: [String: Any] = [
            "focused": false,
            "nodes": [
                ["focused": false, "nodes": [["focused": false, "app_id": "firefox"]]],
                ["focused": false, "floating_nodes": [["focused": true, "app_id": "foot"]]],
            ],
        ]
        #expect(SwayFocus.focused(in: tree) == ["foot"])
        let xwayland: [String: Any] = [
            "nodes": [
                ["focused": true, "app_id": NSNull(), "window_properties": ["instance": "xterm", "class": "XTerm"]]
            ]
        ]
        #expect(SwayFocus.focused(in: xwayland) == ["xterm", "XTerm"])
        #expect(SwayFocus.focused(in: ["nodes": [["focused": false, "app_id": "foot"]]]) == [])
    }

    @Test func swaysSocketIsTheEnvironmentsOrOneOfARunningSway() throws {
        #expect(SwayFocus.socketPath(environment: ["SWAYSOCK": "/run/x.sock"]) == "/run/x.sock")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sway-ipc-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A socket left by a sway that is gone (no such process) is passed over.
        for pid in [Int32.max - 1, getpid()] {
            _ = FileManager.default.createFile(
                atPath: folder.appendingPathComponent("sway-ipc.0.\(pid).sock").path, contents: nil)
        }
        #expect(
            SwayFocus.socketPath(environment: ["XDG_RUNTIME_DIR": folder.path])
                == folder.appendingPathComponent("sway-ipc.0.\(getpid()).sock").path)
        #expect(SwayFocus.socketPath(environment: [:]) == nil)
    }

    /// What `PipeRead` makes of `bytes` written into a pipe and closed.
    private func read(_ bytes: Data, kind: ClipboardKind) -> ClipboardCopy? {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        var reader = PipeRead(fd: fds[0], kind: kind, now: Date())
        let input = fds[1]
        let writer = Thread {
            bytes.withUnsafeBytes { raw in
                var at = 0
                while at < raw.count {
                    let count = Glibc.write(input, raw.baseAddress! + at, raw.count - at)
                    guard count > 0 else { break }
                    at += count
                }
            }
            Glibc.close(input)
        }
        writer.start()
        while true {
            var poller = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
            _ = poll(&poller, 1, 5000)
            if case .done(let copy) = reader.step() { return copy }
        }
    }
}
