import DeckMedia

/// Collects the encoder's log lines.
final class LogLines {
    var lines: [String] = []
    var sink: (String) -> Void { { [self] in lines.append($0) } }
}

/// An encoder over a `TestPattern` of the given size; `x264` unless a choice is given.
struct EncoderFixture {
    let pattern: TestPattern
    let encoder: VideoEncoder
    let log = LogLines()
    private var next = 0

    init(
        width: Int, height: Int, maxSide: Int = 3840, fps: Int = 60, choice: EncoderChoice = .x264,
        safetyInterval: Duration = .seconds(10), hardware: HardwareOptions = HardwareOptions()
    ) throws {
        pattern = TestPattern(width: width, height: height)
        let configuration = VideoEncoder.Configuration(
            choice: choice, maxSide: maxSide, fps: fps, safetyInterval: safetyInterval, hardware: hardware)
        encoder = try VideoEncoder(
            sourceWidth: width, sourceHeight: height, configuration: configuration, log: log.sink)
    }

    /// Encodes the next pattern frame; x264 returns one for every frame.
    mutating func encodeNext() throws -> EncodedFrame {
        defer { next += 1 }
        guard let frame = try pattern.withFrame(next, encoder.encode) else { throw FixtureError.noFrame }
        return frame
    }

    enum FixtureError: Error { case noFrame }
}

/// Devices that cannot exist, so hardware encoders fail to open the same way on every machine.
let missingHardware = HardwareOptions(vaapiDevice: "/nonexistent/dri/renderD128", nvencGPU: 99)
