import DeckDesktop
import DeckKit
import DeckTesting
import Foundation
import Testing

@testable import DeckX11

/// `ClipboardAccess.x11` against a private Xvfb with xclip as the other app (the daemon's paths over the wire are
/// in Tests/live/test_clipboard_live.py).
@Suite struct X11ClipboardTests {
    @Test func aCopyIsFollowedAndWhatIsWrittenIsServed() async throws {
        _ = try LiveDesktop.require("DISPLAY")
        let xvfb = try PrivateXvfb()
        let clipboard = ClipboardAccess.x11(display: xvfb.name)
        let feed = clipboard.follow()
        var copies = feed.copies.makeAsyncIterator()
        // Another app copies while the follow runs: the copy is read.
        let copier = try Self.xclip(
            ["-quiet", "-selection", "clipboard", "-t", "UTF8_STRING", "-i"], display: xvfb.name, input: "한글 🙂")
        defer { copier.terminate() }
        #expect(await copies.next() == .content(.text("한글 🙂")))
        #expect(await clipboard.write(.text("from the device")) == .ok)
        let pasted = try LiveDesktop.run(["env", "DISPLAY=\(xvfb.name)", "xclip", "-selection", "clipboard", "-o"])
        #expect(pasted == "from the device")
        feed.stop()
        #expect(await copies.next() == nil)
    }

    @Test func noDisplayFailsClearly() async {
        #expect(await ClipboardAccess.x11(display: ":987").write(.text("x")) == .failed("no display"))
    }

    static func xclip(_ arguments: [String], display: String, input: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xclip")
        process.arguments = arguments
        process.environment = ["DISPLAY": display]
        let pipe = Pipe()
        process.standardInput = pipe
        try process.run()
        pipe.fileHandleForWriting.write(Data(input.utf8))
        try pipe.fileHandleForWriting.close()
        return process
    }
}
