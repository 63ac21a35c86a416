import DeckKit
import Foundation

/// The host's side of pairing on one connection (PROTOCOL.md §3), as a value that returns what to send.
///
/// The PIN rules live in the shared `PairingGate`, passed in per call; storing the new device is left to
/// the caller (the `.paired` outcome carries it).
public struct HostPairing: Sendable {
    /// What the caller does after a `pairConfirm`.
    public enum Outcome: Sendable {
        /// Send this (`pairingFailed`).
        case reply(HostMessage)
        /// Store `device`, then send `reply` (`paired`).
        case paired(PairedDevice, reply: HostMessage)
    }

    private struct Challenged: Sendable {
        var keys: Spake2.Keys
        var ticket: PairingGate.Ticket
        var name: String
    }

    private var challenged: Challenged?

    public init() {}

    /// Answers `pairStart` with `pairChallenge`, or `pairingFailed` when `pA` is not a point or no PIN is live.
    ///
    /// `pA` is checked before the gate, so that answer depends on `pA` alone (never on the PIN or the gate) and
    /// costs no try. Every other `pairStart` spends a try, and a right-PIN `pA = w·M` is answered like any guess.
    public mutating func receive(
        _ start: DeviceMessage.PairStart, gate: inout PairingGate, now: PairingGate.Instant
    ) -> HostMessage {
        challenged = nil
        guard let pA = PairingKeys.point(base64: start.pA), (try? P256Point(decoding: pA)) != nil else {
            return .pairingFailed(.init(reason: .badMessage))
        }
        let ticket: PairingGate.Ticket
        switch gate.ticket(now: now) {
        case .failure(let refusal): return .pairingFailed(Self.failure(refusal))
        case .success(let granted): ticket = granted
        }
        // With a point on the curve this fails only if libcrypto does; the try stays spent either way.
        guard let host = try? PairingKeys.party(.b, pin: ticket.pin), let keys = try? host.finish(peerShare: pA) else {
            return .pairingFailed(.init(reason: .badMessage))
        }
        challenged = Challenged(keys: keys, ticket: ticket, name: DisplayName.clean(start.name))
        return .pairChallenge(.init(pB: host.share.base64EncodedString()))
    }

    /// Checks `cA`. Right → a new device and `paired`; wrong → `pairingFailed{wrongPin, remaining}`.
    public mutating func receive(
        _ confirm: DeviceMessage.PairConfirm, gate: inout PairingGate, now: PairingGate.Instant
    ) -> Outcome {
        guard let current = challenged else { return .reply(.pairingFailed(.init(reason: .badMessage))) }
        // One confirmation per challenge: a retry must start over, so each guess costs a full exchange.
        challenged = nil
        guard let cA = Data(base64Encoded: confirm.cA), cA.count == 32 else {
            return .reply(.pairingFailed(.init(reason: .badMessage)))
        }
        let correct = Bytes.constantTimeEqual(cA, current.keys.cA)
        if let refusal = gate.settle(current.ticket, correct: correct, now: now) {
            return .reply(.pairingFailed(Self.failure(refusal)))
        }
        let device = PairedDevice(
            deviceId: Bytes.hex(SecureRandom.bytes(16)), name: current.name, secret: SecureRandom.bytes(32))
        guard let reply = try? Self.paired(device, keys: current.keys) else {
            return .reply(.pairingFailed(.init(reason: .badMessage)))
        }
        return .paired(device, reply: reply)
    }

    private static func paired(_ device: PairedDevice, keys: Spake2.Keys) throws -> HostMessage {
        let box = try ChaChaPoly.sealBox(
            device.secret, key: PairingKeys.boxKey(ke: keys.ke), ad: Data(device.deviceId.utf8))
        return .paired(
            .init(deviceId: device.deviceId, cB: keys.cB.base64EncodedString(), box: box.base64EncodedString()))
    }

    static func failure(_ refusal: PairingGate.Refusal) -> HostMessage.PairingFailed {
        switch refusal {
        case .noPin(let retryAfter): .init(reason: .noPin, remaining: 0, retryAfter: retryAfter)
        case .expired: .init(reason: .expired)
        case .wrongPin(let remaining): .init(reason: .wrongPin, remaining: remaining)
        }
    }
}
