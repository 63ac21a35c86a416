import DeckCrypto
import DeckDesktop
import DeckKit
import Foundation
import Testing

@testable import DeckHost

/// Pairing and authentication end to end through the daemon's session code with real crypto: DeckCrypto's
/// device side against `SessionMachine<CryptoServices>` and a `DeviceBook` on disk.
@Suite struct SessionCryptoTests {
    let pin = CryptoSession.pin
    let needPairing = HostMessage.needPairing(.init(hostName: "desk"))

    @Test func unknownDeviceHearsNeedPairingAndThePinIsShownOnce() throws {
        let host = try CryptoSession()
        #expect(host.replies(.hello(.init(name: "iPad"))) == [needPairing])
        #expect(host.replies(.hello(.init(name: "iPad", deviceId: "feedface"))) == [needPairing])
        #expect(host.pins.shown.map(\.pin) == [pin])
        #expect(host.pins.shown.map(\.device) == ["iPad"])
    }

    @Test func aStrangerAskingAgainAndAgainIsShownAPinOncePerBackOffWithTheCount() throws {
        let host = try CryptoSession()
        host.send(.hello(.init(name: "Stranger")))
        // The PIN expires unused; asking again during the back-off shows nothing, however often.
        host.clock.advance(PairingGate.pinLifetime + .seconds(1))
        for _ in 0..<5 { host.send(.hello(.init(name: "Stranger"))) }
        #expect(host.pins.shown.count == 1)
        host.clock.advance(.seconds(30))
        host.send(.hello(.init(name: "Stranger")))
        #expect(host.pins.shown.count == 2)
        #expect(host.pins.requests == [1, 6])
    }

