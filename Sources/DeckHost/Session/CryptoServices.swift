import DeckCrypto
import DeckKit
import DeckLog
import Foundation

extension SecureChannel: SealedChannel {
    public var mediaSealer: any MediaSealing { binarySealer }
}

extension BinarySealer: MediaSealing {}

/// The live `SessionServices`: DeckCrypto's SPAKE2 and authentication, the shared PIN gate and the
/// paired devices. Owned by the host's actor; not thread-safe.
public final class CryptoServices: SessionServices {
    public let hostName: String
    private(set) var gate: PairingGate
    private let devices: DeviceBook
    private let clock: @Sendable () -> ContinuousClock.Instant
    private let backoffFile: PairingBackoffFile?
    private let pinIssued: (_ pin: String, _ deviceName: String, _ requests: Int) -> Void
    /// Requests since the last PIN a request brought up (told with the next one: "3 requests").
    private var requestsSinceNotice = 0
    private let log: Logger

    /// Services over `devices`. With a `backoffFile`, the gate starts from the back-off saved there and every
    /// change to it is saved, so a restart does not lift it.
    public init(
        hostName: String, devices: DeviceBook, gate: PairingGate = PairingGate(),
        backoffFile: PairingBackoffFile? = nil,
        clock: @escaping @Sendable () -> ContinuousClock.Instant, log: Logger,
        pinIssued: @escaping (_ pin: String, _ deviceName: String, _ requests: Int) -> Void
    ) {
        self.hostName = hostName
        self.devices = devices
        self.gate = gate
        self.backoffFile = backoffFile
        self.clock = clock
        self.log = log
        self.pinIssued = pinIssued
        if let saved = backoffFile?.load(log: log) { self.gate.restore(saved) }
    }

    /// `touchdeck pair`: a new PIN regardless of the back-off.
    func issuePin() -> String { gate.issuePin(now: clock()) }

    public func isPaired(_ deviceId: String) -> Bool { devices.record(id: deviceId) != nil }

    /// A device asked to pair. Only a request that brings up a PIN shows a notification on the computer, and
    /// that one says how many asked since the last; while a PIN is live or the back-off holds, requests are
    /// counted, not shown.
    public func pairingWanted(by name: String) {
        requestsSinceNotice += 1
        let request = watchingBackoff(peer: "") { gate, now in gate.requestPin(now: now) }
        switch request {
        case .issued(let pin):
            pinIssued(pin, name, requestsSinceNotice)
            requestsSinceNotice = 0
        case .alreadyLive: break
        case .backingOff(let seconds):
            log.notice(
                "a device asked to pair during the PIN back-off", ["device.name": name, "retry.after": "\(seconds)"])
        }
    }

    public func beginPairing(_ start: DeviceMessage.PairStart, peer: String)
        -> HandshakeStep<HostMessage.PairChallenge, HostPairing>
    {
        var pairing = HostPairing()
        let reply = watchingBackoff(peer: peer) { gate, now in pairing.receive(start, gate: &gate, now: now) }
        if case .pairChallenge(let challenge) = reply { return .next(challenge, pairing) }
        return .refused(reply)
    }

    public func finishPairing(_ state: HostPairing, _ confirm: DeviceMessage.PairConfirm, name: String, peer: String)
        -> HandshakeStep<HostMessage.Paired, DeviceRecord>
    {
        var pairing = state
        let outcome = watchingBackoff(peer: peer) { gate, now in pairing.receive(confirm, gate: &gate, now: now) }
        switch outcome {
        case .reply(let refusal):
            if case .pairingFailed(let failed) = refusal, failed.reason == .wrongPin {
                // The address and the tries left, never the PIN or the guess.
                log.warning(
                    "wrong PIN", ["peer.address": peer, "device.name": name, "pin.remaining": "\(failed.remaining)"])
            }
            return .refused(refusal)
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
        case .authorized(let deviceId, let channel):
            // Looked up again: the device may have been revoked since its authStart, and its proof was made
            // with a secret the host no longer keeps.
            guard devices.record(id: deviceId) != nil else {
                return .refused(.unauthorized(.init(reason: .unknownDevice)))
            }
            return .next((), channel)
        case .refuse(let refusal), .reply(let refusal): return .refused(refusal)
        }
    }

    /// Runs one gate step; when it changed the back-off (a PIN died, or a pairing succeeded) saves it, and logs
    /// a death with the address of the peer whose message caused it.
    private func watchingBackoff<T>(peer: String, _ step: (inout PairingGate, ContinuousClock.Instant) -> T) -> T {
        let before = gate.backoff
        let now = clock()
        let result = step(&gate, now)
        let after = gate.backoff
        guard after != before else { return result }
        if after.deadPins > before.deadPins {
            let wait = after.blockedUntil.map { ($0 - now).components.seconds } ?? 0
            log.warning(
                "PIN dead (all its tries spent, or it expired unused after a request); pairing is blocked for a while",
                ["peer.address": peer, "pin.dead.count": "\(after.deadPins)", "retry.after": "\(wait)"])
        }
        do {
            try backoffFile?.save(after)
        } catch {
            log.error("could not save the pairing back-off: \(error)")
        }
        return result
    }
}
