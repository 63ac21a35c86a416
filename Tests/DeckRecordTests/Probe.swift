import DeckDesktop
import Foundation

/// What `ffprobe` (Debian's ffmpeg, installed by the bootstrap) reads from a file.
struct Probe: Decodable {
    struct Stream: Decodable {
        var codecName: String?
        var codecType: String?
        var width: Int?
        var height: Int?
        var sampleRate: String?

        enum CodingKeys: String, CodingKey {
            case codecName = "codec_name"
            case codecType = "codec_type"
            case width, height
            case sampleRate = "sample_rate"
        }
    }
    struct Format: Decodable {
        var duration: String?
    }
    var streams: [Stream]
    var format: Format

    var duration: Double? { format.duration.flatMap(Double.init) }
    var codecs: [String] { streams.compactMap(\.codecName) }

    /// The times (seconds) of the packets of the file's first stream of `kind` ("a" or "v"), in file order.
    static func packetTimes(_ url: URL, kind: String) throws -> [Double] {
        let output = try run([
            "-select_streams", "\(kind):0", "-show_entries", "packet=pts_time", "-of", "csv=p=0", url.path,
        ])
        return String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap { Double($0) }
    }

    /// The times (seconds) of the video packets flagged as keyframes, in file order.
    static func keyframeTimes(_ url: URL) throws -> [Double] {
        let output = try run([
            "-select_streams", "v:0", "-show_entries", "packet=pts_time,flags", "-of", "csv=p=0", url.path,
        ])
        return String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap { line in
            let parts = line.split(separator: ",")
            return parts.count == 2 && parts[1].contains("K") ? Double(parts[0]) : nil
        }
    }

    static func read(_ url: URL) throws -> Probe {
        try JSONDecoder().decode(Probe.self, from: run(["-show_format", "-show_streams", "-of", "json", url.path]))
    }

    private static func run(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffprobe", "-v", "error"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }
}

/// A fresh folder under the temp dir, removed by `remove()`.
struct Scratch {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("record-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// A test clock in microseconds that only moves when told.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var value: UInt64
    init(_ start: UInt64 = 1_700_000_000_000_000) { value = start }
    var now: UInt64 { lock.withLock { value } }
    func advance(_ micros: UInt64) { lock.withLock { value += micros } }
}

/// Blocking work off the cooperative pool (two cores: a blocked pool thread starves everything else).
func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
