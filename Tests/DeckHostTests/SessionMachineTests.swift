import DeckDesktop
import DeckKit
import Foundation
import Testing

@testable import DeckHost

@Suite struct SessionMachineTests {
    let services = FakeServices()
    let t0 = Date(timeIntervalSince1970: 1_000)
    var session = SessionMachine<FakeServices>()

    mutating func send(_ message: DeviceMessage) -> [SessionAction] {
        session.receive(text: message.text, now: t0, services: services)
    }

    mutating func sendRaw(_ text: String) -> [SessionAction] {
        session.receive(text: text, now: t0, services: services)
    }

    mutating func authorize(protocolVersion: Int = 2) -> [SessionAction] {
        _ = send(.hello(.init(protocolVersion: protocolVersion, name: "iPad", deviceId: "known")))
        _ = send(.authStart(.init(deviceId: "known", eA: "eA")))
        return send(.authFinish(.init(proof: "ok")))
    }

    @Test mutating func helloFromNewDeviceAsksForPairingAndTellsTheHost() {
        #expect(send(.hello(.init(name: "iPad"))) == [.send(.needPairing(.init(hostName: "desk")))])
        #expect(services.pairingRequests == ["iPad"])
    }

    @Test mutating func helloFromUnknownIdAlsoAsksForPairing() {
        #expect(send(.hello(.init(name: "x", deviceId: "stranger"))) == [.send(.needPairing(.init(hostName: "desk")))])
    }

    @Test mutating func helloFromKnownDeviceAsksForAuth() {
        #expect(send(.hello(.init(name: "iPad", deviceId: "known"))) == [.send(.authRequired(.init(hostName: "desk")))])
        #expect(services.pairingRequests.isEmpty)
    }

    @Test mutating func requestsBeforeAuthorizationAreUnauthorizedAndTheConnectionStays() {
        #expect(send(.press(.init(page: 0, index: 0))) == [.send(.unauthorized(.init(reason: .notAuthorized)))])
        #expect(send(.hello(.init(name: "iPad"))).count == 1)
    }

