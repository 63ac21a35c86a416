import CAVCodec
import CSwScale
import DeckKit
import Foundation

/// A key icon chosen on a device, made into the PNG the host stores (PROTOCOL §6 "Stored icons", issue 22): a PNG,
/// JPEG or WebP file of at most 1 MiB, told apart by its first bytes, decoded by libavcodec, converted and fitted
/// within 144×144 (aspect kept, the long side 144) by libswscale, and encoded as an RGBA PNG by libavcodec.
/// SVG is refused: it is a document that can carry script, not a picture.
///
/// Blocking and CPU-bound (a 4000×3000 JPEG takes tens of milliseconds): callers run it off the actor and off the
/// cooperative pool. Each call makes and frees its own codec contexts, so calls may run on several threads.
public enum IconImage {
    /// The long side of a stored icon, in pixels.
    public static let side = 144
    /// The largest file a device may send: 1 MiB.
    public static let maxBytes = 1 << 20
    /// The most pixels a picture may have: a 1 MiB PNG of one colour could otherwise unpack to gigabytes.
    public static let maxPixels = 40_000_000

    /// The picture formats a device may send.
    public enum Format: String, Sendable {
        case png, jpeg, webp

        var codecID: AVCodecID {
            switch self {
            case .png: AV_CODEC_ID_PNG
            case .jpeg: AV_CODEC_ID_MJPEG
            case .webp: AV_CODEC_ID_WEBP
            }
        }
    }

    /// The format `data` is in by its first bytes, or why it is not taken (SVG, anything else, too large).
    public static func format(of data: Data) throws(IconImageError) -> Format {
        let head = [UInt8](data.prefix(4096))
        let webp = head.count >= 12 && head.starts(with: Array("RIFF".utf8)) && head[8..<12].elementsEqual("WEBP".utf8)
        let format: Format? =
            if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
                .png
            } else if head.starts(with: [0xFF, 0xD8, 0xFF]) {
                .jpeg
            } else {
                webp ? .webp : nil
            }
        guard let format else { throw looksLikeSVG(head) ? .svg : .notAnImage }
        guard data.count <= maxBytes else { throw .tooLarge(bytes: data.count) }
        return format
    }

    /// The size a `width`×`height` picture is stored at: within `side`×`side`, its long side `side`, at least
    /// 1 pixel a side, the aspect kept (4000×3000 → 144×108).
    public static func fit(width: Int, height: Int) -> (width: Int, height: Int) {
        let long = max(width, height, 1)
        let scaled = { (length: Int) in max(1, Int((Double(length * side) / Double(long)).rounded())) }
        return (scaled(width), scaled(height))
    }

    /// The stored icon made from a device's file: a PNG of `fit(…)` pixels, RGBA.
    public static func storedPNG(from data: Data) throws(IconImageError) -> Data {
        let format = try format(of: data)
        do {
            return try Conversion.run(data, format: format)
        } catch let error as IconImageError {
            throw error
        } catch {
            throw .undecodable(format, detail: "\(error)")
        }
    }

    /// An SVG file: its `<svg` element within the first 4 KiB (after an XML declaration, comments, a doctype).
    private static func looksLikeSVG(_ head: [UInt8]) -> Bool {
        String(decoding: head, as: UTF8.self).lowercased().contains("<svg")
    }
}

/// Why a device's picture is not stored as an icon; `description` is what the device is told.
public enum IconImageError: Error, Equatable, Sendable, CustomStringConvertible, WireReportable {
    /// Not a PNG, JPEG or WebP file by its first bytes.
    case notAnImage
    /// An SVG document.
    case svg
    /// Over `IconImage.maxBytes`.
    case tooLarge(bytes: Int)
    /// Its first bytes say `format` but libavcodec could not read a picture from it.
    case undecodable(IconImage.Format, detail: String)

    public var description: String {
        switch self {
        case .notAnImage: "not a PNG, JPEG or WebP image"
        case .svg: "SVG is not accepted (an SVG file can carry script): choose a PNG, JPEG or WebP image"
        case .tooLarge(let bytes): "the image is \(bytes) bytes; at most 1 MiB (\(IconImage.maxBytes) bytes)"
        case .undecodable(let format, let detail):
            "the image could not be read as \(format == .png ? "a PNG" : format == .jpeg ? "a JPEG" : "a WebP")"
                + (detail.isEmpty ? "" : " (\(detail))")
        }
    }

    public var wireCode: WireErrorCode { .badMessage }
    public var wireMessage: String { description }
}

/// One decode, fit and encode, with the libav objects it owns freed on every path.
enum Conversion {
    /// RGBA pixels, rows without padding.
    struct RGBA: Equatable {
        var width: Int
        var height: Int
        var pixels: [UInt8]
    }

    static func run(_ data: Data, format: IconImage.Format) throws -> Data {
        let picture = try rgba(of: data, format: format, size: IconImage.fit)
        return try encodePNG(picture.pixels, width: picture.width, height: picture.height)
    }

    /// The file's picture as RGBA at the size `size` gives for its own (the tests read pictures back with this).
    static func rgba(of data: Data, format: IconImage.Format, size: (Int, Int) -> (width: Int, height: Int))
        throws -> RGBA
    {
        AVLog.install()
        _ = AVLog.takeLastError()
        var frame = av_frame_alloc()
        defer { av_frame_free(&frame) }
        guard let frame else { throw MediaError.codec(call: "av_frame_alloc", code: -12, detail: "") }
        try decode(data, format: format, into: frame)
        let width = Int(frame.pointee.width)
        let height = Int(frame.pointee.height)
        guard width > 0, height > 0 else { throw IconImageError.undecodable(format, detail: "no picture") }
        let fitted = size(width, height)
        return RGBA(width: fitted.width, height: fitted.height, pixels: try scale(frame, to: fitted))
    }

