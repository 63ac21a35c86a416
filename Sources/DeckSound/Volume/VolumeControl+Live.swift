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
        let volume = PulseVolume(
            server: server, retryEvery: retryEvery, routedSink: routedSink, speakers: speakers, onChange: onChange)
        return VolumeControl(
            current: { volume.state }, setLevel: { level in await volume.setLevel(level) },
            toggleMute: { await volume.toggleMute() })
    }
}
