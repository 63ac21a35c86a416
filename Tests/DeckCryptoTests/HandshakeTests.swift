import DeckKit
import Foundation
import Testing

@testable import DeckCrypto

/// Pairing and authentication end to end at the state-machine level: a device value against `HostHandshake`.
@Suite struct HandshakeTests {
    let t0 = ContinuousClock.now
    let registry = InMemoryDeviceRegistry()

    final class Host {
        var handshake = HostHandshake(hostName: "desk")
        var gate = PairingGate(makePin: { "246810" })
        let registry: InMemoryDeviceRegistry
        let now: PairingGate.Instant

        init(registry: InMemoryDeviceRegistry, now: PairingGate.Instant) {
            self.registry = registry
            self.now = now
        }

        /// Runs one device message; stores paired devices as the shell would; returns what was sent.
        func send(_ message: DeviceMessage, at time: PairingGate.Instant? = nil) -> [HostHandshake.Action] {
            let actions = handshake.receive(message, gate: &gate, registry: registry, now: time ?? now)
            for case .store(let device) in actions { registry.add(device) }
            return actions
        }

        func reply(_ message: DeviceMessage, at time: PairingGate.Instant? = nil) -> HostMessage? {
            send(message, at: time).compactMap { if case .send(let m) = $0 { m } else { nil } }.first
        }
    }

    enum PairResult {
        case paired(DeviceCredentials)
        case failed(HostMessage.PairingFailed)

        func get() throws -> DeviceCredentials {
            guard case .paired(let credentials) = self else { throw DevicePairingError.badMessage }
            return credentials
        }
    }

    func pair(_ host: Host, pin: String) throws -> PairResult {
        var device = try DevicePairing(pin: pin, name: "iPad")
        guard case .pairChallenge(let challenge) = host.reply(.pairStart(device.start)) else {
            Issue.record("no challenge")
            return .failed(HostMessage.PairingFailed(reason: .badMessage))
        }
        switch host.reply(.pairConfirm(try device.receive(challenge))) {
        case .paired(let paired): return .paired(try device.receive(paired))
        case .pairingFailed(let failed): return .failed(failed)
        default: return .failed(HostMessage.PairingFailed(reason: .badMessage))
        }
    }

    func authorize(_ host: Host, _ credentials: DeviceCredentials) throws -> SecureChannel? {
        let device = try DeviceAuth(credentials: credentials)
        guard case .authChallenge(let challenge) = host.reply(.authStart(device.start)) else { return nil }
        var (finish, channel) = try device.receive(challenge)
        let actions = host.send(.authFinish(finish))
        guard actions.contains(.authorized(deviceId: credentials.deviceId)),
            case .send(.secure(let first)) = actions.last
        else { return nil }
        let inner = try HostMessage.decode(try channel.open(first))
        #expect(inner == .authorized(.init(hostName: "desk")))
        return channel
    }

    @Test func unknownDeviceHearsNeedPairingAndAPinIsShown() {
        let host = Host(registry: registry, now: t0)
        let actions = host.send(.hello(.init(name: "iPad")))
        #expect(actions == [.showPin("246810"), .send(.needPairing(.init(hostName: "desk")))])
        #expect(host.reply(.hello(.init(name: "iPad", deviceId: "feedface"))) == .needPairing(.init(hostName: "desk")))
    }

