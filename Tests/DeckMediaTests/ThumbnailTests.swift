import CTurboJPEG
import DeckDesktop
import Foundation
import Testing

@testable import DeckMedia

/// Thumbnail sizes, the box filter and the JPEG they become (DESIGN.md#viewing: 320 px long side, aspect kept).
@Suite struct ThumbnailTests {
    @Test(arguments: [
        (1920, 1080, 320, 180), (1080, 1920, 180, 320), (3840, 1080, 320, 90), (1080, 1200, 288, 320),
        (2560, 1440, 320, 180), (1280, 1024, 320, 256), (1366, 768, 320, 180), (320, 200, 320, 200),
        (100, 50, 100, 50), (5000, 3, 320, 1), (500, 500, 320, 320),
    ])
    func theLongSideBecomes320AndTheAspectIsKept(width: Int, height: Int, thumbWidth: Int, thumbHeight: Int) {
        let size = Thumbnail.size(width: width, height: height)
        #expect(size.width == thumbWidth && size.height == thumbHeight)
    }

    @Test func flatAreasKeepTheirExactColourAndHalvesStayInPlace() {
        // Left half red, right half blue, a padded stride (as XShm may give), 6:1 in both directions.
        let (width, height, stride) = (1920, 1080, 1920 * 4 + 64)
        var pixels = [UInt8](repeating: 0, count: stride * height)
        for y in 0..<height {
            for x in 0..<width {
                let at = y * stride + x * 4
                (pixels[at], pixels[at + 1], pixels[at + 2]) = x < width / 2 ? (0, 0, 255) : (255, 0, 0)
            }
        }
        let image = ScreenImage(width: width, height: height, stride: stride, format: .bgrx, pixels: pixels)
        let thumb = Thumbnail.shrink(image)
        #expect(thumb.width == 320 && thumb.height == 180 && thumb.stride == 320 * 4)
        #expect(Array(thumb.pixels[0..<3]) == [0, 0, 255])
        let lastLeft = (179 * 320 + 159) * 4
        #expect(Array(thumb.pixels[lastLeft..<lastLeft + 3]) == [0, 0, 255])
        #expect(Array(thumb.pixels[(lastLeft + 4)..<(lastLeft + 7)]) == [255, 0, 0])
    }

    @Test func eachOutputPixelIsTheMeanOfItsBox() {
        // A 640×2 picture of alternating black and white columns: every 2×1 box averages to mid grey.
        var pixels = [UInt8](repeating: 255, count: 640 * 2 * 4)
        for x in Swift.stride(from: 0, to: 640, by: 2) {
            for y in 0..<2 {
                (pixels[(y * 640 + x) * 4], pixels[(y * 640 + x) * 4 + 1], pixels[(y * 640 + x) * 4 + 2]) = (0, 0, 0)
            }
        }
        let image = ScreenImage(width: 640, height: 2, stride: 640 * 4, format: .bgrx, pixels: pixels)
        let thumb = Thumbnail.shrink(image)
        #expect(thumb.width == 320 && thumb.height == 1)
        #expect(Set(thumb.pixels.enumerated().filter { $0.offset % 4 != 3 }.map(\.element)) == [128])
    }

    @Test func theDataURLIsAJPEGOfTheThumbnailWithItsColours() throws {
        let image = ScreenImage.solid(width: 1280, height: 1024, blue: 40, green: 160, red: 220)
        let url = try Thumbnail.dataURL(of: image, using: try JPEGCompressor())
        let prefix = "data:image/jpeg;base64,"
        #expect(url.hasPrefix(prefix))
        let jpeg = try #require(Data(base64Encoded: String(url.dropFirst(prefix.count))))
        let decoded = try #require(DecodedJPEG(jpeg))
        #expect(decoded.width == 320 && decoded.height == 256)
        let (red, green, blue) = decoded.rgb(x: 160, y: 128)
        #expect(abs(red - 220) <= 4 && abs(green - 160) <= 4 && abs(blue - 40) <= 4)
    }

    @Test func aBGRAPictureIsCompressedToo() throws {
        var image = ScreenImage.solid(width: 64, height: 48, blue: 0, green: 255, red: 0)
        image.format = .bgra
        let jpeg = try JPEGCompressor().compress(image, quality: 90)
        let decoded = try #require(DecodedJPEG(jpeg))
        #expect(decoded.width == 64 && decoded.height == 48)
        #expect(decoded.rgb(x: 10, y: 10).1 >= 250)
    }
}

/// A JPEG decoded by libturbojpeg into RGB, for checking what the compressor made.
struct DecodedJPEG {
    let width: Int
    let height: Int
    let rgb: [UInt8]

    init?(_ jpeg: Data) {
        guard let handle = tjInitDecompress() else { return nil }
        defer { tjDestroy(handle) }
        var bytes = [UInt8](jpeg)
        var (width, height, subsampling, colorspace): (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
        guard tjDecompressHeader3(handle, &bytes, UInt(bytes.count), &width, &height, &subsampling, &colorspace) == 0
        else { return nil }
        var rgb = [UInt8](repeating: 0, count: Int(width * height * 3))
        guard
            tjDecompress2(
                handle, &bytes, UInt(bytes.count), &rgb, width, 0, height, Int32(TJPF_RGB.rawValue), 0) == 0
        else { return nil }
        (self.width, self.height, self.rgb) = (Int(width), Int(height), rgb)
    }

    func rgb(x: Int, y: Int) -> (Int, Int, Int) {
        let at = (y * width + x) * 3
        return (Int(rgb[at]), Int(rgb[at + 1]), Int(rgb[at + 2]))
    }
}
