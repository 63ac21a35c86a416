import CPulse
import DeckDesktop
import Dispatch
import Foundation
import Synchronization

/// The levels sliders move (`SoundLevels.live`): every sink input with its `application.name` and volume, and the
/// default source's volume, followed through the server's change events on a context and loop of its own, so the
/// gauge's `PulseVolume` is left as it is. Reconnects every 2 s while the server is gone.
///
/// `@unchecked Sendable`: `context`, `inputs`, `source`, `pending`, `retryScheduled` and `attempts` are touched
/// only on the mainloop's thread (in callbacks) or with its lock held; `published` is a `Mutex` read from any thread.
final class PulseLevels: @unchecked Sendable {
    struct Stream: Equatable {
        var app: String
        var channels: UInt8
        var level: Double
    }

    struct Published: Equatable {
        var server = false
        var inputs: [UInt32: Stream] = [:]
        var source: (name: String, channels: UInt8, level: Double)?

        static func == (a: Published, b: Published) -> Bool {
            a.server == b.server && a.inputs == b.inputs && a.source?.name == b.source?.name
                && a.source?.level == b.source?.level
        }
    }

    private let loop = PulseLoop()
    private var context: OpaquePointer?
    private var state = Published()
    private let published = Mutex(Published())
    private var pending: [PulseLevelsCompletion] = []
    private var retryScheduled = false
    /// How many connections were started (for the reconnect test).
    private var attempts = 0
    private let server: String?
    private let onChange: @Sendable () -> Void

    /// `server`: a libpulse server string; nil, the default one.
    init(server: String? = nil, onChange: @escaping @Sendable () -> Void) {
        self.server = server
        self.onChange = onChange
        loop.locked { connect() }
    }

    /// How many connections were started so far.
    var connectionAttempts: Int { loop.locked { attempts } }

    deinit { loop.end(context: context) }

    /// What `target` is at now.
    func level(of target: SoundLevels.Target) -> SoundLevels.Level {
        let now = published.withLock { $0 }
        guard now.server else { return .unavailable("no sound server") }
        switch target {
        case .microphone:
            guard let source = now.source else { return .unavailable(MicState.noSource.unavailable ?? "") }
            return .level(source.level)
        case .app(let name):
            // Several streams of one app move together; the first (lowest index) one stands for them.
            guard let stream = now.inputs.sorted(by: { $0.key < $1.key }).first(where: { $0.value.app == name })
            else { return .unavailable(SoundLevels.notPlaying(name)) }
            return .level(stream.value.level)
        }
    }

    /// Sets every channel of `target` (each stream of an app) to `level` and waits for the server's answer.
    func set(_ target: SoundLevels.Target, to level: Double) async -> ActionResult {
        let volume = UInt32((min(max(level, 0), 1) * Double(PulseVolume.normVolume)).rounded())
        return await withCheckedContinuation { continuation in
            loop.locked {
                guard let context, pa_context_get_state(context) == PA_CONTEXT_READY else {
                    return continuation.resume(returning: .failed("no sound server"))
                }
                let operations: [(OpaquePointer, pa_context_success_cb_t, UnsafeMutableRawPointer) -> OpaquePointer?]
                switch target {
                case .microphone:
                    guard let source = state.source else {
                        return continuation.resume(returning: .failed(MicState.noSource.unavailable ?? ""))
                    }
                    operations = [
                        { context, callback, userdata in
                            var volumes = pa_cvolume()
                            pa_cvolume_set(&volumes, UInt32(source.channels), volume)
                            return pa_context_set_source_volume_by_name(
                                context, source.name, &volumes, callback, userdata)
                        }
                    ]
                case .app(let name):
                    operations = state.inputs.filter { $0.value.app == name }.map { index, stream in
                        { context, callback, userdata in
                            var volumes = pa_cvolume()
                            pa_cvolume_set(&volumes, UInt32(stream.channels), volume)
                            return pa_context_set_sink_input_volume(context, index, &volumes, callback, userdata)
                        }
                    }
                    guard !operations.isEmpty else {
                        return continuation.resume(returning: .failed(SoundLevels.notPlaying(name)))
                    }
                }
                let completion = PulseLevelsCompletion(owner: self, waiting: operations.count, continuation)
                pending.append(completion)
                for operation in operations {
                    // Retained for libpulse until its success callback takes it back.
                    let userdata = Unmanaged.passRetained(completion).toOpaque()
                    guard let started = operation(context, pulseLevelsSuccess, userdata) else {
                        Unmanaged<PulseLevelsCompletion>.fromOpaque(userdata).release()
                        finished(completion, succeeded: false)
                        continue
                    }
                    pa_operation_unref(started)
                }
            }
        }
    }

