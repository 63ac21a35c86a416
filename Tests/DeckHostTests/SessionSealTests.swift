import DeckCrypto
import DeckDesktop
import DeckKit
import Foundation
import Testing

@testable import DeckHost

/// The seed's attack table after authorization, through the daemon's session with a real channel: every
/// refusal is a sealed `error` the device can open, and the session keeps serving.
@Suite struct SessionSealTests {
    let press = DeviceMessage.press(.init(page: 0, index: 1))

    /// A sealed error's code as the device reads it; nil when the reply was not a sealed error.
    func sealedErrorCode(_ replies: [HostMessage], _ channel: inout SecureChannel) -> WireErrorCode? {
        sealedError(replies, &channel)?.code
    }

    /// The sealed error as the device reads it; nil when the reply was not exactly one sealed error.
    func sealedError(_ replies: [HostMessage], _ channel: inout SecureChannel) -> HostMessage.ErrorReply? {
        guard replies.count == 1, case .secure(let envelope) = replies[0],
            let inner = try? channel.open(envelope), case .error(let error) = try? HostMessage.decode(inner)
        else { return nil }
        return error
    }

    /// The session still takes a fresh sealed request.
    func stillServes(_ host: CryptoSession, _ channel: inout SecureChannel) {
        #expect(host.send(.secure(channel.seal(press))) == [.request(press)])
    }

    static func text(_ envelope: SecureEnvelope) -> String {
        String(decoding: DeviceMessage.secure(envelope).encode(), as: UTF8.self)
    }

    @Test func textBoxWithFlippedLastByteIsABadSeal() throws {
        let host = try CryptoSession()
        var (_, channel) = try host.pairAndAuthorize()
        let envelope = channel.seal(press)
        var box = try #require(Data(base64Encoded: envelope.box))
        box[box.count - 1] ^= 1
        let forged = SecureEnvelope(seq: envelope.seq, box: box.base64EncodedString())
        #expect(sealedErrorCode(host.replies(text: Self.text(forged)), &channel) == .badSeal)
        stillServes(host, &channel)
    }

    @Test func changedSeqIsABadSeal() throws {
        let host = try CryptoSession()
        var (_, channel) = try host.pairAndAuthorize()
        let envelope = channel.seal(press)
        let moved = SecureEnvelope(seq: envelope.seq + 5, box: envelope.box)
        #expect(sealedErrorCode(host.replies(text: Self.text(moved)), &channel) == .badSeal)
        stillServes(host, &channel)
    }

    @Test func replayedEnvelopeIsABadSeal() throws {
        let host = try CryptoSession()
        var (_, channel) = try host.pairAndAuthorize()
        let envelope = channel.seal(press)
        #expect(host.sendText(Self.text(envelope)) == [.request(press)])
        #expect(sealedErrorCode(host.replies(text: Self.text(envelope)), &channel) == .badSeal)
        stillServes(host, &channel)
    }

    @Test func seqZeroIsABadSeal() throws {
        let host = try CryptoSession()
        var (_, channel) = try host.pairAndAuthorize()
        let zero = SecureEnvelope(seq: 0, box: Data(count: 40).base64EncodedString())
        #expect(sealedErrorCode(host.replies(text: Self.text(zero)), &channel) == .badSeal)
        stillServes(host, &channel)
    }

    @Test func binaryBoxResentAsTextIsABadSeal() throws {
        let host = try CryptoSession()
        var (_, channel) = try host.pairAndAuthorize()
        let frame = channel.sealBinary(press.encode())
        let asText = SecureEnvelope(seq: 1, box: frame.dropFirst(8).base64EncodedString())
        #expect(sealedErrorCode(host.replies(text: Self.text(asText)), &channel) == .badSeal)
        stillServes(host, &channel)
    }

    @Test func hostMessageReflectedToTheHostIsABadSeal() throws {
        let host = try CryptoSession()
        var (_, channel) = try host.pairAndAuthorize()
        let sealed = host.session.seal(.layout(.init(layout: .empty)))
        let own = try #require(sealed)
        #expect(sealedErrorCode(host.replies(text: own), &channel) == .badSeal)
        stillServes(host, &channel)
    }

    /// The text-box-as-binary row: the daemon takes no binary from a device at all (PROTOCOL §0), so the
    /// forged frame ends the connection after a sealed error (`touchdeck-peer` echoes binary instead, and
    /// answers this row with `badSeal`; the interop tests check that).
    @Test func textBoxSentAsBinaryClosesTheConnection() throws {
        let host = try CryptoSession()
        var (_, channel) = try host.pairAndAuthorize()
        let reason = "binary messages from a device are not allowed"
        let (actions, replies) = host.sendBinary()
        #expect(sealedErrorCode(replies, &channel) == .badMessage, "the device reads why, sealed, before the close")
        #expect(actions.last == .close(code: CloseCode.unsupportedData, reason: reason))
        #expect(host.send(.secure(channel.seal(press))).isEmpty)
    }

    @Test func plainMessagesAfterAuthorizationMustBeSealed() throws {
        let host = try CryptoSession()
        let (credentials, opened) = try host.pairAndAuthorize()
        var channel = opened
        let pairStart = DeviceMessage.pairStart(try DevicePairing(pin: CryptoSession.pin, name: "iPad").start)
        let authStart = DeviceMessage.authStart(try DeviceAuth(credentials: credentials).start)
        for plain in [pairStart, authStart, press, .hello(.init(name: "iPad"))] {
            #expect(sealedErrorCode(host.replies(plain), &channel) == .mustBeSealed, "\(plain.type)")
        }
        #expect(host.session.authorizedDevice == credentials.deviceId)
        stillServes(host, &channel)
    }

    /// A sealed handshake message is sealed, so `mustBeSealed` would mislead the device: it is a `badMessage`
    /// that says handshake messages are not accepted after authorization, and the session stays authorized.
    @Test func sealedHandshakeMessagesAfterAuthorizationAreBadMessages() throws {
        let host = try CryptoSession()
        let (credentials, opened) = try host.pairAndAuthorize()
        var channel = opened
        let handshake: [DeviceMessage] = [
            .hello(.init(name: "iPad")),
            .pairStart(try DevicePairing(pin: CryptoSession.pin, name: "iPad").start),
            .pairConfirm(.init(cA: Data(count: 32).base64EncodedString())),
            .authStart(try DeviceAuth(credentials: credentials).start),
            .authFinish(.init(proof: Data(count: 32).base64EncodedString())),
        ]
        for message in handshake {
            let reply = sealedError(host.replies(.secure(channel.seal(message))), &channel)
            #expect(reply?.code == .badMessage, "\(message.type)")
            #expect(reply?.message == "\(message.type): handshake messages are not accepted after authorization")
        }
        #expect(host.session.authorizedDevice == credentials.deviceId)
        stillServes(host, &channel)
    }
}
