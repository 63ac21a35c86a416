import DeckLog
import DeckMedia
import Foundation

/// Where frames come from: the test pattern, or raw BGRA frames read from a file or stdin.
final class FrameSource {
    private let width: Int, height: Int
    private let pattern: TestPattern?
    private let input: FileHandle?
    private var buffer: [UInt8]

    init(_ options: Options) throws {
        width = options.width
        height = options.height
        buffer = []
        switch options.input {
        case nil:
            pattern = TestPattern(width: width, height: height)
            input = nil
        case "-":
            (pattern, input) = (nil, FileHandle.standardInput)
        case let path?:
            guard let handle = FileHandle(forReadingAtPath: path) else { throw UsageError("cannot read \(path)") }
            (pattern, input) = (nil, handle)
        }
        if input != nil { buffer = [UInt8](repeating: 0, count: width * height * 4) }
    }

    /// Frame `index` handed to `body`; false when raw input ran out.
    func withFrame(_ index: Int, _ body: (BGRAImage) throws -> Void) throws -> Bool {
        if let pattern {
            try pattern.withFrame(index, body)
            return true
        }
        guard let input, readFully(input.fileDescriptor) else { return false }
        return try buffer.withUnsafeBytes { raw in
            try body(BGRAImage(pixels: raw.baseAddress!, width: width, height: height, bytesPerRow: width * 4))
            return true
        }
    }

    /// Fills the frame buffer straight from the descriptor (no per-frame Data): false at end of input.
    private func readFully(_ descriptor: Int32) -> Bool {
        buffer.withUnsafeMutableBytes { raw in
            var filled = 0
            while filled < raw.count {
                let got = read(descriptor, raw.baseAddress! + filled, raw.count - filled)
                if got < 0 && errno == EINTR { continue }
                guard got > 0 else { return false }
                filled += got
            }
            return true
        }
    }

    /// Writes `frames` raw frames to stdout.
    func emitAll(frames: Int) throws {
        for index in 0..<frames {
            _ = try withFrame(index) { image in
                try FileHandle.standardOutput.write(
                    contentsOf: Data(bytes: image.pixels, count: image.bytesPerRow * image.height))
            }
        }
    }
}

/// Encodes the frames, writing the stream and a JSON line per frame.
struct SampleRun {
    let options: Options
    let source: FrameSource

    init(_ options: Options, source: FrameSource) {
        self.options = options
        self.source = source
    }

    func run() throws {
        let configuration = VideoEncoder.Configuration(
            choice: options.choice, maxSide: options.maxSide, fps: options.fps, preset: options.preset,
            crf: options.crf,
            bufferFrames: options.bufferFrames, hardware: options.hardware)
        let encoder = try VideoEncoder(
            sourceWidth: options.width, sourceHeight: options.height, configuration: configuration,
            log: Logger(minimum: .debug) { _, message, _ in
                FileHandle.standardError.write(Data("touchdeck-encode-sample: \(message)\n".utf8))
            })
        let out = openForWriting(options.out)
        var totals = (convert: 0.0, encode: 0.0, bytes: 0, frames: 0)
        for index in 0..<options.frames {
            if options.keyframesAt.contains(index) { encoder.requestKeyframe() }
            if let fps = options.fpsAt[index] { try encoder.setFrameRate(fps) }
            let more = try source.withFrame(index) { image in
                guard let frame = try encoder.encode(image) else { return }
                try out?.write(contentsOf: frame.accessUnit)
                let times = encoder.lastStageTimes
                totals.convert += milliseconds(times.convert)
                totals.encode += milliseconds(times.encode)
                totals.bytes += frame.accessUnit.count
                totals.frames += 1
                report(index: index, frame: frame, times: times)
            }
            if !more { break }
        }
        let count = Double(max(1, totals.frames))
        print(
            json([
                "summary": true, "backend": encoder.backend.rawValue, "frames": totals.frames, "opens": encoder.opens,
                "bytes": totals.bytes, "convertMs": totals.convert / count, "encodeMs": totals.encode / count,
            ]))
    }

    private func report(index: Int, frame: EncodedFrame, times: StageTimes) {
        print(
            json([
                "frame": index, "keyframe": frame.keyframe, "bytes": frame.accessUnit.count,
                "parameterSets": frame.parameterSets.count, "width": frame.width, "height": frame.height,
                "convertMs": milliseconds(times.convert), "encodeMs": milliseconds(times.encode),
            ]))
    }

    private func json(_ object: [String: Any]) -> String {
        let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: data ?? Data(), as: UTF8.self)
    }
}
