import DeckKit
import DeckLog
import DeckMedia
import Foundation

/// The encoders and the file of one recording, used only on its queue: frames and sound in, MP4 out.
final class RecordingSink {
    let size: PixelSize
    private let fps: Int
    private let video: VideoEncoder
    private let audio: AACEncoder?
    private let writer: MP4Writer
    private let reserveBytes: Int64
    private let folder: URL
    private var finished: RecordingError??
    /// Bytes of the biggest fragment so far: the next may be as big, so that much must stay free.
    private var largestFragment: Int64 = 0
    private var fragmentStart: Int64 = 0

    init(
        url: URL, sourceWidth: Int, sourceHeight: Int, maxSide: Int, fps: Int, encoder: EncoderChoice, sound: Bool,
        reserveBytes: Int64, log: Logger
    ) throws {
        self.fps = fps
        self.reserveBytes = reserveBytes
        folder = url.deletingLastPathComponent()
        // A file to keep (`Tuning.recording`). The recorder asks for a
        // keyframe every second of the file's time (a fragment ends at each), so a cut file loses at most that
        // much; the encoder's own interval is only the backstop.
        let configuration = VideoEncoder.Configuration(
            choice: encoder, maxSide: maxSide, fps: fps, preset: .ultrafast,
            crf: Tuning.recording.crf, bufferFrames: Tuning.recording.bufferFrames,
            safetyInterval: .seconds(2))
        do {
            video = try VideoEncoder(
                sourceWidth: sourceWidth, sourceHeight: sourceHeight, configuration: configuration, log: log)
        } catch {
            throw RecordingError.encoder("\(error)")
        }
        guard let size = video.encodedSize else { throw RecordingError.encoder("the video encoder did not open") }
        self.size = size
        let audio = sound ? try AACEncoder() : nil
        self.audio = audio
        writer = try MP4Writer(url: url, audio: audio.map { encoder in { try encoder.copyParameters(to: $0) } })
    }

    var bytes: Int64 { writer.bytesWritten }

    /// One copied frame at `micros` on the file's clock; `keyframe`: the recorder's second is up.
    func video(_ buffer: FramePool.Buffer, micros: UInt64, keyframe: Bool) throws {
        let image = BGRAImage(
            pixels: buffer.storage, width: buffer.width, height: buffer.height, bytesPerRow: buffer.stride)
        if keyframe { video.requestKeyframe() }
        let encoded: EncodedFrame?
        do { encoded = try video.encode(image, at: micros) } catch { throw RecordingError.encoder("\(error)") }
        guard let encoded else { return }
        try write(
            Encoded(
                accessUnit: encoded.accessUnit, keyframe: encoded.keyframe, parameterSets: encoded.parameterSets,
                width: encoded.width, height: encoded.height), micros: micros)
    }

    /// One access unit, from this sink's encoder or a viewer's (`EncodeTap`).
    struct Encoded: Sendable {
        var accessUnit: Data
        var keyframe: Bool
        var parameterSets: [Data]
        var width: Int
        var height: Int
    }

    /// Writes an encoded frame at `micros` on the file's clock.
    func write(_ encoded: Encoded, micros: UInt64) throws {
        if encoded.keyframe, writer.hasVideo { try checkRoom() }
        try writer.writeVideo(
            encoded.accessUnit, keyframe: encoded.keyframe, parameterSets: encoded.parameterSets,
            width: encoded.width, height: encoded.height, fps: fps, micros: micros)
        if encoded.keyframe { fragmentStart = writer.bytesWritten }
    }

    /// Sound whose first sample is at `micros` on the file's clock.
    func sound(_ samples: UnsafeBufferPointer<Int16>, micros: UInt64) throws {
        guard let audio else { return }
        // Sound starts (and starts again after a pause) where the file's clock says; between, samples count.
        audio.restart(at: Int64(micros) * Int64(AACEncoder.sampleRate) / 1_000_000)
        for packet in try audio.append(samples) {
            try writer.writeAudio(packet.data, pts: packet.pts + Int64(audio.frameSize), duration: packet.duration)
        }
    }

    /// After a pause the picture may have changed completely: start the new stretch with a keyframe.
    func resumed() { video.requestKeyframe() }

    /// Closes the file (once); returns the error that closing met, if any.
    func finish() -> RecordingError? {
        if let finished { return finished }
        var outcome: RecordingError?
        do {
            if let audio, writer.hasVideo {
                for packet in try audio.finish() {
                    try writer.writeAudio(
                        packet.data, pts: packet.pts + Int64(audio.frameSize), duration: packet.duration)
                }
            }
            try writer.finish()
        } catch let error as RecordingError {
            outcome = error
        } catch {
            outcome = .write("\(error)")
        }
        finished = .some(outcome)
        return outcome
    }

    /// The start failed: the file goes.
    func abandon() {
        _ = try? writer.finish()
        try? FileManager.default.removeItem(at: writer.url)
    }

    /// Stops before the disk is full: the next fragment may be as big as the biggest so far.
    private func checkRoom() throws {
        largestFragment = max(largestFragment, writer.bytesWritten - fragmentStart)
        var stats = statvfs()
        guard statvfs(folder.path, &stats) == 0 else { return }
        let free = Int64(stats.f_bavail) * Int64(stats.f_frsize)
        if free < max(reserveBytes, 2 * largestFragment) { throw RecordingError.diskFull }
    }
}

@available(*, unavailable, message: "use it on the recording's queue only")
extension RecordingSink: Sendable {}
