import Foundation

// The first byte picks what the rest is: a sealed text box, a sealed binary message, SEC1 point bytes, or the
// fields of pairStart/authStart. Properties: no trap; nothing opens that was not sealed with the key (the
// key is fixed, so only a forged tag could open, which libFuzzer will not find); points decode on the curve.

private let key = Data(repeating: 0x11, count: 32)
private let secret = Data(repeating: 5, count: 32)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let data = Data(bytes: bytes + 1, count: count - 1)
    var channel = SecureChannel(sendKey: key, receiveKey: key)
    switch bytes[0] % 5 {
    case 0:
        let seq = data.prefix(8).reduce(into: UInt64(0)) { value, byte in value = value << 8 | UInt64(byte) }
        let envelope = SecureEnvelope(seq: seq, box: data.dropFirst(8).base64EncodedString())
        precondition((try? channel.open(envelope)) == nil, "a box opened that nobody sealed")
    case 1:
        precondition((try? channel.openBinary(data)) == nil, "a frame opened that nobody sealed")
    case 2:
        if let point = try? P256Point(decoding: data) {
            precondition(point.isOnCurve && !point.isInfinity)
            _ = try? point.uncompressed()
        }
    case 3:
        var gate = PairingGate(makePin: { "246810" })
        _ = gate.issuePin(now: .now)
        var pairing = HostPairing()
        let text = String(decoding: data, as: UTF8.self)
        _ = pairing.receive(DeviceMessage.PairStart(name: text, pA: data.base64EncodedString()), gate: &gate, now: .now)
        if case .paired = pairing.receive(DeviceMessage.PairConfirm(cA: text), gate: &gate, now: .now) {
            preconditionFailure("paired without the PIN")
        }
    default:
        var auth = HostAuth()
        _ = auth.receive(DeviceMessage.AuthStart(deviceId: "d", eA: data.base64EncodedString()), secret: secret)
        if case .authorized = auth.receive(DeviceMessage.AuthFinish(proof: data.base64EncodedString())) {
            preconditionFailure("authorized without the proof")
        }
    }
    return 0
}