    @Test mutating func unknownTypeAndGarbageGetErrors() {
        #expect(
            sendRaw(#"{"type":"selfDestruct"}"#) == [
                .send(.error(.init(code: .unknownType, message: "unknown type selfDestruct")))
            ])
        guard case .send(.error(let reply)) = sendRaw("{not json").first else {
            Issue.record("no error")
            return
        }
        #expect(reply.code == .badMessage)
    }

    @Test mutating func binaryFromADeviceCloses() {
        #expect(
            session.receiveBinary() == [
                .send(.error(.init(code: .badMessage, message: "binary messages from a device are not allowed"))),
                .close(code: 1003, reason: "binary messages from a device are not allowed"),
            ])
        #expect(sendRaw(DeviceMessage.hello(.init(name: "x")).text).isEmpty)
    }

    @Test mutating func pairingWithTheRightPinPairs() {
        _ = send(.hello(.init(name: "iPad")))
        #expect(send(.pairStart(.init(name: "", pA: "A"))) == [.send(.pairChallenge(.init(pB: "B")))])
        let actions = send(.pairConfirm(.init(cA: "good")))
        #expect(
            actions == [
                .paired(DeviceRecord(id: "new", name: "iPad", secret: Data(count: 32))),
                .send(.paired(.init(deviceId: "new", cB: "cB", box: "box"))),
            ])
    }

    @Test mutating func aWrongPinNeedsAFreshExchange() {
        _ = send(.pairStart(.init(name: "iPad", pA: "A")))
        #expect(send(.pairConfirm(.init(cA: "bad"))) == [.send(.pairingFailed(.init(reason: .wrongPin, remaining: 4)))])
        #expect(send(.pairConfirm(.init(cA: "good"))) == [.send(.pairingFailed(.init(reason: .badMessage)))])
    }

    @Test mutating func confirmWithoutStartIsABadMessage() {
        #expect(send(.pairConfirm(.init(cA: "good"))) == [.send(.pairingFailed(.init(reason: .badMessage)))])
    }

    @Test mutating func refusedPairStartIsPassedOn() {
        services.remaining = 0
        #expect(send(.pairStart(.init(name: "iPad", pA: "A"))) == [.send(.pairingFailed(.init(reason: .noPin)))])
    }

    @Test mutating func goodProofAuthorizesWithTheDevicesProtocol() {
        let actions = authorize(protocolVersion: 1)
        #expect(
            actions == [
                .sendSealed(.authorized(.init(hostName: "desk"))), .authorized(deviceId: "known", protocolVersion: 1),
            ])
        #expect(session.authorizedDevice == "known")
    }

    @Test mutating func helloWithoutProtocolCountsAsOne() {
        _ = sendRaw(#"{"type":"hello","name":"old","deviceId":"known"}"#)
        _ = send(.authStart(.init(deviceId: "known", eA: "eA")))
        #expect(send(.authFinish(.init(proof: "ok"))).last == .authorized(deviceId: "known", protocolVersion: 1))
    }

    @Test mutating func badProofIsRefusedAndCloses() {
        _ = send(.authStart(.init(deviceId: "known", eA: "eA")))
        #expect(
            send(.authFinish(.init(proof: "forged"))) == [
                .send(.unauthorized(.init(reason: .badProof))), .close(code: 1008, reason: "bad proof"),
            ])
    }

    @Test mutating func unknownDeviceGoesBackToPairingWithoutClosing() {
        #expect(
            send(.authStart(.init(deviceId: "stranger", eA: "eA"))) == [
                .send(.unauthorized(.init(reason: .unknownDevice)))
            ])
        #expect(send(.authFinish(.init(proof: "ok"))) == [.send(.unauthorized(.init(reason: .notAuthorized)))])
    }

    @Test mutating func afterAuthorizationPlainMessagesMustBeSealed() {
        _ = authorize()
        #expect(
            send(.press(.init(page: 0, index: 1))) == [
                .sendSealed(
                    .error(.init(code: .mustBeSealed, message: "after authorization every message must be sealed")))
            ])
    }

    @Test mutating func sealedRequestsReachTheHost() {
        _ = authorize()
        #expect(
            sendRaw(FakeChannel.envelope(.press(.init(page: 0, index: 1)), seq: 1)) == [
                .request(.press(.init(page: 0, index: 1)))
            ])
        #expect(sendRaw(FakeChannel.envelope(.listApps(.init()), seq: 2)) == [.request(.listApps(.init()))])
    }

    @Test mutating func sealedHandshakeMessagesAreBadMessagesAndKeepTheSession() {
        _ = authorize()
        #expect(
            sendRaw(FakeChannel.envelope(.pairStart(.init(name: "x", pA: "A")), seq: 1)) == [
                .sendSealed(
                    .error(
                        .init(
                            code: .badMessage,
                            message: "pairStart: handshake messages are not accepted after authorization",
                            request: "pairStart")))
            ])
        #expect(
            sendRaw(FakeChannel.envelope(.press(.init(page: 0, index: 1)), seq: 2)) == [
                .request(.press(.init(page: 0, index: 1)))
            ])
    }

    @Test mutating func replayedSeqIsABadSeal() {
        _ = authorize()
        _ = sendRaw(FakeChannel.envelope(.press(.init(page: 0, index: 1)), seq: 5))
        let actions = sendRaw(FakeChannel.envelope(.press(.init(page: 0, index: 1)), seq: 5))
        guard case .sendSealed(.error(let reply)) = actions.first else {
            Issue.record("no error")
            return
        }
        #expect(reply.code == .badSeal)
    }

    @Test mutating func sealedUnknownTypeGetsASealedError() {
        _ = authorize()
        let env = SecureEnvelope(seq: 1, box: Data(#"{"type":"warp"}"#.utf8).base64EncodedString())
        #expect(
            sendRaw(String(decoding: DeviceMessage.secure(env).encode(), as: UTF8.self)) == [
                .sendSealed(.error(.init(code: .unknownType, message: "unknown type warp")))
            ])
    }

    @Test mutating func sealingWorksOnlyWhenAuthorized() {
        #expect(session.seal(.layout(.init(layout: .empty))) == nil)
        _ = authorize()
        let text = session.seal(.layout(.init(layout: .empty)))
        guard case .secure(let envelope) = try? HostMessage.decode(text ?? "") else {
            Issue.record("not sealed")
            return
        }
        #expect(envelope.seq == 1)
    }

    @Test mutating func aFloodOfPreAuthMessagesEndsInAClose() {
        var last: [SessionAction] = []
        for _ in 0..<41 { last = send(.press(.init(page: 0, index: 0))) }
        #expect(
            last == [
                .send(.error(.init(code: .badMessage, message: "too many messages before authorization"))),
                .close(code: 1008, reason: "too many messages before authorization"),
            ])
        #expect(send(.hello(.init(name: "x"))).isEmpty)
    }

    @Test func floodGuardRefillsWithTime() {
        var limiter = FloodGuard(burst: 4, perSecond: 10, total: 100)
        var steady: [Bool] = []
        for i in 0..<50 { steady.append(limiter.admit(now: t0.addingTimeInterval(Double(i) * 0.1))) }
        #expect(steady.allSatisfy { $0 })
        var burst: [Bool] = []
        for _ in 0..<5 { burst.append(limiter.admit(now: t0.addingTimeInterval(10))) }
        #expect(burst == [true, true, true, true, false])
    }

    @Test func floodGuardCapsTheTotal() {
        var limiter = FloodGuard(burst: 10, perSecond: 10, total: 3)
        var results: [Bool] = []
        for second in 0..<4 { results.append(limiter.admit(now: t0.addingTimeInterval(Double(second)))) }
        #expect(results == [true, true, true, false])
    }

    @Test mutating func namesAreCleanedAndShortened() {
        _ = send(.hello(.init(name: "i\u{07}Pad\n" + String(repeating: "x", count: 100))))
        #expect(session.deviceName == "iPad" + String(repeating: "x", count: 60))
    }

    @Test mutating func binaryAfterAuthorizationIsRefusedSealedBeforeTheClose() throws {
        _ = authorize()
        let actions = session.receiveBinary()
        // Sealed by the session itself: once it has closed, the host could no longer seal it.
        guard case .send(.secure(let envelope)) = actions.first else {
            Issue.record("no sealed error: \(actions)")
            return
        }
        let inner = try HostMessage.decode(try #require(Data(base64Encoded: envelope.box)))
        #expect(inner == .error(.init(code: .badMessage, message: "binary messages from a device are not allowed")))
        #expect(
            actions.last
                == .close(code: CloseCode.unsupportedData, reason: "binary messages from a device are not allowed"))
    }

    @Test mutating func hostEndingASessionClosesOnce() {
        _ = authorize()
        #expect(session.end(reason: "revoked") == [.close(code: 1001, reason: "revoked")])
        #expect(session.end(reason: "revoked").isEmpty)
    }
}
