import DeckDesktop
import DeckKit
import Foundation
import Testing

@testable import DeckMedia

/// Key icons chosen on a device (PROTOCOL §6 "Stored icons", issue 22): PNG, JPEG and WebP become a PNG within
/// 144×144 with their colours and transparency; SVG, other files and files over 1 MiB are refused.
@Suite struct IconImageTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures/icons").standardizedFileURL

    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: fixtures.appendingPathComponent(name))
    }

    /// The stored PNG read back at its own size.
    static func readBack(_ png: Data) throws -> Conversion.RGBA {
        #expect(IconImage.Format.png == (try? IconImage.format(of: png)))
        return try Conversion.rgba(of: png, format: .png) { ($0, $1) }
    }

    static func pixel(_ picture: Conversion.RGBA, x: Int, y: Int) -> [Int] {
        let at = (y * picture.width + x) * 4
        return picture.pixels[at..<at + 4].map(Int.init)
    }

    static func near(_ pixel: [Int], _ expected: [Int], within: Int = 6) -> Bool {
        zip(pixel, expected).allSatisfy { abs($0 - $1) <= within }
    }

    /// A `width`×`height` picture, its left half one colour and its right half another.
    static func halves(width: Int, height: Int, left: [UInt8], right: [UInt8]) -> [UInt8] {
        var row: [UInt8] = []
        for x in 0..<width { row += x < width / 2 ? left : right }
        var pixels: [UInt8] = []
        pixels.reserveCapacity(row.count * height)
        for _ in 0..<height { pixels += row }
        return pixels
    }

    @Test(arguments: [
        (4000, 3000, 144, 108), (3000, 4000, 108, 144), (300, 1200, 36, 144), (144, 144, 144, 144),
        (64, 32, 144, 72), (5000, 3, 144, 1), (1, 1, 144, 144), (1000, 999, 144, 144),
    ])
    func theLongSideBecomes144AndTheAspectIsKept(width: Int, height: Int, fitWidth: Int, fitHeight: Int) {
        let size = IconImage.fit(width: width, height: height)
        #expect(size.width == fitWidth && size.height == fitHeight)
    }

    @Test func a4000x3000JPEGBecomesA144x108PNGWithItsColours() throws {
        let (width, height) = (4000, 3000)
        // BGRX: red on the left, blue on the right.
        let pixels = Self.halves(width: width, height: height, left: [30, 30, 220, 255], right: [200, 80, 20, 255])
        let image = ScreenImage(width: width, height: height, stride: width * 4, format: .bgrx, pixels: pixels)
        let jpeg = try JPEGCompressor().compress(image, quality: 85)
        #expect(jpeg.count <= IconImage.maxBytes)
        #expect(try IconImage.format(of: jpeg) == .jpeg)
        let png = try IconImage.storedPNG(from: jpeg)
        #expect(ClipboardRules.inspectPNG(png) == .success(PNGSize(width: 144, height: 108)))
        let stored = try Self.readBack(png)
        #expect(Self.near(Self.pixel(stored, x: 10, y: 50), [220, 30, 30, 255]))
        #expect(Self.near(Self.pixel(stored, x: 133, y: 50), [20, 80, 200, 255]))
    }

    @Test func aTallPNGFits144High() throws {
        let pixels = Self.halves(width: 300, height: 1200, left: [0, 200, 0, 255], right: [0, 0, 0, 0])
        let png = try Conversion.encodePNG(pixels, width: 300, height: 1200)
        let stored = try Self.readBack(try IconImage.storedPNG(from: png))
        #expect(stored.width == 36 && stored.height == 144)
        #expect(Self.pixel(stored, x: 2, y: 70) == [0, 200, 0, 255])
        #expect(Self.pixel(stored, x: 33, y: 70)[3] == 0, "transparent stays transparent")
    }

    @Test(arguments: ["alpha-lossy.webp", "alpha-lossless.webp"])
    func aWebPWithTransparencyKeepsIt(name: String) throws {
        let webp = try Self.fixture(name)
        #expect(try IconImage.format(of: webp) == .webp)
        let stored = try Self.readBack(try IconImage.storedPNG(from: webp))
        #expect(stored.width == 144 && stored.height == 72)
        #expect(Self.near(Self.pixel(stored, x: 20, y: 36), [220, 30, 30, 255], within: 12))
        #expect(Self.pixel(stored, x: 120, y: 36)[3] == 0)
    }

    @Test func anOpaqueWebPIsOpaque() throws {
        let stored = try Self.readBack(try IconImage.storedPNG(from: try Self.fixture("opaque.webp")))
        #expect(stored.width == 72 && stored.height == 144)
        #expect(Self.near(Self.pixel(stored, x: 36, y: 72), [30, 160, 60, 255], within: 8))
    }

    @Test func palettedAnd16BitGreyPNGsAreConverted() throws {
        let palette = try Self.readBack(try IconImage.storedPNG(from: try Self.fixture("palette.png")))
        #expect(palette.width == 144 && palette.height == 72)
        #expect(Self.pixel(palette, x: 10, y: 30) == [0, 0, 255, 255])
        #expect(Self.pixel(palette, x: 130, y: 30) == [255, 255, 0, 255])
        let grey = try Self.readBack(try IconImage.storedPNG(from: try Self.fixture("grey16.png")))
        #expect(grey.width == 72 && grey.height == 144)
        #expect(Self.near(Self.pixel(grey, x: 30, y: 60), [156, 156, 156, 255], within: 2))
    }

    @Test func anSVGIsRefusedAsScript() {
        let svgs = [
            #"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#,
            "\u{FEFF}<?xml version=\"1.0\"?>\n<!-- a comment -->\n<SVG width=\"10\" height=\"10\"/>",
        ]
        for svg in svgs {
            #expect(throws: IconImageError.svg) { try IconImage.storedPNG(from: Data(svg.utf8)) }
        }
        #expect(IconImageError.svg.description.hasPrefix("SVG is not accepted"))
    }

    @Test func otherFilesAreNotImages() {
        for bytes in [
            Data(), Data("hello".utf8), Data([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0]),
            Data("RIFF\0\0\0\0WAVEfmt ".utf8),
        ] {
            #expect(throws: IconImageError.notAnImage) { try IconImage.storedPNG(from: bytes) }
        }
        #expect(IconImageError.notAnImage.description == "not a PNG, JPEG or WebP image")
    }

    @Test func aFileOver1MiBIsRefusedWithItsSize() throws {
        var big = Data([0xFF, 0xD8, 0xFF, 0xE0])
        big.append(Data(count: 20 << 20))
        #expect(throws: IconImageError.tooLarge(bytes: big.count)) { try IconImage.storedPNG(from: big) }
        #expect(
            IconImageError.tooLarge(bytes: 20_971_524).description
                == "the image is 20971524 bytes; at most 1 MiB (1048576 bytes)")
        // Exactly 1 MiB is taken (and then read as what it is).
        var edge = try Self.fixture("palette.png")
        edge.append(Data(count: IconImage.maxBytes - edge.count))
        #expect(try IconImage.format(of: edge) == .png)
    }

    @Test func aFileThatOnlyStartsLikeAnImageIsUndecodable() throws {
        let broken = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(repeating: 7, count: 200)
        #expect {
            try IconImage.storedPNG(from: broken)
        } throws: { error in
            guard case .undecodable(.png, _) = error as? IconImageError else { return false }
            return "\(error)".hasPrefix("the image could not be read as a PNG")
        }
        let webp = try Self.fixture("opaque.webp")
        #expect(throws: IconImageError.self) { try IconImage.storedPNG(from: webp.prefix(40)) }
    }
}