    @Test func pairThenAuthorizeThenTalkSealed() throws {
        let host = Host(registry: registry, now: t0)
        _ = host.send(.hello(.init(name: "iPad")))
        let credentials = try pair(host, pin: "246810").get()
        #expect(credentials.secret.count == 32 && credentials.deviceId.count == 32)
        #expect(registry.secret(forDevice: credentials.deviceId) == credentials.secret)
        #expect(
            host.reply(.hello(.init(name: "iPad", deviceId: credentials.deviceId)))
                == .authRequired(.init(hostName: "desk")))
        var channel = try #require(try authorize(host, credentials))
        let press = DeviceMessage.press(.init(page: 0, index: 3))
        #expect(host.send(.secure(channel.seal(press))) == [.inner(press.encode())])
        let sealed = host.handshake.sealBinary(Data([1, 2]))
        let frame = try #require(sealed)
        #expect(try channel.openBinary(frame) == Data([1, 2]))
    }

    @Test func wrongPinFiveTimesKillsThePin() throws {
        let host = Host(registry: registry, now: t0)
        _ = host.send(.hello(.init(name: "iPad")))
        var remaining: [Int] = []
        for _ in 0..<5 {
            if case .failed(let failed) = try pair(host, pin: "135790"), failed.reason == .wrongPin {
                remaining.append(failed.remaining)
            }
        }
        #expect(remaining == [4, 3, 2, 1, 0])
        let device = try DevicePairing(pin: "246810", name: "iPad")
        #expect(host.reply(.pairStart(device.start)) == .pairingFailed(.init(reason: .noPin, retryAfter: 30)))
        #expect(registry.all.isEmpty)
    }

    @Test func expiredPinIsRefused() throws {
        let host = Host(registry: registry, now: t0)
        _ = host.send(.hello(.init(name: "iPad")))
        let device = try DevicePairing(pin: "246810", name: "iPad")
        #expect(host.reply(.pairStart(device.start), at: t0 + .seconds(301)) == .pairingFailed(.init(reason: .expired)))
    }

    @Test func revokedDeviceMustPairAgain() throws {
        let host = Host(registry: registry, now: t0)
        _ = host.send(.hello(.init(name: "iPad")))
        let credentials = try pair(host, pin: "246810").get()
        #expect(registry.revoke(deviceId: credentials.deviceId))
        #expect(
            host.reply(.hello(.init(name: "iPad", deviceId: credentials.deviceId)))
                == .needPairing(.init(hostName: "desk")))
        let device = try DeviceAuth(credentials: credentials)
        #expect(host.reply(.authStart(device.start)) == .unauthorized(.init(reason: .unknownDevice)))
    }

    @Test func hostWithoutTheSecretIsRefusedByTheDevice() throws {
        let host = Host(registry: registry, now: t0)
        let real = DeviceCredentials(deviceId: "ab", secret: SecureRandom.bytes(32))
        registry.add(PairedDevice(deviceId: "ab", name: "x", secret: SecureRandom.bytes(32)))
        let device = try DeviceAuth(credentials: real)
        guard case .authChallenge(let challenge) = host.reply(.authStart(device.start)) else {
            Issue.record("no challenge")
            return
        }
        #expect(throws: DeviceAuthError.badHostProof) { try device.receive(challenge) }
    }

    @Test func wrongDeviceProofIsRefusedAndClosed() throws {
        let host = Host(registry: registry, now: t0)
        registry.add(PairedDevice(deviceId: "ab", name: "x", secret: SecureRandom.bytes(32)))
        let device = try DeviceAuth(credentials: DeviceCredentials(deviceId: "ab", secret: SecureRandom.bytes(32)))
        _ = host.send(.authStart(device.start))
        let forged = DeviceMessage.AuthFinish(proof: SecureRandom.bytes(32).base64EncodedString())
        #expect(host.send(.authFinish(forged)) == [.send(.unauthorized(.init(reason: .badProof))), .close])
    }

    @Test func pairingMessageAfterAuthorizationIsRefused() throws {
        let host = Host(registry: registry, now: t0)
        _ = host.send(.hello(.init(name: "iPad")))
        let credentials = try pair(host, pin: "246810").get()
        _ = try #require(try authorize(host, credentials))
        let device = try DevicePairing(pin: "246810", name: "iPad")
        let mustBeSealed = HostHandshake.Action.send(
            .error(.init(code: .mustBeSealed, message: "send messages sealed")))
        #expect(host.send(.pairStart(device.start)) == [mustBeSealed])
        #expect(host.send(.press(.init(page: 0, index: 0))) == [mustBeSealed])
        #expect(host.send(.authStart(try DeviceAuth(credentials: credentials).start)) == [mustBeSealed])
    }

    @Test func requestsBeforeAuthorizationAreUnauthorized() {
        let host = Host(registry: registry, now: t0)
        #expect(host.reply(.press(.init(page: 0, index: 0))) == .unauthorized(.init(reason: .notAuthorized)))
        #expect(host.reply(.secure(.init(seq: 1, box: "AAAA"))) == .unauthorized(.init(reason: .notAuthorized)))
    }

    @Test func garbageAndTruncatedHandshakeMessagesGetClearErrors() throws {
        let host = Host(registry: registry, now: t0)
        _ = host.send(.hello(.init(name: "iPad")))
        let real = try DevicePairing(pin: "246810", name: "iPad").start.pA
        let bad = HostMessage.pairingFailed(.init(reason: .badMessage))
        for pA in ["", "!!!", String(real.prefix(40)), Data(repeating: 4, count: 65).base64EncodedString()] {
            #expect(host.reply(.pairStart(.init(name: "x", pA: pA))) == bad)
        }
        #expect(host.reply(.pairConfirm(.init(cA: "AAAA"))) == bad)
        registry.add(PairedDevice(deviceId: "ab", name: "x", secret: SecureRandom.bytes(32)))
        guard case .error(let error) = host.reply(.authStart(.init(deviceId: "ab", eA: "garbage"))) else {
            Issue.record("no error for a bad eA")
            return
        }
        #expect(error.code == .badMessage)
        #expect(host.reply(.authFinish(.init(proof: "x"))) == .unauthorized(.init(reason: .notAuthorized)))
    }

    @Test func devicePairingRefusesAForgedPairedMessage() throws {
        let host = Host(registry: registry, now: t0)
        _ = host.send(.hello(.init(name: "iPad")))
        var device = try DevicePairing(pin: "246810", name: "iPad")
        guard case .pairChallenge(let challenge) = host.reply(.pairStart(device.start)) else { return }
        _ = try device.receive(challenge)
        let forged = HostMessage.Paired(deviceId: "ab", cB: SecureRandom.bytes(32).base64EncodedString(), box: "")
        #expect(throws: DevicePairingError.hostNotConfirmed) { try device.receive(forged) }
        #expect(throws: DevicePairingError.badMessage) { try device.receive(HostMessage.PairChallenge(pB: "AAAA")) }
    }

    @Test func repliesNeverCarryThePinOrSecrets() throws {
        let host = Host(registry: registry, now: t0)
        var wire: [Data] = []
        let pin = "246810"
        for action in host.send(.hello(.init(name: "iPad"))) {
            if case .send(let m) = action { wire.append(m.encode()) }
        }
        for _ in 0..<2 { _ = try pair(host, pin: "111111") }
        var device = try DevicePairing(pin: pin, name: "iPad")
        guard case .pairChallenge(let challenge) = host.reply(.pairStart(device.start)) else { return }
        let actions = host.send(.pairConfirm(try device.receive(challenge)))
        for case .send(let m) in actions { wire.append(m.encode()) }
        let secret = try #require(registry.all.first?.secret)
        for bytes in wire {
            #expect(bytes.range(of: Data(pin.utf8)) == nil)
            #expect(bytes.range(of: Data(secret.base64EncodedString().utf8)) == nil)
        }
        for error in [SealError.badSeal, .replayed, .malformed] {
            #expect(!error.wireMessage.contains(pin))
        }
    }
}
