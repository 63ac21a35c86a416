import DeckDesktop
import DeckLog
import DeckMedia
import Foundation

/// Collects the encoder's log lines (their messages).
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [String] = []
    var lines: [String] { lock.withLock { collected } }
    var sink: Logger { Logger(minimum: .debug) { [self] _, message, _ in lock.withLock { collected.append(message) } } }
}

/// An encoder over a `TestPattern` of the given size; `x264` unless a choice is given.
struct EncoderFixture {
    let pattern: TestPattern
    let encoder: VideoEncoder
    let log = LogLines()
    private var next = 0
    /// Frames are spaced one frame interval apart on the encoder's clock unless a test says otherwise.
    private let fps: Int

    init(
        width: Int, height: Int, maxSide: Int = 3840, fps: Int = 60, choice: EncoderChoice = .x264,
        safetyInterval: Duration = .seconds(10), hardware: HardwareOptions = HardwareOptions()
    ) throws {
        pattern = TestPattern(width: width, height: height)
        self.fps = fps
        let configuration = VideoEncoder.Configuration(
            choice: choice, maxSide: maxSide, fps: fps, safetyInterval: safetyInterval, hardware: hardware)
        encoder = try VideoEncoder(
            sourceWidth: width, sourceHeight: height, configuration: configuration, log: log.sink)
    }

    /// Encodes the next pattern frame, at `micros` (default: one frame interval after the last); x264 returns one
    /// for every frame.
    mutating func encodeNext(at micros: UInt64? = nil) throws -> EncodedFrame {
        defer { next += 1 }
        let time = micros ?? UInt64(next) * 1_000_000 / UInt64(fps)
        let encoder = self.encoder
        guard let frame = try pattern.withFrame(next, { try encoder.encode($0, at: time) }) else {
            throw FixtureError.noFrame
        }
        return frame
    }

    enum FixtureError: Error { case noFrame }
}

/// Devices that cannot exist, so hardware encoders fail to open the same way on every machine.
let missingHardware = HardwareOptions(vaapiDevice: "/nonexistent/dri/renderD128", nvencGPU: 99)