    /// The file's one picture into `frame`, in the decoder's own pixel format.
    private static func decode(_ data: Data, format: IconImage.Format, into frame: UnsafeMutablePointer<AVFrame>)
        throws
    {
        guard let codec = avcodec_find_decoder(format.codecID) else {
            throw MediaError.encoderMissing("\(format.rawValue) decoder")
        }
        var context = avcodec_alloc_context3(codec)
        defer { avcodec_free_context(&context) }
        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        guard let context, let packet else { throw MediaError.codec(call: "allocation", code: -12, detail: "") }
        context.pointee.max_pixels = Int64(IconImage.maxPixels)
        context.pointee.thread_count = 1
        try AVCall.check(avcodec_open2(context, codec, nil), "avcodec_open2")
        // av_new_packet adds the zeroed padding libavcodec's readers may look into.
        try AVCall.check(av_new_packet(packet, Int32(data.count)), "av_new_packet")
        data.withUnsafeBytes { bytes in
            packet.pointee.data.update(from: bytes.bindMemory(to: UInt8.self).baseAddress!, count: data.count)
        }
        try AVCall.check(avcodec_send_packet(context, packet), "avcodec_send_packet")
        var code = avcodec_receive_frame(context, frame)
        if code == deck_averror_eagain() {
            try AVCall.check(avcodec_send_packet(context, nil), "avcodec_send_packet")
            code = avcodec_receive_frame(context, frame)
        }
        try AVCall.check(code, "avcodec_receive_frame")
    }

    /// The picture at `size` as RGBA rows with no padding: libswscale converts any decoded format (with its
    /// alpha, or opaque) and scales in one pass, averaging the area each pixel covers when it shrinks.
    private static func scale(_ frame: UnsafeMutablePointer<AVFrame>, to size: (width: Int, height: Int)) throws
        -> [UInt8]
    {
        let source = AVPixelFormat(frame.pointee.format)
        let shrinks = size.width < Int(frame.pointee.width)
        let flags = (shrinks ? SWS_AREA : SWS_BICUBIC) | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT
        guard
            let scaler = sws_getContext(
                frame.pointee.width, frame.pointee.height, source, Int32(size.width), Int32(size.height),
                AV_PIX_FMT_RGBA, flags, nil, nil, nil)
        else {
            let name = av_get_pix_fmt_name(source).map { String(cString: $0) } ?? "\(source.rawValue)"
            throw MediaError.conversion(call: "sws_getContext (\(name))", code: -22)
        }
        defer { sws_freeContext(scaler) }
        var rgba = [UInt8](repeating: 0, count: size.width * size.height * 4)
        let rows = rgba.withUnsafeMutableBufferPointer { out in
            var planes: [UnsafeMutablePointer<UInt8>?] = [out.baseAddress, nil, nil, nil]
            var strides: [Int32] = [Int32(size.width * 4), 0, 0, 0]
            return withUnsafePointer(to: frame.pointee.data) { data in
                withUnsafePointer(to: frame.pointee.linesize) { linesize in
                    data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { sourcePlanes in
                        linesize.withMemoryRebound(to: Int32.self, capacity: 8) { sourceStrides in
                            sws_scale(
                                scaler, sourcePlanes, sourceStrides, 0, frame.pointee.height, &planes, &strides)
                        }
                    }
                }
            }
        }
        guard rows == Int32(size.height) else { throw MediaError.conversion(call: "sws_scale", code: rows) }
        return rgba
    }

    /// RGBA rows as a PNG file, through libavcodec's PNG encoder.
    static func encodePNG(_ rgba: [UInt8], width: Int, height: Int) throws -> Data {
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_PNG) else { throw MediaError.encoderMissing("png") }
        var context = avcodec_alloc_context3(codec)
        defer { avcodec_free_context(&context) }
        var frame = av_frame_alloc()
        defer { av_frame_free(&frame) }
        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        guard let context, let frame, let packet else {
            throw MediaError.codec(call: "allocation", code: -12, detail: "")
        }
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.pix_fmt = AV_PIX_FMT_RGBA
        context.pointee.time_base = AVRational(num: 1, den: 1)
        context.pointee.compression_level = 9
        try AVCall.check(avcodec_open2(context, codec, nil), "avcodec_open2 png")
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        frame.pointee.format = AV_PIX_FMT_RGBA.rawValue
        try AVCall.check(av_frame_get_buffer(frame, 0), "av_frame_get_buffer")
        let stride = Int(frame.pointee.linesize.0)
        let rows = frame.pointee.data.0!
        rgba.withUnsafeBufferPointer { pixels in
            for y in 0..<height {
                (rows + y * stride).update(from: pixels.baseAddress! + y * width * 4, count: width * 4)
            }
        }
        try AVCall.check(avcodec_send_frame(context, frame), "avcodec_send_frame png")
        try AVCall.check(avcodec_receive_packet(context, packet), "avcodec_receive_packet png")
        defer { av_packet_unref(packet) }
        return Data(bytes: packet.pointee.data, count: Int(packet.pointee.size))
    }
}
