import DeckKit
import Foundation
import Testing

/// The clipboard's limits and checks (DESIGN.md#clipboard), shared by both directions.
@Suite struct ClipboardRulesTests {
    /// A PNG file of `width`×`height` with a valid IHDR; `idat` stands for the image data (not decoded).
    static func png(width: Int, height: Int, idat: [UInt8] = [0x78, 0x9C, 0x03, 0x00]) -> Data {
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            return be32(body.count) + typed + be32(crc(typed))
        }
        let header = be32(width) + be32(height) + [8, 6, 0, 0, 0]
        return Data(
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", idat)
                + chunk("IEND", []))
    }

    static func be32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }

    static func crc(_ bytes: [UInt8]) -> Int {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return Int(crc ^ 0xFFFF_FFFF)
    }

    @Test func aWellFormedPNGGivesItsSize() throws {
        #expect(
            try ClipboardRules.inspectPNG(Self.png(width: 640, height: 8192)).get() == PNGSize(width: 640, height: 8192)
        )
    }

    @Test func whatIsNotAWholePNGIsRefused() {
        let good = Self.png(width: 2, height: 2)
        #expect(ClipboardRules.inspectPNG(Data("GIF89a not a png at all, really not".utf8)) == .failure(.notPNG))
        #expect(ClipboardRules.inspectPNG(good.dropLast(3)) == .failure(.notPNG))
        var badCRC = good
        badCRC[30] ^= 0xFF
        #expect(ClipboardRules.inspectPNG(badCRC) == .failure(.notPNG))
        #expect(ClipboardRules.inspectPNG(Self.png(width: 0, height: 5)) == .failure(.notPNG))
    }

    @Test func tooManyPixelsIsRefusedByItsHeaderAlone() {
        let huge = Self.png(width: 10_000, height: 10_000)
        #expect(ClipboardRules.inspectPNG(huge) == .failure(.tooManyPixels(PNGSize(width: 10_000, height: 10_000))))
        #expect(
            ClipboardRules.content(kind: .image, bytes: huge).failure?.description
                == "the image is 10000×10000 pixels; at most 8192×8192")
    }

    @Test func textMustBeUTF8AndAtMostOneMebibyte() {
        #expect(ClipboardRules.content(kind: .text, bytes: Data("한글 🙂".utf8)) == .success(.text("한글 🙂")))
        #expect(ClipboardRules.content(kind: .text, bytes: Data([0x61, 0xC3, 0x28])) == .failure(.notUTF8))
        let limit = Data(repeating: 0x61, count: ClipboardRules.maxTextBytes)
        #expect(ClipboardRules.content(kind: .text, bytes: limit).failure == nil)
        #expect(
            ClipboardRules.content(kind: .text, bytes: limit + [0x61]).failure?.description
                == "the text is too large to paste: 1048577 bytes, at most 1048576 (1 MiB)")
        #expect(
            ClipboardRules.content(kind: .image, bytes: Data(count: (8 << 20) + 1)).failure
                == .tooLarge(.image, size: (8 << 20) + 1))
    }

    @Test func terminalsPasteWithCtrlShiftV() {
        #expect(
            ClipboardRules.pasteChord(windowClass: ["gedit", "Gedit"]) == KeyChord(character: "v", modifiers: [.ctrl]))
        #expect(
            ClipboardRules.pasteChord(windowClass: ["xterm", "XTerm"])
                == KeyChord(character: "v", modifiers: [.ctrl, .shift]))
        #expect(ClipboardRules.pasteChord(windowClass: ["org.gnome.Terminal"]).modifiers == [.ctrl, .shift])
        #expect(ClipboardRules.pasteChord(windowClass: []).modifiers == [.ctrl])
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
