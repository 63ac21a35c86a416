import CAVCodec
import CAVFormat
import Foundation

/// A fragmented MP4 file written by libavformat (DESIGN.md#recording): an empty `moov` up front, then one `moof`+`mdat`
/// per video keyframe, flushed to the file as it closes, so whatever ends the process leaves a file that plays
/// up to the last whole fragment. Owns the `AVFormatContext` and its file.
///
/// The header needs the H.264 parameter sets, which exist only once the first keyframe is encoded: the file is
/// opened at once (a bad folder fails the start) and the header is written with the first video packet. Sound
/// that comes before it (a first picture that is late, an encoder that holds its first frames) is held, 10 s at
/// most, and written once the header is out: the file's sound starts at its start.
///
/// Not Sendable: used only on the recording's queue.
final class MP4Writer {
    /// The track timescale asked for; libavformat may pick another, packets are rescaled to it.
    private static let microseconds = AVRational(num: 1, den: 1_000_000)

    let url: URL
    private var context: UnsafeMutablePointer<AVFormatContext>?
    private var video: UnsafeMutablePointer<AVStream>?
    private var audio: UnsafeMutablePointer<AVStream>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private let audioSetup: ((UnsafeMutablePointer<AVCodecParameters>) throws -> Void)?
    private var headerWritten = false
    private var closed = false
    private var lastVideoPts: Int64 = -1
    private var lastAudioPts: Int64 = Int64.min
    /// AAC packets (data, pts, duration in samples) that came before the header; the oldest go beyond the cap.
    private var heldAudio: [(Data, Int64, Int64)] = []
    /// 10 s of AAC packets of 1,024 samples at 48 kHz.
    static let heldAudioLimit = 470

    /// Creates the file at `url` (it must not exist). `audio` fills the sound track's parameters; nil: no sound.
    init(url: URL, audio: ((UnsafeMutablePointer<AVCodecParameters>) throws -> Void)?) throws {
        self.url = url
        audioSetup = audio
        var context: UnsafeMutablePointer<AVFormatContext>?
        try FFCall.check(
            avformat_alloc_output_context2(&context, nil, "mp4", url.path), "avformat_alloc_output_context2")
        self.context = context
        packet = av_packet_alloc()
        // Created here, new and private (0600 whatever the umask, never through a link someone left under the
        // name); libavformat then opens the file that now exists.
        let created = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard created >= 0 else { throw RecordingError.write("cannot create \(url.lastPathComponent): errno \(errno)") }
        _ = fchmod(created, 0o600)
        close(created)
        do {
            try FFCall.check(avio_open(&context!.pointee.pb, url.path, AVIO_FLAG_WRITE), "avio_open \(url.path)")
        } catch {
            unlink(url.path)
            throw error
        }
    }

    deinit {
        if let context, context.pointee.pb != nil { avio_closep(&context.pointee.pb) }
        avformat_free_context(context)
        av_packet_free(&packet)
    }

    /// Bytes written to the file so far.
    var bytesWritten: Int64 {
        guard let pb = context?.pointee.pb else { return closedSize }
        return avio_tell(pb)
    }
    /// The file's size when it was closed (`bytesWritten` after `finish`).
    private var closedSize: Int64 = 0

    /// Whether the header is out (a first keyframe arrived).
    var hasVideo: Bool { headerWritten }

    /// Writes one H.264 access unit (Annex-B) at `micros` on the file's clock. The first must be a keyframe
    /// carrying SPS and PPS; a keyframe closes the fragment before it and pushes it to the disk.
    func writeVideo(
        _ accessUnit: Data, keyframe: Bool, parameterSets: [Data], width: Int, height: Int, fps: Int,
        micros: UInt64
    ) throws {
        if !headerWritten {
            guard keyframe, !parameterSets.isEmpty else { return }
            try writeHeader(parameterSets: parameterSets, width: width, height: height, fps: fps)
        }
        guard let video else { return }
        // Two frames on the same microsecond would break the track's order; nudge the later one.
        let pts = max(Int64(micros), lastVideoPts + 1)
        lastVideoPts = pts
        try write(accessUnit, to: video, pts: pts, duration: Int64(1_000_000 / max(1, fps)), key: keyframe)
        try writeHeldAudio()
        if keyframe { try flush() }
    }

