import Foundation

// One input is one opened binary packet. Properties: no trap; what decodes re-encodes to the same packet.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    for input in [data, (Data([0]) + data).dropFirst()] {
        if let video = VideoPacket(decoding: input) {
            precondition(VideoPacket(decoding: video.encoded()) == video, "video round trip")
        }
        if let audio = AudioPacket(decoding: input) {
            precondition(AudioPacket(decoding: audio.encoded()) == audio, "audio round trip")
            precondition(audio.samples.count % Int(audio.channels) == 0)
        }
    }
    return 0
}
