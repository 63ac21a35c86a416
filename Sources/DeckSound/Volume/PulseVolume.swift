import CPulse
import DeckDesktop
import Foundation
import Synchronization

/// Follows the default sink, and the default source's mute for `micMute` keys, over its own `PulseLoop` and context,
/// reconnecting after the server goes away. Its
/// last reference may go on the loop's thread (a callback's `onChange` dropping the control): the loop's end
/// handles that.
///
/// `@unchecked Sendable`: `context`, `sink`, `source`, `pending` and `retryScheduled` are touched only on the
/// mainloop's thread (inside callbacks) or while holding the mainloop lock, which libpulse makes the same
/// thing; `published` and `micPublished` are `Mutex`es so the states can be read from any thread without that lock.
final class PulseVolume: @unchecked Sendable {
    /// `PA_VOLUME_NORM` is a cast macro Swift does not import: 100 % volume.
    static let normVolume = 0x10000

    private let loop = PulseLoop()
    /// The reconnect timer while one is set.
    private var retry: OpaquePointer?
    private let server: String?
    private let retryEvery: Duration
    private let onChange: @Sendable (VolumeState) -> Void
    private let routedSink: String?
    private let speakers: @Sendable () -> String?
    private var context: OpaquePointer?
    private(set) var sink: (name: String, index: UInt32, channels: UInt8)?
    /// The default source (the microphone) while there is one.
    private(set) var source: (name: String, index: UInt32)?
    private let onMicChange: @Sendable (MicState) -> Void
    private let micPublished = Mutex<MicState?>(nil)
    private var pending: [PulseCompletion] = []
    private var retryScheduled = false
    private let published = Mutex<VolumeState?>(nil)

    init(
        server: String?, retryEvery: Duration, routedSink: String? = nil,
        speakers: @escaping @Sendable () -> String? = { nil }, onChange: @escaping @Sendable (VolumeState) -> Void,
        onMicChange: @escaping @Sendable (MicState) -> Void = { _ in }
    ) {
        self.onMicChange = onMicChange
        self.routedSink = routedSink
        self.speakers = speakers
        self.server = server
        self.retryEvery = retryEvery
        self.onChange = onChange
        loop.locked { connect() }
    }

    deinit {
        let (api, timer) = (loop.api, retry)
        loop.end(context: context) { if let timer { api.pointee.time_free(timer) } }
    }

    var state: VolumeState { published.withLock { $0 } ?? .unavailable }
    var micState: MicState { micPublished.withLock { $0 } ?? .noServer }

    func setLevel(_ level: Double) async -> ActionResult {
        let volume = UInt32((min(max(level, 0), 1) * Double(Self.normVolume)).rounded())
        return await perform(on: .sink) { context, sink, callback, userdata in
            var volumes = pa_cvolume()
            pa_cvolume_set(&volumes, UInt32(sink.channels), volume)
            return pa_context_set_sink_volume_by_name(context, sink.name, &volumes, callback, userdata)
        }
    }

    func toggleMute() async -> ActionResult {
        let mute: Int32 = state.muted ? 0 : 1
        return await perform(on: .sink) { context, sink, callback, userdata in
            pa_context_set_sink_mute_by_name(context, sink.name, mute, callback, userdata)
        }
    }

    /// Mutes the default source, or unmutes it if muted (a `micMute` key).
    func toggleMicMute() async -> ActionResult {
        let mute: Int32 = micState.muted ? 0 : 1
        return await perform(on: .source) { context, source, callback, userdata in
            pa_context_set_source_mute_by_name(context, source.name, mute, callback, userdata)
        }
    }

    enum Target { case sink, source }

    /// Starts one operation on the default sink and waits for the server's answer.
    private func perform(
        on target: Target,
        _ start:
            @escaping (
                OpaquePointer, (name: String, index: UInt32, channels: UInt8), pa_context_success_cb_t,
                UnsafeMutableRawPointer
            ) -> OpaquePointer?
    ) async -> ActionResult {
        await withCheckedContinuation { continuation in
            loop.locked {
                guard let context, pa_context_get_state(context) == PA_CONTEXT_READY else {
                    return continuation.resume(returning: .failed("no sound server"))
                }
                let device: (name: String, index: UInt32, channels: UInt8)
                switch target {
                case .sink:
                    guard let sink else { return continuation.resume(returning: .failed("no sound server")) }
                    device = sink
                case .source:
                    guard let source else {
                        return continuation.resume(returning: .failed(MicState.noSource.unavailable ?? ""))
                    }
                    device = (source.name, source.index, 0)
                }
                let completion = PulseCompletion(owner: self, continuation)
                pending.append(completion)
                // Retained for libpulse until the success callback takes it back; if the context dies
                // first, `connectionLost` answers the caller and only this small box leaks.
                let userdata = Unmanaged.passRetained(completion).toOpaque()
                guard let operation = start(context, device, pulseSuccessCallback, userdata) else {
                    Unmanaged<PulseCompletion>.fromOpaque(userdata).release()
                    return finish(completion, succeeded: false)
                }
                pa_operation_unref(operation)
            }
        }
    }

    /// Answers a waiting caller (mainloop thread or lock held).
    func finish(_ completion: PulseCompletion, succeeded: Bool) {
        pending.removeAll { $0 === completion }
        completion.resume(succeeded ? .ok : .failed("the sound server refused the change"))
    }

    // MARK: Connection (mainloop thread or lock held)

