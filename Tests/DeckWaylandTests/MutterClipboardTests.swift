import DeckKit
import Foundation
import Glibc
import Testing

@testable import DeckWayland

/// GNOME's clipboard without a compositor: which of an app's types is read, what the bytes become by the shared
/// rules, and the bounded pipe transfers (limits, a silent other side, a cancel, a reader gone).
struct MutterClipboardTests {
    @Test func textIsChosenBeforeAnImageAndUTF8BeforeLatin1() {
        let gtkText = ["text/plain", "text/plain;charset=utf-8", "STRING", "TEXT", "COMPOUND_TEXT", "UTF8_STRING"]
        #expect(MutterClipboardFormats.choose(gtkText)?.mime == "text/plain;charset=utf-8")
        #expect(MutterClipboardFormats.choose(["STRING", "UTF8_STRING"])?.mime == "UTF8_STRING")
        #expect(MutterClipboardFormats.choose(["STRING"])?.encoding == .latin1)
        #expect(MutterClipboardFormats.choose(["text/plain; charset=UTF-8"])?.encoding == .utf8)
        #expect(MutterClipboardFormats.choose(["image/bmp", "image/png", "text/plain"])?.mime == "text/plain")
        #expect(MutterClipboardFormats.choose(["image/jpeg", "image/png"])?.encoding == .png)
        #expect(MutterClipboardFormats.choose(["image/jpeg", "text/html"]) == nil)
        #expect(MutterClipboardFormats.offered(.text).first == "text/plain;charset=utf-8")
        #expect(MutterClipboardFormats.offered(.image) == ["image/png"])
    }

    @Test func whatIsReadBecomesACopyByTheSharedRules() {
        let text = "안녕 🙂"
        #expect(MutterClipboardFormats.copy(.received(Data(text.utf8)), .utf8) == .content(.text(text)))
        #expect(
            MutterClipboardFormats.copy(.received(Data([0x63, 0x61, 0x66, 0xE9])), .latin1) == .content(.text("café")))
        #expect(
            MutterClipboardFormats.copy(.received(Data([0xFF, 0xFE])), .utf8)
                == .unreadable("the copied text is not UTF-8"))
        #expect(
            MutterClipboardFormats.copy(.received(Data("GIF89a".utf8)), .png)
                == .unreadable("the copied image is not a PNG file"))
        #expect(MutterClipboardFormats.copy(.tooLarge(size: 5 << 20), .utf8) == .tooLarge(.text, size: 5 << 20))
        #expect(MutterClipboardFormats.copy(.cancelled, .png) == nil)
        #expect(
            MutterClipboardFormats.copy(.stalled, .png) == .unreadable("the app that copied did not hand the data over")
        )
        #expect(MutterClipboardFormats.limits(.utf8).keep == ClipboardRules.maxTextBytes)
        #expect(MutterClipboardFormats.limits(.png).keep == ClipboardRules.maxImageBytes)
    }

    /// A pipe: (read end, write end).
    private func pipeEnds() -> (Int32, Int32) {
        var fds: [Int32] = [-1, -1]
        precondition(pipe(&fds) == 0)
        return (fds[0], fds[1])
    }

    @Test func aReadKeepsWithinTheLimitAndCountsWhatIsOver() {
        let (reader, writer) = pipeEnds()
        let feeding = Thread {
            let megabyte = Data(repeating: 0x61, count: 1 << 20)
            for _ in 0..<3 { _ = DescriptorTransfer.write(megabyte, to: writer, patience: 5) }
            close(writer)
        }
        feeding.start()
        let outcome = DescriptorTransfer.read(reader, keep: 1 << 20, count: 64 << 20, patience: 5)
        close(reader)
        #expect(outcome == .tooLarge(size: 3 << 20))

        let (small, smallWriter) = pipeEnds()
        #expect(DescriptorTransfer.write(Data("hello".utf8), to: smallWriter, patience: 5))
        close(smallWriter)
        #expect(
            DescriptorTransfer.read(small, keep: 1 << 20, count: 64 << 20, patience: 5) == .received(Data("hello".utf8))
        )
        close(small)
    }

    @Test func aReadStopsCountingAtItsCap() {
        let (reader, writer) = pipeEnds()
        let feeding = Thread {
            _ = DescriptorTransfer.write(Data(repeating: 0, count: 4 << 20), to: writer, patience: 2)
            close(writer)
        }
        feeding.start()
        let outcome = DescriptorTransfer.read(reader, keep: 1024, count: 1 << 20, patience: 5)
        close(reader)  // the writer sees its reader gone
        guard case .tooLarge(let size) = outcome else {
            Issue.record("not too large: \(outcome)")
            return
        }
        #expect(size >= 1 << 20 && size < 2 << 20)
    }

    @Test func aSilentOtherSideEndsTheReadAndACancelEndsItAtOnce() {
        let (reader, writer) = pipeEnds()
        _ = Glibc.write(writer, "par", 3)
        #expect(DescriptorTransfer.read(reader, keep: 100, count: 1000, patience: 0.2) == .stalled)
        let cancel = CancelPipe()
        #expect(!cancel.hasFired)
        cancel.fire()
        #expect(cancel.hasFired)
        #expect(
            DescriptorTransfer.read(reader, keep: 100, count: 1000, patience: 30, cancel: cancel.descriptor)
                == .cancelled)
        close(reader)
        close(writer)
    }

    @Test func aWriteToAReaderThatStopsOrLeavesFailsWithoutKillingTheProcess() {
        let (reader, writer) = pipeEnds()
        // Nobody reads: the pipe fills and the write gives up.
        #expect(!DescriptorTransfer.write(Data(repeating: 1, count: 1 << 20), to: writer, patience: 0.2))
        close(reader)
        // The reader is gone: EPIPE, and the SIGPIPE it raises is consumed.
        #expect(!DescriptorTransfer.write(Data("more".utf8), to: writer, patience: 1))
        close(writer)
    }
}