    /// One operation of `completion` answered (mainloop thread or lock held).
    func finished(_ completion: PulseLevelsCompletion, succeeded: Bool) {
        guard completion.answer(succeeded: succeeded) else { return }
        pending.removeAll { $0 === completion }
    }

    // MARK: Connection (mainloop thread or lock held)

    private func connect() {
        guard let context = pa_context_new(loop.api, "TouchDeck sliders") else { return retryLater() }
        self.context = context
        attempts += 1
        // Unretained: the loop's end (in deinit) leaves no callback into self.
        let me = Unmanaged.passUnretained(self).toOpaque()
        pa_context_set_state_callback(context, pulseLevelsState, me)
        pa_context_set_subscribe_callback(context, pulseLevelsEvent, me)
        if pa_context_connect(context, server, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 { lost() }
    }

    func contextStateChanged() {
        guard let context else { return }
        switch pa_context_get_state(context) {
        case PA_CONTEXT_READY:
            let mask =
                PA_SUBSCRIPTION_MASK_SINK_INPUT.rawValue | PA_SUBSCRIPTION_MASK_SOURCE.rawValue
                | PA_SUBSCRIPTION_MASK_SERVER.rawValue
            pa_operation_unref(pa_context_subscribe(context, pa_subscription_mask_t(mask), nil, nil))
            state.server = true
            let me = Unmanaged.passUnretained(self).toOpaque()
            pa_operation_unref(pa_context_get_sink_input_info_list(context, pulseLevelsInput, me))
            pa_operation_unref(pa_context_get_server_info(context, pulseLevelsServer, me))
        case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
            lost()
        default:
            break
        }
    }

    private func lost() {
        state = Published()
        publish()
        for completion in pending { completion.fail("no sound server") }
        pending.removeAll()
        if let context {
            pa_context_set_state_callback(context, nil, nil)
            pa_context_set_subscribe_callback(context, nil, nil)
            pa_context_disconnect(context)
            pa_context_unref(context)
            self.context = nil
        }
        retryLater()
    }

    /// At most one reconnect waits at a time: a failed `pa_context_connect` both calls the state callback (FAILED)
    /// and returns an error, and each used to start a chain of its own, so with the server gone the chains
    /// doubled every 2 s until the host spent whole cores on them.
    private func retryLater() {
        guard !retryScheduled else { return }
        retryScheduled = true
        DispatchQueue.global().asyncAfter(deadline: .now() + 2) { [weak self] in
            guard let self else { return }
            self.loop.locked {
                self.retryScheduled = false
                if self.context == nil { self.connect() }
            }
        }
    }

    // MARK: Following (mainloop thread)

    func event(facility: UInt32, type: UInt32, index: UInt32) {
        guard let context else { return }
        let me = Unmanaged.passUnretained(self).toOpaque()
        if facility == PA_SUBSCRIPTION_EVENT_SINK_INPUT.rawValue {
            if type == PA_SUBSCRIPTION_EVENT_REMOVE.rawValue {
                state.inputs[index] = nil
                return publish()
            }
            pa_operation_unref(pa_context_get_sink_input_info(context, index, pulseLevelsInput, me))
        } else {
            pa_operation_unref(pa_context_get_server_info(context, pulseLevelsServer, me))
        }
    }

    func input(_ info: pa_sink_input_info) {
        var volume = info.volume
        let app = info.proplist.flatMap { pa_proplist_gets($0, "application.name") }.map { String(cString: $0) }
        let level = min(Double(pa_cvolume_avg(&volume)) / Double(PulseVolume.normVolume), 1)
        state.inputs[info.index] = app.map { Stream(app: $0, channels: info.volume.channels, level: level) }
        publish()
    }

    func defaultSource(_ name: String?) {
        guard let context, let name else {
            state.source = nil
            return publish()
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        pa_operation_unref(pa_context_get_source_info_by_name(context, name, pulseLevelsSource, me))
    }

    func source(_ info: pa_source_info?) {
        guard var info else {
            state.source = nil
            return publish()
        }
        let level = min(Double(pa_cvolume_avg(&info.volume)) / Double(PulseVolume.normVolume), 1)
        state.source = (String(cString: info.name), info.volume.channels, level)
        publish()
    }

    private func publish() {
        let new = state
        let changed = published.withLock { old in
            defer { old = new }
            return old != new
        }
        if changed { onChange() }
    }
}

/// One `set` waiting for the success callbacks of its operations; answered once, when all came or one failed.
final class PulseLevelsCompletion: @unchecked Sendable {
    weak var owner: PulseLevels?
    private var waiting: Int
    private var continuation: CheckedContinuation<ActionResult, Never>?

    init(owner: PulseLevels, waiting: Int, _ continuation: CheckedContinuation<ActionResult, Never>) {
        self.owner = owner
        self.waiting = waiting
        self.continuation = continuation
    }

    /// One answer; returns whether the caller has been answered now.
    func answer(succeeded: Bool) -> Bool {
        waiting -= 1
        if !succeeded {
            fail("the sound server refused the change")
            return true
        }
        guard waiting == 0 else { return false }
        continuation?.resume(returning: .ok)
        continuation = nil
        return true
    }

    func fail(_ reason: String) {
        continuation?.resume(returning: .failed(reason))
        continuation = nil
    }
}

// libpulse calls these on its mainloop thread; `userdata` is the `PulseLevels` passed unretained, or a retained
// `PulseLevelsCompletion` for the success callbacks.
private func levels(_ userdata: UnsafeMutableRawPointer?) -> PulseLevels? {
    userdata.map { Unmanaged<PulseLevels>.fromOpaque($0).takeUnretainedValue() }
}

let pulseLevelsState: pa_context_notify_cb_t = { _, userdata in levels(userdata)?.contextStateChanged() }

let pulseLevelsEvent: pa_context_subscribe_cb_t = { _, event, index, userdata in
    let facility = event.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue
    let type = event.rawValue & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue
    levels(userdata)?.event(facility: facility, type: type, index: index)
}

/// Once per sink input, then `eol` 1 (done) or -1 (it is gone already).
let pulseLevelsInput: pa_sink_input_info_cb_t = { _, info, eol, userdata in
    guard eol == 0, let info = info?.pointee else { return }
    levels(userdata)?.input(info)
}

let pulseLevelsServer: pa_server_info_cb_t = { _, info, userdata in
    levels(userdata)?.defaultSource(info?.pointee.default_source_name.map { String(cString: $0) })
}

let pulseLevelsSource: pa_source_info_cb_t = { _, info, eol, userdata in
    if eol > 0 { return }
    levels(userdata)?.source(info?.pointee)
}

let pulseLevelsSuccess: pa_context_success_cb_t = { _, success, userdata in
    guard let userdata else { return }
    // Takes back the reference `set` retained for libpulse.
    let completion = Unmanaged<PulseLevelsCompletion>.fromOpaque(userdata).takeRetainedValue()
    completion.owner?.finished(completion, succeeded: success != 0)
}

extension SoundLevels {
    /// The sound server's levels (PulseAudio, or PipeWire's pulse server), followed on a context of their own.
    public static func live() -> SoundLevels {
        let (changes, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let pulse = PulseLevels(onChange: { continuation.yield() })
        return SoundLevels(
            current: { pulse.level(of: $0) }, set: { target, level in await pulse.set(target, to: level) },
            changes: changes)
    }
}