    @Test func pairThenAuthorizeThenTalkSealed() throws {
        let host = try CryptoSession()
        host.send(.hello(.init(name: "iPad")))
        let credentials = try host.pair(pin: pin).get()
        #expect(credentials.secret.count == 32 && credentials.deviceId.count == 32)
        #expect(host.devices.record(id: credentials.deviceId)?.secret == credentials.secret)
        #expect(host.devices.record(id: credentials.deviceId)?.name == "iPad")
        #expect(
            host.replies(.hello(.init(name: "iPad", deviceId: credentials.deviceId)))
                == [.authRequired(.init(hostName: "desk"))])
        var channel = try #require(try host.authorize(credentials))
        #expect(host.session.authorizedDevice == credentials.deviceId)
        let press = DeviceMessage.press(.init(page: 0, index: 3))
        #expect(host.send(.secure(channel.seal(press))) == [.request(press)])
        let sealed = host.session.sealBinary(Data([1, 2]))
        let frame = try #require(sealed)
        #expect(try channel.openBinary(frame) == Data([1, 2]))
    }

    @Test func wrongPinFiveTimesKillsThePin() throws {
        let host = try CryptoSession()
        host.send(.hello(.init(name: "iPad")))
        var remaining: [Int] = []
        for _ in 0..<5 {
            if case .failed(let failed) = try host.pair(pin: "135790"), failed.reason == .wrongPin {
                remaining.append(failed.remaining)
            }
        }
        #expect(remaining == [4, 3, 2, 1, 0])
        let device = try DevicePairing(pin: pin, name: "iPad")
        #expect(host.reply(.pairStart(device.start)) == .pairingFailed(.init(reason: .noPin, retryAfter: 30)))
        #expect(host.devices.records.isEmpty)
    }

    @Test func theRightPinStillPairsAfterFewerThanFiveMistakes() throws {
        let host = try CryptoSession()
        host.send(.hello(.init(name: "iPad")))
        for _ in 0..<4 { _ = try host.pair(pin: "135790") }
        let credentials = try host.pair(pin: pin).get()
        #expect(try host.authorize(credentials) != nil)
    }

    @Test func expiredPinIsRefused() throws {
        let host = try CryptoSession()
        host.send(.hello(.init(name: "iPad")))
        host.clock.advance(.seconds(301))
        let device = try DevicePairing(pin: pin, name: "iPad")
        #expect(host.reply(.pairStart(device.start)) == .pairingFailed(.init(reason: .expired)))
    }

    @Test func revokedDeviceMustPairAgain() throws {
        let host = try CryptoSession()
        host.send(.hello(.init(name: "iPad")))
        let credentials = try host.pair(pin: pin).get()
        try host.devices.remove(id: credentials.deviceId)
        #expect(host.replies(.hello(.init(name: "iPad", deviceId: credentials.deviceId))) == [needPairing])
        let device = try DeviceAuth(credentials: credentials)
        #expect(host.reply(.authStart(device.start)) == .unauthorized(.init(reason: .unknownDevice)))
    }

    @Test func hostWithoutTheSecretIsRefusedByTheDevice() throws {
        let host = try CryptoSession()
        try host.devices.add(DeviceRecord(id: "ab", name: "x", secret: SecureRandom.bytes(32)))
        let device = try DeviceAuth(credentials: DeviceCredentials(deviceId: "ab", secret: SecureRandom.bytes(32)))
        guard case .authChallenge(let challenge) = host.reply(.authStart(device.start)) else {
            Issue.record("no challenge")
            return
        }
        #expect(throws: DeviceAuthError.badHostProof) { try device.receive(challenge) }
    }

    @Test func wrongDeviceProofIsRefusedAndCloses() throws {
        let host = try CryptoSession()
        try host.devices.add(DeviceRecord(id: "ab", name: "x", secret: SecureRandom.bytes(32)))
        let device = try DeviceAuth(credentials: DeviceCredentials(deviceId: "ab", secret: SecureRandom.bytes(32)))
        host.send(.authStart(device.start))
        let forged = DeviceMessage.AuthFinish(proof: SecureRandom.bytes(32).base64EncodedString())
        #expect(
            host.send(.authFinish(forged)) == [
                .send(.unauthorized(.init(reason: .badProof))),
                .close(code: CloseCode.policyViolation, reason: "bad proof"),
            ])
        #expect(host.send(.hello(.init(name: "again"))).isEmpty)
    }

    @Test func requestsBeforeAuthorizationAreUnauthorized() throws {
        let host = try CryptoSession()
        let notAuthorized = HostMessage.unauthorized(.init(reason: .notAuthorized))
        #expect(host.reply(.press(.init(page: 0, index: 0))) == notAuthorized)
        #expect(host.reply(.secure(.init(seq: 1, box: "AAAA"))) == notAuthorized)
        #expect(host.reply(.authFinish(.init(proof: SecureRandom.bytes(32).base64EncodedString()))) == notAuthorized)
    }

    @Test func garbageAndTruncatedHandshakeMessagesGetClearErrors() throws {
        let host = try CryptoSession()
        host.send(.hello(.init(name: "iPad")))
        let real = try DevicePairing(pin: pin, name: "iPad").start.pA
        let bad = HostMessage.pairingFailed(.init(reason: .badMessage))
        for pA in ["", "!!!", String(real.prefix(40)), Data(repeating: 4, count: 65).base64EncodedString()] {
            #expect(host.reply(.pairStart(.init(name: "x", pA: pA))) == bad)
        }
        #expect(host.reply(.pairConfirm(.init(cA: "AAAA"))) == bad)
        try host.devices.add(DeviceRecord(id: "ab", name: "x", secret: SecureRandom.bytes(32)))
        guard case .error(let error) = host.reply(.authStart(.init(deviceId: "ab", eA: "garbage"))) else {
            Issue.record("no error for a bad eA")
            return
        }
        #expect(error.code == .badMessage)
        #expect(host.reply(.authFinish(.init(proof: "x"))) == .unauthorized(.init(reason: .notAuthorized)))
        for text in [#"{"type":"pairStart"}"#, #"{"type":"authStart","deviceId":"ab"}"#, "{", "[]"] {
            guard case .error(let error) = host.replies(text: text).first else {
                Issue.record("no error for \(text)")
                continue
            }
            #expect(error.code == .badMessage)
        }
        // None of it cost a PIN try.
        guard case .failed(let wrong) = try host.pair(pin: "135790") else {
            Issue.record("a wrong PIN paired")
            return
        }
        #expect(wrong.remaining == 4)
    }

    @Test func devicePairingRefusesAForgedPairedMessage() throws {
        let host = try CryptoSession()
        host.send(.hello(.init(name: "iPad")))
        var device = try DevicePairing(pin: pin, name: "iPad")
        guard case .pairChallenge(let challenge) = host.reply(.pairStart(device.start)) else {
            Issue.record("no challenge")
            return
        }
        _ = try device.receive(challenge)
        let forged = HostMessage.Paired(deviceId: "ab", cB: SecureRandom.bytes(32).base64EncodedString(), box: "")
        #expect(throws: DevicePairingError.hostNotConfirmed) { try device.receive(forged) }
        #expect(throws: DevicePairingError.badMessage) { try device.receive(HostMessage.PairChallenge(pB: "AAAA")) }
    }

    @Test func repliesNeverCarryThePinOrSecrets() throws {
        let host = try CryptoSession()
        host.send(.hello(.init(name: "iPad")))
        for _ in 0..<2 { _ = try host.pair(pin: "111111") }
        let credentials = try host.pair(pin: pin).get()
        _ = try #require(try host.authorize(credentials))
        #expect(host.wire.count >= 9)
        for text in host.wire {
            #expect(!text.contains(pin))
            #expect(!text.contains(credentials.secret.base64EncodedString()))
        }
    }
}
