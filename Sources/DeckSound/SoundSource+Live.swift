import DeckDesktop

extension SoundSource {
    /// The live capture: libpulse (PulseAudio or PipeWire's pulse server), routing through our null sink.
    public static func live(_ capture: SoundCapture) -> SoundSource {
        SoundSource(
            subscribe: { capture.subscribe($0, started: $1) }, speakers: { capture.speakers },
            settle: { capture.settle() })
    }
}
