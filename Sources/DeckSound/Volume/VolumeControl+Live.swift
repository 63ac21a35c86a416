import DeckDesktop

extension VolumeControl {
    /// Talks to PulseAudio (or PipeWire's pulse server) at `server` (nil: `$PULSE_SERVER` or the default).
    /// `onChange` gets every new state, including changes made by other programs, on libpulse's thread:
    /// it must return quickly (it may drop the last reference to this control). Without a server the
    /// state is unavailable and a reconnect is tried every `retryEvery`. While the default sink is
    /// `routedSink` (the host's own sink, while a device plays the sound), the control follows `speakers()`
    /// instead: the gauge keeps showing and driving the computer's speakers.
    public static func live(
        server: String? = nil, retryEvery: Duration = .seconds(2), routedSink: String? = nil,
        speakers: @escaping @Sendable () -> String? = { nil },
        onChange: @escaping @Sendable (VolumeState) -> Void
    ) -> VolumeControl {
        liveWithMic(
            server: server, retryEvery: retryEvery, routedSink: routedSink, speakers: speakers, onChange: onChange
        ).volume
    }

    /// `live`, and the default source's mute over the same connection (`micMute` keys): `onMicChange` gets its
    /// every new state on libpulse's thread, with the same rules as `onChange`.
    public static func liveWithMic(
        server: String? = nil, retryEvery: Duration = .seconds(2), routedSink: String? = nil,
        speakers: @escaping @Sendable () -> String? = { nil },
        onChange: @escaping @Sendable (VolumeState) -> Void,
        onMicChange: @escaping @Sendable (MicState) -> Void = { _ in }
    ) -> (volume: VolumeControl, mic: MicControl) {
        let pulse = PulseVolume(
            server: server, retryEvery: retryEvery, routedSink: routedSink, speakers: speakers, onChange: onChange,
            onMicChange: onMicChange)
        let volume = VolumeControl(
            current: { pulse.state }, setLevel: { level in await pulse.setLevel(level) },
            toggleMute: { await pulse.toggleMute() })
        return (volume, MicControl(current: { pulse.micState }, toggleMute: { await pulse.toggleMicMute() }))
    }
}
