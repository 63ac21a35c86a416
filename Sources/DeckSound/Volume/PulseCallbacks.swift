import CPulse
import DeckDesktop

// libpulse calls these C functions on its mainloop thread; `userdata` is the `PulseVolume` passed
// unretained in `connect`/`refresh`/`scheduleRetry`, or a retained `PulseCompletion` for success callbacks.

private func owner(_ userdata: UnsafeMutableRawPointer?) -> PulseVolume? {
    userdata.map { Unmanaged<PulseVolume>.fromOpaque($0).takeUnretainedValue() }
}

let pulseStateCallback: pa_context_notify_cb_t = { _, userdata in
    owner(userdata)?.contextStateChanged()
}

let pulseSubscribeCallback: pa_context_subscribe_cb_t = { _, event, index, userdata in
    let facility = event.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue
    owner(userdata)?.sinkEvent(facility: facility, index: index)
}

let pulseServerInfoCallback: pa_server_info_cb_t = { _, info, userdata in
    let name = info?.pointee.default_sink_name.map { String(cString: $0) }
    let source = info?.pointee.default_source_name.map { String(cString: $0) }
    owner(userdata)?.defaultSinkNamed(name)
    owner(userdata)?.defaultSourceNamed(source)
}

/// Called once per sink and then with `eol` = 1 (end of list) or -1 (error: the sink is gone).
let pulseSinkInfoCallback: pa_sink_info_cb_t = { _, info, eol, userdata in
    if eol > 0 { return }
    owner(userdata)?.sinkInfo(info?.pointee)
}

/// Called once for the default source and then with `eol` = 1, or -1 when it is gone.
let pulseSourceInfoCallback: pa_source_info_cb_t = { _, info, eol, userdata in
    if eol > 0 { return }
    owner(userdata)?.sourceInfo(info?.pointee)
}

let pulseRetryCallback: pa_time_event_cb_t = { api, event, _, userdata in
    let volume = owner(userdata)
    volume?.retryNow()  // forgets the timer first, which is freed here
    api?.pointee.time_free(event)
}

let pulseSuccessCallback: pa_context_success_cb_t = { _, success, userdata in
    guard let userdata else { return }
    // Takes back the reference `perform` retained for libpulse.
    let completion = Unmanaged<PulseCompletion>.fromOpaque(userdata).takeRetainedValue()
    completion.owner?.finish(completion, succeeded: success != 0)
}
