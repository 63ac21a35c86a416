import CPulse
import DeckDesktop
import Foundation

/// Records one source (our sink's monitor) as 48 kHz stereo s16le and hands on whole 10 ms packets on the
/// mainloop's thread. One reused packet buffer; nothing is allocated per packet.
///
/// `@unchecked Sendable`: `stream` and `chunker` are touched under the mainloop lock or on its thread.
final class PulseRecorder: @unchecked Sendable {
    private let connection: PulseConnection
    private var stream: OpaquePointer?
    private var chunker: PacketChunker
    private let deliver: SoundConsumer
    private let ended: @Sendable () -> Void

    /// Starts recording `source`; returns once the stream records (throws if it cannot).
    init(
        _ connection: PulseConnection, source: String, deliver: @escaping SoundConsumer,
        ended: @escaping @Sendable () -> Void
    ) throws {
        self.connection = connection
        self.deliver = deliver
        self.ended = ended
        chunker = PacketChunker(framesPerPacket: SoundFormat.framesPerPacket, channels: SoundFormat.channels)
        try connection.locked {
            guard let context = connection.context else { throw SoundError.noServer }
            var spec = pa_sample_spec(
                format: PA_SAMPLE_S16LE, rate: UInt32(SoundFormat.rate), channels: UInt8(SoundFormat.channels))
            guard let stream = pa_stream_new(context, "TouchDeck viewer", &spec, nil) else {
                throw SoundError.refused("record stream: \(String(cString: pa_strerror(pa_context_errno(context))))")
            }
            self.stream = stream
            // Unretained: `stop` clears the callbacks (under the lock) before self can go.
            let me = Unmanaged.passUnretained(self).toOpaque()
            pa_stream_set_read_callback(stream, pulseRecorderRead, me)
            pa_stream_set_state_callback(stream, pulseRecorderState, me)
            // fragsize of one packet: the server hands over every 10 ms instead of its default ~2 s.
            var attributes = pa_buffer_attr(
                maxlength: UInt32.max, tlength: UInt32.max, prebuf: UInt32.max, minreq: UInt32.max,
                fragsize: UInt32(SoundFormat.bytesPerPacket))
            let flags = pa_stream_flags_t(PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_DONT_MOVE.rawValue)
            guard pa_stream_connect_record(stream, source, &attributes, flags) >= 0 else {
                throw SoundError.refused("record \(source): \(String(cString: pa_strerror(pa_context_errno(context))))")
            }
            while true {
                let state = pa_stream_get_state(stream)
                if state == PA_STREAM_READY { break }
                if state == PA_STREAM_FAILED || state == PA_STREAM_TERMINATED {
                    throw SoundError.refused("record \(source): the stream failed")
                }
                pa_threaded_mainloop_wait(connection.mainloop)
            }
        }
    }

    deinit { stop() }

    /// Stops recording; no packet is delivered after it returns. Idempotent; also on the mainloop's thread (the
    /// recorder's last reference may go inside one of its callbacks).
    func stop() {
        connection.locked {
            guard let stream else { return }
            pa_stream_set_read_callback(stream, nil, nil)
            pa_stream_set_state_callback(stream, nil, nil)
            pa_stream_disconnect(stream)
            pa_stream_unref(stream)
            self.stream = nil
        }
    }

    // MARK: On the mainloop's thread

    func readable() {
        guard let stream else { return }
        var data: UnsafeRawPointer?
        var count = 0
        while pa_stream_peek(stream, &data, &count) == 0, count > 0 {
            // The packet's first sample: it reached us one packet (10 ms) before the packet was complete.
            let now = SoundFormat.nowMicros() - SoundFormat.packetMicros
            // No data but a size: a hole in the recording, which plays as silence.
            chunker.add(data, count: count) { samples in deliver(samples, now) }
            pa_stream_drop(stream)
        }
    }

    func stateChanged() {
        guard let stream else { return }
        let state = pa_stream_get_state(stream)
        if state == PA_STREAM_FAILED || state == PA_STREAM_TERMINATED { ended() }
        pa_threaded_mainloop_signal(connection.mainloop, 0)
    }
}

let pulseRecorderRead: pa_stream_request_cb_t = { _, _, userdata in
    Unmanaged<PulseRecorder>.fromOpaque(userdata!).takeUnretainedValue().readable()
}

let pulseRecorderState: pa_stream_notify_cb_t = { _, userdata in
    Unmanaged<PulseRecorder>.fromOpaque(userdata!).takeUnretainedValue().stateChanged()
}
