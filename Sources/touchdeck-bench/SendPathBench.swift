import DeckCrypto
import DeckHost
import DeckKit
import DeckMedia
import DeckTransport
import Foundation

extension BenchSuite {
    /// The video send path from the bytes libavcodec hands over (an `AVPacket`'s data) to lws_write and a
    /// loopback WebSocket peer: what the host spends per frame after encoding. Each line gives the CPU per
    /// frame of every thread (the lws thread and the reading peer included) as a multiple of writing the
    /// same bytes to a plain loopback socket read the same way, the heap allocations per frame, and the
    /// bytes allocated per frame in frame sizes (each copy of the frame into a new buffer adds about 1).
    static let sendPath = BenchSuite(name: "sendpath") {
        let sets = [
            Data([0x67, 0x42, 0xC0, 0x28]) + Data(repeating: 0x9A, count: 20), Data([0x68, 0xCE, 0x3C, 0x80]),
        ]
        runSendPath(
            "send.delta30KB", frame: SyntheticFrame.accessUnit(slice: 0x41, size: 30 * 1024), keyframe: false,
            frames: 3000)
        runSendPath(
            "send.key300KB", frame: SyntheticFrame.accessUnit(slice: 0x65, size: 300 * 1024, parameterSets: sets),
            keyframe: true, frames: 600)
    }
}

/// Annex-B access units shaped like x264's: start codes, SPS and PPS on keyframes, then one slice whose
/// bytes never contain a start code.
enum SyntheticFrame {
    static func accessUnit(slice type: UInt8, size: Int, parameterSets: [Data] = []) -> Data {
        var unit = Data()
        for set in parameterSets { unit.append(contentsOf: [0, 0, 0, 1] + set) }
        unit.append(contentsOf: [0, 0, 1, type])
        unit.append(contentsOf: (0..<max(0, size - unit.count)).map { UInt8(truncatingIfNeeded: $0 &* 131 | 1) })
        return unit
    }
}

/// `keyframe`: libavcodec flags the packet as one (`AV_PKT_FLAG_KEY`).
private func runSendPath(_ name: String, frame: Data, keyframe: Bool, frames: Int) {
    let baseline = socketBaseline(frame: frame, frames: frames)
    guard let subject = SendPathRig.start().map({ $0.run(frame: frame, keyframe: keyframe, frames: frames) }) else {
        print("\(name)  could not open the loopback WebSocket")
        return
    }
    let size = Double(frame.count)
    print(
        String(
            format: "%@  %.4f ms/frame  %.1f allocs/frame  %.2f frame sizes allocated/frame  (socket.write baseline)",
            padded(name.replacingOccurrences(of: "send.", with: "write.")), baseline.cpuSeconds * 1000,
            baseline.allocations, baseline.allocatedBytes / size))
    print(
        String(
            format: "%@  %.4f ms/frame  = %.2f× socket.write baseline  %.1f allocs/frame  %.2f frame sizes "
                + "allocated/frame  %.2f copies/frame",
            padded(name), subject.cpuSeconds * 1000, subject.cpuSeconds / baseline.cpuSeconds, subject.allocations,
            subject.allocatedBytes / size, subject.copies))
}

private func padded(_ name: String) -> String {
    name.count >= 18 ? name : name + String(repeating: " ", count: 18 - name.count)
}

/// The floor of any sender: the frame's bytes written to a loopback TCP socket and read by the same reader.
private func socketBaseline(frame: Data, frames: Int) -> Spent {
    let (writer, reader) = Loopback.pair()
    let peer = LoopbackReader(reading: reader)
    let spent = frame.withUnsafeBytes { bytes in
        for _ in 0..<max(1, frames / 10) { _ = Loopback.writeAll(writer, bytes) }
        let start = Spent.now()
        for _ in 0..<frames { _ = Loopback.writeAll(writer, bytes) }
        return Spent.perFrame(since: start, count: frames)
    }
    close(writer)
    peer.waitForEnd()
    return spent
}

