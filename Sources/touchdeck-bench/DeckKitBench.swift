import DeckKit
import Foundation

extension BenchSuite {
    /// Layout edits, message coding, media packets and the send gate: the per-press and per-frame
    /// costs of DeckKit's pure rules.
    static let deckKit = BenchSuite(name: "deckkit") {
        layoutEdits()
        messageCoding()
        videoPackets()
        sendGate()
    }
}

private let blog = Button(label: "Blog", kind: .command("blogrun"))

private func layoutEdits() {
    var layout = DeckLayout.empty
    var pages = layout.pages
    var slot = 0
    Bench.compare(
        "layout.set", iterations: 200_000, baseline: "array.write",
        reference: {
            slot = (slot + 1) % 12
            pages[0][slot] = slot.isMultiple(of: 2) ? blog : nil
            blackHole(pages)
        },
        subject: {
            slot = (slot + 1) % 12
            try? layout.set(page: 0, index: slot, button: blog)
            blackHole(layout)
        })
    Bench.measure("layout.setClear", iterations: 200_000) {
        slot = (slot + 1) % 12
        try? layout.set(page: 1, index: slot, button: blog)
        try? layout.clear(page: 1, index: slot)
    }
}

private func messageCoding() {
    let press = DeviceMessage.press(.init(page: 0, index: 3))
    let text = press.encode()
    Bench.compare(
        "message.decodePress", iterations: 50_000, baseline: "JSONSerialization",
        reference: {
            blackHole(try? JSONSerialization.jsonObject(with: text))
        },
        subject: {
            blackHole(try? DeviceMessage.decode(text))
        })
    Bench.measure("message.encodePress", iterations: 50_000) { blackHole(press.encode()) }
}

private func videoPackets() {
    let frame = Data((0..<300 * 1024).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    let sets = [Data(repeating: 0x67, count: 27), Data(repeating: 0x68, count: 4)]
    let packet = VideoPacket(keyframe: true, parameterSets: sets, frame: frame)
    let bytes = packet.encoded()
    let copy = {
        // A real copy of the same number of bytes: what any packetizer must at least do.
        blackHole(bytes.withUnsafeBytes { Data(bytes: $0.baseAddress!, count: $0.count) })
    }
    Bench.compare(
        "packet.encode300KB", iterations: 2_000, baseline: "memcpy", reference: copy,
        subject: {
            blackHole(packet.encoded())
        })
    Bench.compare(
        "packet.decode300KB", iterations: 2_000, baseline: "memcpy", reference: copy,
        subject: {
            blackHole(VideoPacket(decoding: bytes))
        })
}

private func sendGate() {
    var gate = SendGate(fps: 60)
    var counter = 0
    Bench.compare(
        "sendGate.beginFinish", iterations: 2_000_000, baseline: "counter",
        reference: {
            counter += 1
            counter -= 1
            blackHole(counter)
        },
        subject: {
            blackHole(gate.begin(keyframe: false))
            gate.finish()
        })
}
