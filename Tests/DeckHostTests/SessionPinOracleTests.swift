import DeckDesktop
import DeckKit
import Foundation
import Testing

@testable import DeckCrypto
@testable import DeckHost

/// The PIN oracle closed (PROTOCOL §3): every accepted `pairStart` spends a try, a right-PIN `pA = w·M` is
/// answered like any wrong guess, the back-off outlives a restart, and wrong and dead PINs are logged with the
/// peer's address but never the PIN. The daemon's real `SessionMachine` + `CryptoServices`.
@Suite struct SessionPinOracleTests {
    let pin = CryptoSession.pin

    /// `pA = w·M`: the host's `pA − w·M` is the identity exactly when `pin` is the host's PIN.
    func maskCancelling(pin: String) throws -> String {
        let w = try Spake2.passwordScalar(pin: pin)
        return try P256Point(decoding: Spake2.mEncoded).multiplied(by: w).uncompressed().base64EncodedString()
    }

    /// A `pairConfirm` a stranger who sent `pA = w·M` could make: it knows no x, so it can only guess bytes.
    let strangerConfirm = DeviceMessage.pairConfirm(.init(cA: Data(repeating: 7, count: 32).base64EncodedString()))

    @Test func theRightPinsMaskCancellingShareIsAnsweredLikeAWrongGuessAndCostsATry() throws {
        let host = try CryptoSession()
        host.send(.hello(.init(name: "stranger")))
        var replies: [HostMessage?] = []
        for guess in [pin, "135790"] {
            let start = host.reply(.pairStart(.init(name: "x", pA: try maskCancelling(pin: guess))))
            guard case .pairChallenge(let challenge) = start else {
                Issue.record(
                    "pairStart for \(guess == pin ? "the right" : "a wrong") PIN got \(String(describing: start))")
                return
            }
            #expect(Data(base64Encoded: challenge.pB)?.count == 65)
            replies.append(host.reply(strangerConfirm))
        }
        #expect(
            replies == [
                .pairingFailed(.init(reason: .wrongPin, remaining: 4)),
                .pairingFailed(.init(reason: .wrongPin, remaining: 3)),
            ])
        #expect(host.devices.records.isEmpty)
    }

    @Test func everyAcceptedPairStartSpendsATryAndTheSixthFindsThePinDead() throws {
        let host = try CryptoSession()
        host.send(.hello(.init(name: "stranger")))
        for _ in 0..<PairingGate.triesPerPin {
            let start = host.reply(.pairStart(try DevicePairing(pin: pin, name: "x").start))
            guard case .pairChallenge = start else {
                Issue.record("an accepted try got \(String(describing: start))")
                return
            }
        }
        let sixth = host.reply(.pairStart(try DevicePairing(pin: pin, name: "x").start))
        #expect(sixth == .pairingFailed(.init(reason: .noPin, retryAfter: 30)))
        // Dead as after 5 wrong PINs: a new device's hello brings no PIN during the back-off.
        host.send(.hello(.init(name: "another")))
        #expect(host.pins.shown.count == 1)
    }

    @Test func unconfirmedStartsCountAgainstTheConfirmationsAfterThem() throws {
        let host = try CryptoSession()
        host.send(.hello(.init(name: "iPad")))
        for _ in 0..<2 { host.send(.pairStart(try DevicePairing(pin: "135790", name: "x").start)) }
        guard case .failed(let wrong) = try host.pair(pin: "135790") else {
            Issue.record("a wrong PIN paired")
            return
        }
        #expect(wrong.remaining == 2)
        // The right PIN on the fourth try still pairs.
        #expect(try host.authorize(try host.pair(pin: pin).get()) != nil)
    }

    @Test func aMalformedShareCostsNoTryAndSaysNothingAboutTheGate() throws {
        let host = try CryptoSession()
        let offCurve = (Data([4]) + Data(repeating: 1, count: 64)).base64EncodedString()
        let bad = HostMessage.pairingFailed(.init(reason: .badMessage))
        // The same answer with no PIN live and with one: it depends on pA alone.
        #expect(host.reply(.pairStart(.init(name: "x", pA: offCurve))) == bad)
        host.send(.hello(.init(name: "iPad")))
        for _ in 0..<10 { #expect(host.reply(.pairStart(.init(name: "x", pA: offCurve))) == bad) }
        guard case .failed(let wrong) = try host.pair(pin: "135790") else {
            Issue.record("a wrong PIN paired")
            return
        }
        #expect(wrong.remaining == 4)
    }

    @Test func theBackoffSurvivesARestart() throws {
        let host = try CryptoSession()
        host.send(.hello(.init(name: "stranger")))
        for _ in 0..<PairingGate.triesPerPin { _ = try host.pair(pin: "135790") }
        let file = host.dir.url.appendingPathComponent(PairingBackoffFile.name)
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        host.wallClock.advance(10)
        let again = try host.restarted()
        again.send(.hello(.init(name: "stranger")))
        #expect(again.pins.shown.isEmpty)
        let start = again.reply(.pairStart(try DevicePairing(pin: pin, name: "x").start))
        #expect(start == .pairingFailed(.init(reason: .noPin, retryAfter: 20)))

        // Once the wait is over, a hello brings a PIN again; a second dead PIN doubles the wait.
        again.clock.advance(.seconds(21))
        again.send(.hello(.init(name: "stranger")))
        #expect(again.pins.shown.count == 1)
        for _ in 0..<PairingGate.triesPerPin { _ = try again.pair(pin: "135790") }
        let third = try again.restarted()
        let doubled = third.reply(.pairStart(try DevicePairing(pin: pin, name: "x").start))
        #expect(doubled == .pairingFailed(.init(reason: .noPin, retryAfter: 60)))
    }

    @Test func aWallClockFarAheadOnDiskBlocksNoLongerThanTheLongestWait() throws {
        let host = try CryptoSession()
        let farAhead = ISO8601DateFormatter().string(from: host.wallClock.now.addingTimeInterval(30 * 86_400))
        try host.dir.write(#"{"deadPins": 9, "blockedUntil": "\#(farAhead)"}"#, to: PairingBackoffFile.name)
        let again = try host.restarted()
        again.send(.hello(.init(name: "x")))
        let start = again.reply(.pairStart(try DevicePairing(pin: pin, name: "x").start))
        #expect(start == .pairingFailed(.init(reason: .noPin, retryAfter: 3600)))
    }

    @Test func aBackoffFileThatCannotBeReadIsReportedAndIgnored() throws {
        let host = try CryptoSession()
        try host.dir.write("{not json", to: PairingBackoffFile.name)
        let again = try host.restarted()
        #expect(again.log.lines.contains { $0.hasPrefix("[warning]") && $0.contains(PairingBackoffFile.name) })
        again.send(.hello(.init(name: "iPad")))
        #expect(again.pins.shown.count == 1)
    }

    @Test func wrongAndDeadPinsAreLoggedWithThePeersAddressNeverThePin() throws {
        let host = try CryptoSession()
        host.send(.hello(.init(name: "stranger")))
        for _ in 0..<PairingGate.triesPerPin { _ = try host.pair(pin: "135790") }
        let wrong = host.log.lines.filter { $0.contains("wrong PIN") }
        #expect(wrong.count == 5)
        #expect(wrong.allSatisfy { $0.contains("peer.address=\(CryptoSession.peer)") })
        let dead = host.log.lines.filter { $0.contains("PIN dead") }
        #expect(dead.count == 1 && dead.allSatisfy { $0.contains("peer.address=\(CryptoSession.peer)") })
        #expect(!host.log.lines.contains { $0.contains(pin) || $0.contains("135790") })
    }

    @Test func aPinKilledByASixthPairStartIsLoggedWithThatPeersAddress() throws {
        let host = try CryptoSession()
        host.send(.hello(.init(name: "stranger")))
        for _ in 0...PairingGate.triesPerPin { host.send(.pairStart(try DevicePairing(pin: pin, name: "x").start)) }
        let dead = host.log.lines.filter { $0.contains("PIN dead") }
        #expect(dead.count == 1 && dead.allSatisfy { $0.contains("peer.address=\(CryptoSession.peer)") })
        #expect(!host.log.lines.contains { $0.contains(pin) })
    }

    @Test func aDeviceRevokedBetweenAuthStartAndAuthFinishIsNotAuthorized() throws {
        let host = try CryptoSession()
        host.send(.hello(.init(name: "iPad")))
        let credentials = try host.pair(pin: pin).get()
        let device = try DeviceAuth(credentials: credentials)
        guard case .authChallenge(let challenge) = host.reply(.authStart(device.start)) else {
            Issue.record("no challenge")
            return
        }
        try host.devices.remove(id: credentials.deviceId)
        let actions = host.send(.authFinish(try device.receive(challenge).finish))
        #expect(actions == [.send(.unauthorized(.init(reason: .unknownDevice)))])
        #expect(host.session.authorizedDevice == nil)
        // The connection stays, and the device may pair again on it.
        host.send(.hello(.init(name: "iPad")))
        #expect(try host.authorize(try host.pair(pin: pin).get()) != nil)
    }
}
