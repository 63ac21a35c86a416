import DeckCrypto
import DeckKit
import Foundation

extension SecureChannel: SealedChannel {}

/// The live `SessionServices`: DeckCrypto's SPAKE2 and authentication, the shared PIN gate and the
/// paired devices. Owned by the host's actor; not thread-safe.
public final class CryptoServices: SessionServices {
    public let hostName: String
    private(set) var gate: PairingGate
    private let devices: DeviceBook
    private let clock: @Sendable () -> ContinuousClock.Instant
    private let pinIssued: (_ pin: String, _ deviceName: String) -> Void
    private let log: Logger

    public init(
        hostName: String, devices: DeviceBook, gate: PairingGate = PairingGate(),
        clock: @escaping @Sendable () -> ContinuousClock.Instant, log: Logger,
        pinIssued: @escaping (_ pin: String, _ deviceName: String) -> Void
    ) {
        self.hostName = hostName
        self.devices = devices
        self.gate = gate
        self.clock = clock
        self.log = log
        self.pinIssued = pinIssued
    }

    /// `touchdeck pair`: a new PIN regardless of the back-off.
    func issuePin() -> String { gate.issuePin(now: clock()) }

    public func isPaired(_ deviceId: String) -> Bool { devices.record(id: deviceId) != nil }

    public func pairingWanted(by name: String) {
        switch gate.requestPin(now: clock()) {
        case .issued(let pin): pinIssued(pin, name)
        case .alreadyLive: break
        case .backingOff(let seconds):
            log.notice(
                "a device asked to pair during the PIN back-off", ["device.name": name, "retry.after": "\(seconds)"])
        }
    }

    public func beginPairing(_ start: DeviceMessage.PairStart)
        -> HandshakeStep<HostMessage.PairChallenge, HostPairing>
    {
        var pairing = HostPairing()
        let reply = pairing.receive(start, gate: &gate, now: clock())
        if case .pairChallenge(let challenge) = reply { return .next(challenge, pairing) }
        return .refused(reply)
    }

    public func finishPairing(_ state: HostPairing, _ confirm: DeviceMessage.PairConfirm, name: String)
        -> HandshakeStep<HostMessage.Paired, DeviceRecord>
    {
        var pairing = state
        switch pairing.receive(confirm, gate: &gate, now: clock()) {
        case .reply(let refusal): return .refused(refusal)
        case .paired(let device, let reply):
            guard case .paired(let paired) = reply else { return .refused(reply) }
            let shown = name.isEmpty ? device.name : name
            return .next(paired, DeviceRecord(id: device.deviceId, name: shown, secret: device.secret))
        }
    }

    public func beginAuth(_ start: DeviceMessage.AuthStart) -> HandshakeStep<HostMessage.AuthChallenge, HostAuth> {
        var auth = HostAuth()
        let reply = auth.receive(start, secret: devices.record(id: start.deviceId)?.secret)
        if case .authChallenge(let challenge) = reply { return .next(challenge, auth) }
        return .refused(reply)
    }

    public func finishAuth(_ state: HostAuth, _ finish: DeviceMessage.AuthFinish)
        -> HandshakeStep<Void, SecureChannel>
    {
        var auth = state
        switch auth.receive(finish) {
        case .authorized(_, let channel): return .next((), channel)
        case .refuse(let refusal), .reply(let refusal): return .refused(refusal)
        }
    }
}
