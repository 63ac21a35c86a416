import DeckMedia
import Foundation

/// `touchdeck-encode-sample`: runs the encode stage alone, for the decode tests and `make bench`.
///
///     touchdeck-encode-sample [--width 1920] [--height 1080] [--max-side 3840] [--fps 60] [--frames 30]
///         [--preset ultrafast] [--crf 20] [--buffer-frames 60] [--encoder auto] [--keyframe-at N]… [--fps-at N:FPS]
///         [--vaapi-device PATH] [--nvenc-gpu N] [--out FILE.h264] [--input FILE|-] [--emit-source]
///
/// Frames come from `TestPattern` (or raw BGRA from `--input`); each access unit is appended to `--out`.
/// One JSON line per frame and a summary line go to stdout; `--emit-source` writes the raw frames to stdout
/// instead of encoding them (the benchmark's input for ffmpeg).
struct Options {
    var width = 1920, height = 1080, maxSide = 3840, fps = 60, frames = 30
    var crf = Tuning.viewing.crf, bufferFrames = Tuning.viewing.bufferFrames
    var preset = X264Preset.ultrafast
    var choice = EncoderChoice.auto
    var keyframesAt: Set<Int> = []
    var fpsAt: [Int: Int] = [:]
    var hardware = HardwareOptions()
    var out: String?, input: String?
    var emitSource = false

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        func value() throws -> String {
            guard let next = rest.popFirst() else { throw UsageError("missing value") }
            return next
        }
        func number() throws -> Int {
            guard let parsed = Int(try value()) else { throw UsageError("not a number") }
            return parsed
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--width": width = try number()
            case "--height": height = try number()
            case "--max-side": maxSide = try number()
            case "--fps": fps = try number()
            case "--frames": frames = try number()
            case "--crf": crf = try number()
            case "--buffer-frames": bufferFrames = try number()
            case "--preset":
                guard let parsed = X264Preset(rawValue: try value()) else { throw UsageError("unknown preset") }
                preset = parsed
            case "--encoder":
                guard let parsed = EncoderChoice(rawValue: try value()) else { throw UsageError("unknown encoder") }
                choice = parsed
            case "--keyframe-at": keyframesAt.insert(try number())
            case "--fps-at":
                let parts = try value().split(separator: ":").compactMap { Int($0) }
                guard parts.count == 2 else { throw UsageError("--fps-at FRAME:FPS") }
                fpsAt[parts[0]] = parts[1]
            case "--out": out = try value()
            case "--vaapi-device": hardware.vaapiDevice = try value()
            case "--nvenc-gpu": hardware.nvencGPU = try number()
            case "--input": input = try value()
            case "--emit-source": emitSource = true
            default: throw UsageError("unknown option \(flag)")
            }
        }
    }
}

struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("touchdeck-encode-sample: \(message)\n".utf8))
    exit(2)
}

func openForWriting(_ path: String?) -> FileHandle? {
    guard let path else { return nil }
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    guard let handle = FileHandle(forWritingAtPath: path) else { fail("cannot write \(path)") }
    return handle
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

do {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    let source = try FrameSource(options)
    if options.emitSource {
        try source.emitAll(frames: options.frames)
        exit(0)
    }
    try SampleRun(options, source: source).run()
} catch {
    fail("\(error)")
}
