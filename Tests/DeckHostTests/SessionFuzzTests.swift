import DeckCrypto
import DeckDesktop
import DeckKit
import Foundation
import Testing

@testable import DeckHost

/// The daemon's real session code (`SessionMachine<CryptoServices>`) fed seeded sequences of replayed,
/// mutated and reordered messages in every stage. Properties: no trap; no pairing or authorization
/// without the genuine confirmation or proof; after authorization every reply is sealed, and only what
/// the device sealed becomes a request.
@Suite struct SessionFuzzTests {
    static let fixtures: [String] = {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/messages").standardizedFileURL
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().compactMap {
            try? String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8)
        }
    }()
    // Sorted: dictionary order changes from run to run, and the seed must pick the same types every time.
    static let types = DeviceMessage.readers.keys.sorted()

    /// A flood guard that never trips, so long sequences reach every stage (one in five sessions keeps
    /// the real one, so closing for a flood is fuzzed too).
    static func session(_ rng: inout FuzzRNG) -> SessionMachine<CryptoServices> {
        rng.chance(20) ? SessionMachine() : SessionMachine(flood: FloodGuard(burst: 1e9, perSecond: 0, total: .max))
    }

    /// A message of `pool`, as it was, mutated as JSON, or mutated as bytes (decoded as the transport does).
    static func garbage(from pool: [String], _ rng: inout FuzzRNG) -> String {
        let text = rng.pick(pool)
        switch rng.below(4) {
        case 0: return text
        case 1: return String(decoding: ByteMutator.mutate(Data(text.utf8), rng: &rng), as: UTF8.self)
        default:
            guard let tree = try? JSONTree(parsing: Data(text.utf8)) else { return text }
            return String(decoding: JSONMutator.mutate(tree, rng: &rng, types: types).bytes, as: UTF8.self)
        }
    }

    /// What a device sent on one connection: hello, pairing, a second hello, authentication, sealed requests.
    static func transcript(on host: CryptoSession) throws -> (texts: [String], channel: SecureChannel) {
        var device = Device(host: host)
        device.say(.hello(.init(name: "iPad")))
        let credentials = try device.pair()
        device.say(.hello(.init(name: "iPad", deviceId: credentials.deviceId)))
        var channel = try #require(try device.authorize(credentials))
        for message in [DeviceMessage.press(.init(page: 0, index: 0)), .listApps(.init()), .hello(.init(name: "x"))] {
            device.say(.secure(channel.seal(message)))
        }
        return (device.said, channel)
    }

    /// A genuine device driving `host` with DeckCrypto's device side, keeping every text it sent.
    struct Device {
        let host: CryptoSession
        /// Runs before each message the device sends: another peer's noise on the same connection.
        let interject: () -> Void
        private(set) var said: [String] = []

        init(host: CryptoSession, interject: @escaping () -> Void = {}) {
            self.host = host
            self.interject = interject
        }

        /// Sends one message; returns the actions and what a device would read.
        @discardableResult
        mutating func say(_ message: DeviceMessage) -> (actions: [SessionAction], replies: [HostMessage]) {
            interject()
            let text = String(decoding: message.encode(), as: UTF8.self)
            said.append(text)
            let before = host.wire.count
            let actions = host.sendText(text)
            return (actions, host.wire.dropFirst(before).compactMap { try? HostMessage.decode($0) })
        }

        mutating func pair() throws -> DeviceCredentials {
            var pairing = try DevicePairing(pin: CryptoSession.pin, name: "iPad")
            guard case .pairChallenge(let challenge)? = say(.pairStart(pairing.start)).replies.first,
                case .paired(let paired)? = say(.pairConfirm(try pairing.receive(challenge))).replies.first
            else { throw DevicePairingError.badMessage }
            return try pairing.receive(paired)
        }

        /// The device's channel once the sealed `authorized` opened on it, else nil.
        mutating func authorize(_ credentials: DeviceCredentials) throws -> SecureChannel? {
            let auth = try DeviceAuth(credentials: credentials)
            guard case .authChallenge(let challenge)? = say(.authStart(auth.start)).replies.first else { return nil }
            var (finish, channel) = try auth.receive(challenge)
            guard case .secure(let first)? = say(.authFinish(finish)).replies.first,
                case .authorized = try HostMessage.decode(try channel.open(first))
            else { return nil }
            return channel
        }
    }

    @Test func noProofNoAuthorizationWhateverArrivesInWhateverOrder() throws {
        var rng = FuzzRNG(seed: 0x5EED_0801)
        let host = try CryptoSession()
        let (texts, _) = try Self.transcript(on: host)
        let pool = texts + Self.fixtures
        var actionCount = 0
        for i in 0..<250 {
            host.session = Self.session(&rng)
            for j in 0..<30 {
                let actions = rng.chance(2) ? host.sendBinary().actions : host.sendText(Self.garbage(from: pool, &rng))
                actionCount += actions.count
                for action in actions {
                    switch action {
                    case .authorized, .paired, .request: Issue.record("#\(i).\(j): \(action) without a proof")
                    default: break
                    }
                }
            }
            #expect(host.session.authorizedDevice == nil, "#\(i)")
        }
        #expect(actionCount > 3000)
    }
}

/// A generator shared by closures.
final class RNGBox {
    var rng: FuzzRNG
    init(seed: UInt64) { rng = FuzzRNG(seed: seed) }
}

/// The genuine handshake with noise between its steps, and an authorized session under fire.
@Suite struct SessionStageFuzzTests {
    /// Replays from another host's transcript plus the fixtures, mutated.
    static let pool: [String] = {
        guard let other = try? CryptoSession(), let (texts, _) = try? SessionFuzzTests.transcript(on: other) else {
            return []
        }
        return texts + SessionFuzzTests.fixtures
    }()

    @Test func noiseBetweenHandshakeStepsNeverAuthorizesAnyoneElse() throws {
        let box = RNGBox(seed: 0x5EED_0802)
        var succeeded = 0
        #expect(Self.pool.count > 40)
        for i in 0..<150 {
            let host = try CryptoSession()
            host.session = SessionFuzzTests.session(&box.rng)
            var device = SessionFuzzTests.Device(host: host) {
                for _ in 0..<(box.rng.chance(60) ? 1 + box.rng.below(3) : 0) {
                    let actions = host.sendText(SessionFuzzTests.garbage(from: Self.pool, &box.rng))
                    #expect(!actions.contains { Self.grants($0) }, "#\(i): noise was granted \(actions)")
                }
            }
            device.say(.hello(.init(name: "iPad")))
            guard let credentials = try? device.pair() else { continue }
            guard (try? device.authorize(credentials)) != nil else { continue }
            #expect(host.session.authorizedDevice == credentials.deviceId, "#\(i)")
            succeeded += 1
        }
        print("fuzz: \(succeeded) of 150 noisy handshakes authorized")
        #expect(succeeded > 20)
    }

    static func grants(_ action: SessionAction) -> Bool {
        switch action {
        case .authorized, .paired, .request: true
        default: false
        }
    }
}
