import CTurboJPEG
import DeckDesktop
import Foundation

/// Why a picture could not be made into a JPEG.
public struct JPEGError: Error, Equatable, Sendable {
    /// libturbojpeg's explanation.
    public var message: String

    /// An error with its explanation.
    public init(message: String) { self.message = message }
}

/// Owns one libturbojpeg compressor (`tjhandle`), destroyed in `deinit`.
///
/// Not thread-safe (libturbojpeg keeps per-handle state); each job makes its own or confines one to a queue.
public final class JPEGCompressor {
    private let handle: tjhandle

    /// A new compressor; throws when libturbojpeg cannot allocate one.
    public init() throws {
        guard let handle = tjInitCompress() else {
            throw JPEGError(message: String(cString: tjGetErrorStr2(nil)))
        }
        self.handle = handle
    }

    deinit { tjDestroy(handle) }

    /// `image` as a baseline JPEG with 4:2:0 chroma at `quality` (1…100).
    public func compress(_ image: ScreenImage, quality: Int) throws -> Data {
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let format = image.format == .bgra ? TJPF_BGRA : TJPF_BGRX
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            tjCompress2(
                handle, pixels.baseAddress, Int32(image.width), Int32(image.stride), Int32(image.height),
                Int32(format.rawValue), &output, &size, Int32(TJSAMP_420.rawValue), Int32(quality),
                TJFLAG_FASTDCT)
        }
        // libturbojpeg allocates the output itself; it must be released with tjFree, whatever happened.
        defer { tjFree(output) }
        guard status == 0, let output else { throw JPEGError(message: String(cString: tjGetErrorStr2(handle))) }
        return Data(bytes: output, count: Int(size))
    }
}

@available(*, unavailable) extension JPEGCompressor: Sendable {}

extension Thumbnail {
    /// JPEG quality for thumbnails: text on a 320 px picture is unreadable anyway, and 75 keeps it ~10 KB.
    public static let quality = 75

    /// `image` shrunk to a thumbnail, as a `data:image/jpeg;base64,…` URL.
    public static func dataURL(of image: ScreenImage, using compressor: JPEGCompressor) throws -> String {
        let jpeg = try compressor.compress(shrink(image), quality: quality)
        return "data:image/jpeg;base64," + jpeg.base64EncodedString()
    }
}
