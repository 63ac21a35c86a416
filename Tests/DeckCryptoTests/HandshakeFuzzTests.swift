import DeckKit
import Foundation
import Testing

@testable import DeckCrypto

/// Pairing and authentication with base64 fields a peer chose, and the PIN gate under any clock.
@Suite struct HandshakeFuzzTests {
    static let pin = "246810"

    /// The field's text mutated as bytes, as decoded bytes, or replaced by a random blob; unchanged sometimes.
    static func mutated(_ field: String, _ rng: inout FuzzRNG) -> String {
        switch rng.below(5) {
        case 0: return String(decoding: ByteMutator.mutate(Data(field.utf8), rng: &rng), as: UTF8.self)
        case 1: return ByteMutator.mutate(Data(base64Encoded: field) ?? Data(), rng: &rng).base64EncodedString()
        case 2: return String(decoding: JSONMutator.randomValue(&rng).dropFirst().dropLast(), as: UTF8.self)
        default: return field
        }
    }

    /// Same bytes after base64 decoding (a mutation may land on a different spelling of the same bytes).
    static func same(_ a: String, _ b: String) -> Bool {
        Data(base64Encoded: a) != nil && Data(base64Encoded: a) == Data(base64Encoded: b)
    }

    @Test func onlyTheGenuineConfirmationPairs() throws {
        var rng = FuzzRNG(seed: 0x5EED_0701)
        var gate = PairingGate(makePin: { Self.pin })
        let now = ContinuousClock.now
        var paired = 0
        for i in 0..<1000 {
            _ = gate.issuePin(now: now)
            let rightPin = rng.chance(85)
            var device = try DevicePairing(pin: rightPin ? Self.pin : "135790", name: "iPad")
            let name = rng.chance(50) ? device.start.name : TextFuzz.randomName(&rng)
            let start = DeviceMessage.PairStart(name: name, pA: Self.mutated(device.start.pA, &rng))
            var host = HostPairing()
            guard case .pairChallenge(let challenge) = host.receive(start, gate: &gate, now: now) else { continue }
            let genuine = (try? device.receive(challenge))?.cA ?? ""
            let confirm = DeviceMessage.PairConfirm(cA: Self.mutated(genuine, &rng))
            let outcome = host.receive(confirm, gate: &gate, now: now)
            let shouldPair = rightPin && Self.same(start.pA, device.start.pA) && Self.same(confirm.cA, genuine)
            guard case .paired(let record, let reply) = outcome, case .paired(let message) = reply else {
                #expect(!shouldPair, "#\(i): the genuine exchange was refused")
                continue
            }
            #expect(shouldPair, "#\(i): paired without the genuine confirmation")
            #expect(record.name.count <= 64 && (try? device.receive(message))?.secret == record.secret, "#\(i)")
            paired += 1
        }
        #expect(paired > 100)
    }

    @Test func onlyTheGenuineProofAuthorizes() throws {
        var rng = FuzzRNG(seed: 0x5EED_0702)
        let credentials = DeviceCredentials(
            deviceId: "0f1e2d3c4b5a69788796a5b4c3d2e1f0", secret: Data(repeating: 5, count: 32))
        var authorized = 0
        for i in 0..<1000 {
            let device = try DeviceAuth(credentials: credentials)
            let id = rng.chance(85) ? credentials.deviceId : TextFuzz.randomName(&rng)
            let start = DeviceMessage.AuthStart(deviceId: id, eA: Self.mutated(device.start.eA, &rng))
            let secret = rng.chance(85) ? credentials.secret : rng.pick([nil, Data(), Data(repeating: 6, count: 32)])
            var host = HostAuth()
            guard case .authChallenge(var challenge) = host.receive(start, secret: secret) else { continue }
            let hostGenuine =
                id == credentials.deviceId && secret == credentials.secret && Self.same(start.eA, device.start.eA)
            if rng.chance(20) { challenge.proof = Self.mutated(challenge.proof, &rng) }
            let answer = try? device.receive(challenge)
            // The device must not accept a host that does not hold its secret, nor a tampered proof.
            #expect(answer == nil || hostGenuine, "#\(i): the device accepted a host without the secret")
            let genuine = answer?.finish.proof ?? ""
            let finish = DeviceMessage.AuthFinish(proof: Self.mutated(genuine, &rng))
            guard case .authorized(let deviceId, _) = host.receive(finish) else {
                #expect(!(answer != nil && Self.same(finish.proof, genuine)), "#\(i): the genuine proof was refused")
                continue
            }
            #expect(answer != nil && Self.same(finish.proof, genuine) && deviceId == credentials.deviceId, "#\(i)")
            authorized += 1
        }
        #expect(authorized > 100)
    }

    @Test func gateTakesAnyOrderOfAnyInstants() {
        var rng = FuzzRNG(seed: 0x5EED_0703)
        let base = ContinuousClock.now
        let offsets: [Duration] = [
            .zero, .seconds(1), .seconds(-1), .seconds(299), .seconds(300), .seconds(3600), .seconds(Int64.max),
            .seconds(Int64.min), .nanoseconds(Int64.max), .nanoseconds(1), .nanoseconds(-1), .seconds(-86_400 * 365),
        ]
        for _ in 0..<200 {
            var gate = PairingGate(makePin: { Self.pin })
            for i in 0..<60 {
                let now = base + rng.pick(offsets) + (rng.chance(50) ? rng.pick(offsets) : .zero)
                switch rng.below(5) {
                case 0:
                    if case .backingOff(let after) = gate.requestPin(now: now) {
                        #expect(after > 0 && after <= 3600, "#\(i)")
                    }
                case 1: _ = gate.issuePin(now: now)
                case 2: _ = gate.currentPin(now: now)
                default:
                    guard case .success(let ticket) = gate.ticket(now: now) else { continue }
                    if case .noPin(let after?) = gate.settle(ticket, correct: rng.chance(20), now: now) {
                        #expect(after > 0 && after <= 3600, "#\(i)")
                    }
                }
            }
        }
    }

    /// The exact sequence that trapped: a PIN killed at a far-future instant, then asked about at a
    /// far-past one; the back-off left (≈ 2^64 s) did not fit `Duration.components`' Int64 seconds.
    @Test func backOffSeenFromTheFarPastDoesNotTrap() {
        var gate = PairingGate(makePin: { Self.pin })
        let base = ContinuousClock.now
        let future = base + .seconds(Int64.max)
        _ = gate.issuePin(now: future)
        for _ in 0..<PairingGate.triesPerPin {
            guard case .success(let ticket) = gate.ticket(now: future) else { break }
            _ = gate.settle(ticket, correct: false, now: future)
        }
        #expect(gate.requestPin(now: base - .seconds(Int64.max)) == .backingOff(retryAfter: 3600))
    }
}

/// Random device names and ids.
enum TextFuzz {
    static func randomName(_ rng: inout FuzzRNG) -> String {
        let pieces = ["iPad", "", " ", "\n", "\u{0}", "\u{7F}", "\u{9B}", "é", "👍🏽", "\u{202E}", "ㄱ", "a"]
        return (0..<rng.below(120)).map { _ in rng.pick(pieces) }.joined()
    }
}