/// A plain-WS `WebSocketServer` on a free port with one loopback peer, and the session's binary sealer.
private final class SendPathRig: @unchecked Sendable {  // set up in `start` before any frame is sent
    let server: WebSocketServer
    let peer: LoopbackReader
    let connection: ConnectionID
    /// The viewer's send path: seal in place, queue on the server.
    let mediaSend: MediaSend
    private let directory: URL

    private init(server: WebSocketServer, peer: LoopbackReader, connection: ConnectionID, directory: URL) {
        self.server = server
        self.peer = peer
        self.connection = connection
        self.directory = directory
        let sealer = SecureChannel(sendKey: SecureRandom.bytes(32), receiveKey: SecureRandom.bytes(32)).binarySealer
        mediaSend = sealer.sending(over: server, to: connection)
    }

    static func start() -> SendPathRig? {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("touchdeck-bench-\(getpid())")
        let identity = LocalIdentity(dnsNames: ["localhost"], ipAddresses: ["127.0.0.1"])
        guard let certificates = try? CertificateStore.prepare(in: directory, identity: identity) else { return nil }
        var configuration = ServerConfiguration(certificate: certificates, port: 0)
        configuration.frontDoor = nil
        let opened = DispatchSemaphore(value: 0)
        let id = LockedValue<ConnectionID?>(nil)
        let server = WebSocketServer(
            configuration: configuration,
            handler: WebSocketHandler(opened: { connection, _ in
                id.set(connection)
                opened.signal()
            }))
        guard let port = try? server.start(), let peer = LoopbackReader.webSocket(port: port, path: "/ws"),
            opened.wait(timeout: .now() + 10) == .success, let connection = id.get()
        else { return nil }
        return SendPathRig(server: server, peer: peer, connection: connection, directory: directory)
    }

    /// Sends `frames` copies of `frame` with at most 2 in flight (the screen stream's gate at 60 fps is 2–3),
    /// then closes; returns what one frame cost.
    func run(frame: Data, keyframe: Bool, frames: Int) -> Spent {
        let slots = DispatchSemaphore(value: 2)
        let spent = frame.withUnsafeBytes { packet in
            for _ in 0..<max(1, frames / 10) { send(packet, keyframe: keyframe, slots: slots) }
            let start = Spent.now()
            for _ in 0..<frames { send(packet, keyframe: keyframe, slots: slots) }
            for _ in 0..<2 { slots.wait() }
            let spent = Spent.perFrame(since: start, count: frames)
            for _ in 0..<2 { slots.signal() }
            return spent
        }
        server.stop()
        peer.waitForEnd()
        try? FileManager.default.removeItem(at: directory)
        return spent
    }

    /// One frame as the host sends it: what `CodecSession.encode` and `VideoEncoder.encode` do with the
    /// packet's bytes, then what `ScreenStream.ship` does, through the viewer's `MediaSend`.
    private func send(_ packet: UnsafeRawBufferPointer, keyframe flagged: Bool, slots: DispatchSemaphore) {
        slots.wait()
        let encoded = encoderOutput(packet, flaggedKeyframe: flagged)
        let now = UInt64(Date().timeIntervalSince1970 * 1e6)
        let timing = VideoPacket.Timing(captureMicros: now, sendMicros: now)
        mediaSend((consume encoded).wireMessage(timing: timing)) { slots.signal() }
    }

    private func encoderOutput(_ packet: UnsafeRawBufferPointer, flaggedKeyframe: Bool) -> EncodedFrame {
        var collected: WireBuffer?
        EncodedFrame.collect(packet, into: &collected)
        return EncodedFrame(collected: collected!, flaggedKeyframe: flaggedKeyframe, width: 1920, height: 1080)
    }
}

/// A value handed from the lws thread to the bench's.
private final class LockedValue<T>: @unchecked Sendable {  // `value` is only touched under `lock`
    private let lock = NSLock()
    private var value: T

    init(_ value: T) { self.value = value }

    func set(_ new: T) { lock.withLock { value = new } }
    func get() -> T { lock.withLock { value } }
}
