import CPulse
import DeckDesktop
import Foundation

/// One libpulse threaded mainloop and its context, used by the sound queue with blocking calls (each starts
/// an operation under the mainloop lock and waits for its callback). Server events (a new stream, another
/// default sink) go to `events` on the mainloop's thread, which must not block.
///
/// `@unchecked Sendable`: `context` is set in `init` and touched only under the mainloop lock (or on the
/// mainloop's thread, which holds it); blocking calls come from one serial queue.
final class PulseConnection: SoundServer, @unchecked Sendable {
    /// What the subscription reports.
    enum Event: Sendable {
        /// A stream started playing.
        case newStream
        /// The server's default sink (or another server setting) changed.
        case serverChanged
    }

    let loop = PulseLoop()
    var mainloop: OpaquePointer { loop.mainloop }
    private(set) var context: OpaquePointer?
    let events: @Sendable (Event) -> Void

    /// Connects to `server` (nil: `$PULSE_SERVER` or the default) and waits until the context is ready.
    init(server: String?, events: @escaping @Sendable (Event) -> Void) throws {
        self.events = events
        // Every stored property is set from here on: a throw runs deinit, which ends the loop (and context).
        let context = try loop.locked {
            guard let context = pa_context_new(loop.api, "TouchDeck sound") else { throw SoundError.noServer }
            // Unretained: the loop's end (in deinit) leaves no callback into self.
            let me = Unmanaged.passUnretained(self).toOpaque()
            pa_context_set_state_callback(context, pulseConnectionState, me)
            pa_context_set_subscribe_callback(context, pulseConnectionEvent, me)
            return context
        }
        self.context = context
        try locked {
            // NOAUTOSPAWN: no server must read as "no sound", not start a daemon behind the user.
            guard pa_context_connect(context, server, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0 else {
                throw SoundError.noServer
            }
            while true {
                let state = pa_context_get_state(context)
                if state == PA_CONTEXT_READY { break }
                if state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED { throw SoundError.noServer }
                pa_threaded_mainloop_wait(mainloop)
            }
        }
        let mask = PA_SUBSCRIPTION_MASK_SINK_INPUT.rawValue | PA_SUBSCRIPTION_MASK_SERVER.rawValue
        _ = try perform("subscribe") { pa_context_subscribe($0, pa_subscription_mask_t(mask), pulseConnectionDone, $1) }
    }

    // The last reference may go inside one of the loop's own callbacks (a recorder released there): the loop's
    // end handles that.
    deinit { loop.end(context: context) }

    /// Still connected?
    var isReady: Bool { locked { context.map { pa_context_get_state($0) == PA_CONTEXT_READY } ?? false } }

    /// Runs `body` holding the mainloop lock (already the caller's on the loop's own thread).
    func locked<T>(_ body: () throws -> T) rethrows -> T { try loop.locked(body) }

    /// Starts one operation and blocks until its callback says it is done (or the context dies).
    func perform(
        _ what: String, _ start: (OpaquePointer, UnsafeMutableRawPointer) -> OpaquePointer?
    ) throws -> PulseReply {
        let reply = PulseReply(mainloop: mainloop)
        return try locked {
            guard let context, pa_context_get_state(context) == PA_CONTEXT_READY else { throw SoundError.noServer }
            // Unretained: this call holds `reply` until the operation is over.
            guard let operation = start(context, Unmanaged.passUnretained(reply).toOpaque()) else {
                throw SoundError.refused("\(what): \(String(cString: pa_strerror(pa_context_errno(context))))")
            }
            defer { pa_operation_unref(operation) }
            while !reply.done && pa_operation_get_state(operation) == PA_OPERATION_RUNNING {
                pa_threaded_mainloop_wait(mainloop)
            }
            guard reply.done else { throw SoundError.noServer }  // cancelled: the context died
            guard reply.success else {
                throw SoundError.refused("\(what): \(String(cString: pa_strerror(pa_context_errno(context))))")
            }
            return reply
        }
    }

    // MARK: SoundServer

    func defaultSink() throws -> String? {
        try perform("server info") { pa_context_get_server_info($0, pulseConnectionServerInfo, $1) }.defaultSink
    }

    func sinks() throws -> [SoundSink] {
        try perform("list sinks") { pa_context_get_sink_info_list($0, pulseConnectionSink, $1) }.sinks
    }

    func streams() throws -> [SoundStream] {
        try perform("list streams") { pa_context_get_sink_input_info_list($0, pulseConnectionStream, $1) }.streams
    }

    func loadNullSink(name: String, description: String) throws -> UInt32 {
        // 48 kHz stereo: what we send, so nothing resamples between the apps and the device.
        let arguments = "sink_name=\(name) sink_properties=device.description=\(description) rate=48000 channels=2"
        return try perform("load \(name)") {
            pa_context_load_module($0, "module-null-sink", arguments, pulseConnectionIndex, $1)
        }.index
    }

    func setDefaultSink(_ name: String) throws {
        _ = try perform("default sink \(name)") { pa_context_set_default_sink($0, name, pulseConnectionDone, $1) }
    }

    func move(stream: UInt32, to sink: String) throws {
        _ = try perform("move stream \(stream) to \(sink)") {
            pa_context_move_sink_input_by_name($0, stream, sink, pulseConnectionDone, $1)
        }
    }

    func unloadModule(_ index: UInt32) throws {
        _ = try perform("unload module \(index)") { pa_context_unload_module($0, index, pulseConnectionDone, $1) }
    }
}

/// What one operation answered; filled on the mainloop's thread while the caller waits under the lock.
final class PulseReply: @unchecked Sendable {
    let mainloop: OpaquePointer
    var done = false
    var success = true
    var index = UInt32.max
    var defaultSink: String?
    var sinks: [SoundSink] = []
    var streams: [SoundStream] = []

    init(mainloop: OpaquePointer) { self.mainloop = mainloop }

    func finish(success: Bool = true) {
        self.success = success
        done = true
        pa_threaded_mainloop_signal(mainloop, 0)
    }
}
