import CAVCodec
import Foundation

/// Sound to AAC-LC through libavcodec's own encoder: interleaved s16le stereo at 48 kHz in (what the sound
/// seam delivers), one packet per 1024 samples out. Owns its `AVCodecContext`, `AVFrame` and `AVPacket`.
///
/// Not Sendable: used only on the recording's queue.
final class AACEncoder {
    static let sampleRate = 48_000
    static let channels = 2

    /// One encoded AAC frame; `pts` and `duration` in samples.
    struct Packet {
        var data: Data
        var pts: Int64
        var duration: Int64
    }

    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    /// Samples of one channel per AAC frame (1024).
    let frameSize: Int
    /// Planar float samples waiting for a whole frame.
    private var left: [Float] = []
    private var right: [Float] = []
    /// The pts (in samples) of the first sample waiting in `left`/`right`.
    private var nextPts: Int64 = 0

    init(bitrate: Int = 128_000) throws {
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_AAC) else {
            throw RecordingError.encoder("libavcodec has no AAC encoder")
        }
        guard let context = avcodec_alloc_context3(codec), let frame = av_frame_alloc(), let packet = av_packet_alloc()
        else { throw RecordingError.encoder("out of memory") }
        (self.context, self.frame, self.packet) = (context, frame, packet)
        context.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        context.pointee.sample_rate = Int32(Self.sampleRate)
        av_channel_layout_default(&context.pointee.ch_layout, Int32(Self.channels))
        context.pointee.bit_rate = Int64(bitrate)
        context.pointee.time_base = AVRational(num: 1, den: Int32(Self.sampleRate))
        // MP4 wants the AudioSpecificConfig in the header (esds), not in every packet.
        context.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        try FFCall.check(avcodec_open2(context, codec, nil), "avcodec_open2(aac)", as: RecordingError.encoder)
        frameSize = Int(context.pointee.frame_size)
        frame.pointee.nb_samples = Int32(frameSize)
        frame.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        av_channel_layout_copy(&frame.pointee.ch_layout, &context.pointee.ch_layout)
        try FFCall.check(av_frame_get_buffer(frame, 0), "av_frame_get_buffer", as: RecordingError.encoder)
    }

    deinit {
        avcodec_free_context(&context)
        av_frame_free(&frame)
        av_packet_free(&packet)
    }

    /// The codec's parameters for the MP4 track.
    func copyParameters(to parameters: UnsafeMutablePointer<AVCodecParameters>) throws {
        try FFCall.check(avcodec_parameters_from_context(parameters, context), "avcodec_parameters_from_context")
    }

    /// Samples buffered and not yet encoded.
    var pending: Int { left.count }

    /// Starts the next samples at `pts` (in samples) when nothing is waiting (after a pause or at the start).
    func restart(at pts: Int64) {
        guard left.isEmpty else { return }
        nextPts = max(nextPts, pts)
    }

    /// Adds interleaved stereo samples; returns the packets that became complete.
    func append(_ samples: UnsafeBufferPointer<Int16>) throws -> [Packet] {
        let scale: Float = 1.0 / 32768
        var index = 0
        while index + 1 < samples.count {
            left.append(Float(samples[index]) * scale)
            right.append(Float(samples[index + 1]) * scale)
            index += 2
        }
        var packets: [Packet] = []
        while left.count >= frameSize {
            packets += try encodeFrame(count: frameSize)
        }
        return packets
    }

    /// Encodes what is left (padded with silence) and drains the encoder.
    func finish() throws -> [Packet] {
        var packets: [Packet] = []
        if !left.isEmpty {
            let missing = frameSize - left.count
            left += [Float](repeating: 0, count: missing)
            right += [Float](repeating: 0, count: missing)
            packets += try encodeFrame(count: frameSize)
        }
        try FFCall.check(avcodec_send_frame(context, nil), "avcodec_send_frame(aac)", as: RecordingError.encoder)
        packets += try receive()
        return packets
    }

    private func encodeFrame(count: Int) throws -> [Packet] {
        guard let frame else { preconditionFailure("encoder closed") }
        try FFCall.check(av_frame_make_writable(frame), "av_frame_make_writable", as: RecordingError.encoder)
        left.withUnsafeBufferPointer { source in
            frame.pointee.data.0!.withMemoryRebound(to: Float.self, capacity: count) {
                $0.update(from: source.baseAddress!, count: count)
            }
        }
        right.withUnsafeBufferPointer { source in
            frame.pointee.data.1!.withMemoryRebound(to: Float.self, capacity: count) {
                $0.update(from: source.baseAddress!, count: count)
            }
        }
        left.removeFirst(count)
        right.removeFirst(count)
        frame.pointee.pts = nextPts
        nextPts += Int64(count)
        try FFCall.check(avcodec_send_frame(context, frame), "avcodec_send_frame(aac)", as: RecordingError.encoder)
        return try receive()
    }

    private func receive() throws -> [Packet] {
        guard let context, let packet else { preconditionFailure("encoder closed") }
        var packets: [Packet] = []
        while true {
            let code = avcodec_receive_packet(context, packet)
            if code == deck_averror_eagain() || code == deck_averror_eof() { break }
            try FFCall.check(code, "avcodec_receive_packet(aac)", as: RecordingError.encoder)
            packets.append(
                Packet(
                    data: Data(bytes: packet.pointee.data, count: Int(packet.pointee.size)), pts: packet.pointee.pts,
                    duration: packet.pointee.duration))
            av_packet_unref(packet)
        }
        return packets
    }
}

@available(*, unavailable, message: "use it on the recording's queue only")
extension AACEncoder: Sendable {}