    private func connect() {
        guard let context = pa_context_new(loop.api, "TouchDeck") else { return scheduleRetry() }
        self.context = context
        // Unretained: the loop's end (in deinit) leaves no callback into self.
        let me = Unmanaged.passUnretained(self).toOpaque()
        pa_context_set_state_callback(context, pulseStateCallback, me)
        pa_context_set_subscribe_callback(context, pulseSubscribeCallback, me)
        // NOAUTOSPAWN: a missing server must read as "unavailable", not start a daemon behind the user.
        if pa_context_connect(context, server, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 { connectionLost() }
    }

    func contextStateChanged() {
        guard let context else { return }
        switch pa_context_get_state(context) {
        case PA_CONTEXT_READY:
            let mask =
                PA_SUBSCRIPTION_MASK_SINK.rawValue | PA_SUBSCRIPTION_MASK_SOURCE.rawValue
                | PA_SUBSCRIPTION_MASK_SERVER.rawValue
            pa_operation_unref(pa_context_subscribe(context, pa_subscription_mask_t(mask), nil, nil))
            refresh()
        case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
            connectionLost()
        default:
            break
        }
    }

    private func connectionLost() {
        sink = nil
        source = nil
        publish(.unavailable)
        publishMic(.noServer)
        for completion in pending { completion.resume(.failed("no sound server")) }
        pending.removeAll()
        scheduleRetry()
    }

    private func scheduleRetry() {
        guard !retryScheduled else { return }
        retryScheduled = true
        let api = loop.api
        let micros = retryEvery.components.seconds * 1_000_000 + retryEvery.components.attoseconds / 1_000_000_000_000
        var when = timeval()
        pa_timeval_add(pa_gettimeofday(&when), pa_usec_t(micros))
        // Unretained for the same reason as the context callbacks; deinit frees the timer.
        retry = api.pointee.time_new(api, &when, pulseRetryCallback, Unmanaged.passUnretained(self).toOpaque())
    }

    func retryNow() {
        retryScheduled = false
        retry = nil
        dropContext()
        connect()
    }

    private func dropContext() {
        guard let context else { return }
        pa_context_set_state_callback(context, nil, nil)
        pa_context_set_subscribe_callback(context, nil, nil)
        pa_context_disconnect(context)
        pa_context_unref(context)
        self.context = nil
    }

    // MARK: Following the default sink (mainloop thread)

    func sinkEvent(facility: UInt32, index: UInt32) {
        if facility == PA_SUBSCRIPTION_EVENT_SERVER.rawValue {
            refresh()
        } else if facility == PA_SUBSCRIPTION_EVENT_SOURCE.rawValue {
            if index == source?.index { refresh() }
        } else if facility == PA_SUBSCRIPTION_EVENT_SINK.rawValue, index == sink?.index {
            refresh()
        }
    }

    /// Asks which sink and source are the defaults; the answer leads to `sinkInfo` and `sourceInfo`.
    func refresh() {
        guard let context else { return }
        let me = Unmanaged.passUnretained(self).toOpaque()
        pa_operation_unref(pa_context_get_server_info(context, pulseServerInfoCallback, me))
    }

    func defaultSourceNamed(_ name: String?) {
        guard let context, let name else {
            source = nil
            return publishMic(.noSource)
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        pa_operation_unref(pa_context_get_source_info_by_name(context, name, pulseSourceInfoCallback, me))
    }

    func sourceInfo(_ info: pa_source_info?) {
        guard let info else {
            source = nil
            return publishMic(.noSource)
        }
        source = (String(cString: info.name), info.index)
        publishMic(MicState(muted: info.mute != 0))
    }

    private func publishMic(_ new: MicState) {
        let changed = micPublished.withLock { old in
            defer { old = new }
            return old != new
        }
        if changed { onMicChange(new) }
    }

    func defaultSinkNamed(_ reported: String?) {
        // Our own sink as the default means the sound is routed to a device: the speakers are what counts.
        let name = reported != nil && reported == routedSink ? speakers() ?? reported : reported
        guard let context, let name else {
            sink = nil
            return publish(.unavailable)
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        pa_operation_unref(pa_context_get_sink_info_by_name(context, name, pulseSinkInfoCallback, me))
    }

    func sinkInfo(_ info: pa_sink_info?) {
        guard var info else {
            sink = nil
            return publish(.unavailable)
        }
        sink = (String(cString: info.name), info.index, info.volume.channels)
        let average = Double(pa_cvolume_avg(&info.volume)) / Double(Self.normVolume)
        publish(VolumeState(available: true, level: min(average, 1), muted: info.mute != 0))
    }

    private func publish(_ new: VolumeState) {
        let changed = published.withLock { old in
            defer { old = new }
            return old != new
        }
        if changed { onChange(new) }
    }
}

/// One caller waiting for a success callback; resumed exactly once (all access on the mainloop thread
/// or under its lock, see `PulseVolume`).
final class PulseCompletion: @unchecked Sendable {
    /// Weak: a box libpulse never calls back for (context gone) must not keep the connection alive.
    weak var owner: PulseVolume?
    private var continuation: CheckedContinuation<ActionResult, Never>?

    init(owner: PulseVolume, _ continuation: CheckedContinuation<ActionResult, Never>) {
        self.owner = owner
        self.continuation = continuation
    }

    func resume(_ result: ActionResult) {
        continuation?.resume(returning: result)
        continuation = nil
    }
}