    /// Writes one AAC packet; `pts` and `duration` in samples at 48 kHz. Held until the header is out.
    func writeAudio(_ data: Data, pts: Int64, duration: Int64) throws {
        guard headerWritten else {
            guard audioSetup != nil, !closed else { return }
            if heldAudio.count == Self.heldAudioLimit { heldAudio.removeFirst() }
            heldAudio.append((data, pts, duration))
            return
        }
        guard let audio, pts > lastAudioPts else { return }
        lastAudioPts = pts
        let micros = av_rescale_q(pts, AVRational(num: 1, den: 48_000), Self.microseconds)
        let length = av_rescale_q(duration, AVRational(num: 1, den: 48_000), Self.microseconds)
        try write(data, to: audio, pts: micros, duration: length, key: true)
    }

    /// Writes the last fragment and the index (`mfra`) and closes the file. Idempotent; a file without a
    /// single frame is removed.
    func finish() throws {
        guard !closed, let context else { return }
        closed = true
        defer {
            closedSize = avio_tell(context.pointee.pb)
            avio_closep(&context.pointee.pb)
        }
        guard headerWritten else {
            avio_closep(&context.pointee.pb)
            try? FileManager.default.removeItem(at: url)
            return
        }
        try FFCall.check(av_write_trailer(context), "av_write_trailer")
        try flush()
    }

    /// The sound that came before the first picture, after that picture (a track's packets only need to be in
    /// order within the track).
    private func writeHeldAudio() throws {
        guard !heldAudio.isEmpty else { return }
        let held = heldAudio
        heldAudio = []
        for (data, pts, duration) in held { try writeAudio(data, pts: pts, duration: duration) }
    }

    private func writeHeader(parameterSets: [Data], width: Int, height: Int, fps: Int) throws {
        guard let context, let stream = avformat_new_stream(context, nil) else {
            throw RecordingError.write("avformat_new_stream failed")
        }
        video = stream
        stream.pointee.time_base = Self.microseconds
        let parameters = stream.pointee.codecpar!
        parameters.pointee.codec_type = AVMEDIA_TYPE_VIDEO
        parameters.pointee.codec_id = AV_CODEC_ID_H264
        parameters.pointee.width = Int32(width)
        parameters.pointee.height = Int32(height)
        stream.pointee.avg_frame_rate = AVRational(num: Int32(fps), den: 1)
        // SPS and PPS in Annex-B form: the MP4 muxer turns them (and every packet) into the avcC layout.
        var annexB = Data()
        for set in parameterSets { annexB += [0, 0, 0, 1] + set }
        let size = annexB.count
        guard let extradata = av_mallocz(size + Int(AV_INPUT_BUFFER_PADDING_SIZE)) else {
            throw RecordingError.write("out of memory")
        }
        annexB.copyBytes(to: extradata.assumingMemoryBound(to: UInt8.self), count: size)
        parameters.pointee.extradata = extradata.assumingMemoryBound(to: UInt8.self)
        parameters.pointee.extradata_size = Int32(size)
        if let audioSetup {
            guard let sound = avformat_new_stream(context, nil) else {
                throw RecordingError.write("avformat_new_stream failed")
            }
            audio = sound
            sound.pointee.time_base = AVRational(num: 1, den: 48_000)
            try audioSetup(sound.pointee.codecpar)
        }
        var options: OpaquePointer?
        // A fragment per keyframe, an empty moov first, offsets relative to each moof: a cut file still plays.
        av_dict_set(&options, "movflags", "frag_keyframe+empty_moov+default_base_moof", 0)
        defer { av_dict_free(&options) }
        try FFCall.check(avformat_write_header(context, &options), "avformat_write_header")
        headerWritten = true
        try flush()
    }

    private func write(_ data: Data, to stream: UnsafeMutablePointer<AVStream>, pts: Int64, duration: Int64, key: Bool)
        throws
    {
        guard let context, let packet else { return }
        try FFCall.check(av_new_packet(packet, Int32(data.count)), "av_new_packet")
        defer { av_packet_unref(packet) }
        data.copyBytes(to: packet.pointee.data, count: data.count)
        packet.pointee.stream_index = stream.pointee.index
        packet.pointee.pts = av_rescale_q(pts, Self.microseconds, stream.pointee.time_base)
        packet.pointee.dts = packet.pointee.pts
        packet.pointee.duration = av_rescale_q(duration, Self.microseconds, stream.pointee.time_base)
        if key { packet.pointee.flags |= AV_PKT_FLAG_KEY }
        try FFCall.check(av_write_frame(context, packet), "av_write_frame")
    }

    /// Pushes what libavformat buffered to the file; a write error (ENOSPC) surfaces here.
    private func flush() throws {
        guard let pb = context?.pointee.pb else { return }
        avio_flush(pb)
        let error = pb.pointee.error
        if error < 0 { try FFCall.check(error, "writing \(url.lastPathComponent)") }
    }
}

@available(*, unavailable, message: "use it on the recording's queue only")
extension MP4Writer: Sendable {}
