import CPulse
import DeckDesktop

// libpulse calls these on its mainloop thread. `userdata` is the `PulseConnection` (state, events) or the
// `PulseReply` a blocked caller holds (everything else), both passed unretained.

private func reply(_ userdata: UnsafeMutableRawPointer?) -> PulseReply {
    Unmanaged<PulseReply>.fromOpaque(userdata!).takeUnretainedValue()
}

let pulseConnectionState: pa_context_notify_cb_t = { _, userdata in
    let connection = Unmanaged<PulseConnection>.fromOpaque(userdata!).takeUnretainedValue()
    pa_threaded_mainloop_signal(connection.mainloop, 0)
}

let pulseConnectionEvent: pa_context_subscribe_cb_t = { _, event, _, userdata in
    let connection = Unmanaged<PulseConnection>.fromOpaque(userdata!).takeUnretainedValue()
    let facility = event.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue
    let kind = event.rawValue & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue
    if facility == PA_SUBSCRIPTION_EVENT_SINK_INPUT.rawValue && kind == PA_SUBSCRIPTION_EVENT_NEW.rawValue {
        connection.events(.newStream)
    } else if facility == PA_SUBSCRIPTION_EVENT_SERVER.rawValue {
        connection.events(.serverChanged)
    }
}

let pulseConnectionDone: pa_context_success_cb_t = { _, success, userdata in
    reply(userdata).finish(success: success != 0)
}

let pulseConnectionIndex: pa_context_index_cb_t = { _, index, userdata in
    let answer = reply(userdata)
    answer.index = index
    answer.finish(success: index != UInt32.max)
}

let pulseConnectionServerInfo: pa_server_info_cb_t = { _, info, userdata in
    let answer = reply(userdata)
    answer.defaultSink = info?.pointee.default_sink_name.map { String(cString: $0) }
    answer.finish(success: info != nil)
}

/// List callbacks: once per item, then `eol` 1 (done) or -1 (failed).
let pulseConnectionSink: pa_sink_info_cb_t = { _, info, eol, userdata in
    let answer = reply(userdata)
    guard eol == 0, let info = info?.pointee else { return answer.finish(success: eol > 0) }
    answer.sinks.append(
        SoundSink(
            index: info.index, name: String(cString: info.name), module: info.owner_module,
            monitor: info.monitor_source_name.map { String(cString: $0) } ?? ""))
}

let pulseConnectionStream: pa_sink_input_info_cb_t = { _, info, eol, userdata in
    let answer = reply(userdata)
    guard eol == 0, let info = info?.pointee else { return answer.finish(success: eol > 0) }
    answer.streams.append(SoundStream(index: info.index, sink: info.sink))
}
