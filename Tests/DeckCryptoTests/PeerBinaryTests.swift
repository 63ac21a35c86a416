import DeckKit
import Foundation
import Testing

@testable import DeckCrypto

/// Runs the built `touchdeck-peer host` and drives it with the Swift device side, line by line.
@Suite struct PeerBinaryTests {
    /// The peer sits next to the test bundle in the build directory.
    static var peerURL: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("touchdeck-peer")
    }

    final class Peer {
        let process = Process()
        let input = Pipe()
        let output = Pipe()
        private var buffer = Data()

        init(pin: String) throws {
            // `swift build --build-tests` builds every product, so a missing peer is a failure, not a skip.
            try #require(FileManager.default.isExecutableFile(atPath: PeerBinaryTests.peerURL.path))
            process.executableURL = PeerBinaryTests.peerURL
            process.arguments = ["host", "--pin", pin]
            process.standardInput = input
            process.standardOutput = output
            try process.run()
        }

        deinit {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }

        func send(_ line: Data) throws -> Data {
            try input.fileHandleForWriting.write(contentsOf: line + Data("\n".utf8))
            return try nextLine()
        }

        func nextLine() throws -> Data {
            while true {
                if let end = buffer.firstIndex(of: 0x0a) {
                    let line = buffer.prefix(upTo: end)
                    buffer = Data(buffer.suffix(from: end + 1))
                    return Data(line)
                }
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { throw CryptoError.malformed("peer closed") }
                buffer += chunk
            }
        }

        func send(_ message: DeviceMessage) throws -> HostMessage {
            try HostMessage.decode(send(message.encode()))
        }
    }

    @Test
    func pairsAuthorizesAndEchoes() throws {
        let peer = try Peer(pin: "314159")
        #expect(try peer.send(.hello(.init(name: "swift"))) == .needPairing(.init(hostName: "peer")))
        var pairing = try DevicePairing(pin: "314159", name: "swift")
        guard case .pairChallenge(let challenge) = try peer.send(.pairStart(pairing.start)),
            case .paired(let paired) = try peer.send(.pairConfirm(try pairing.receive(challenge)))
        else { throw CryptoError.malformed("pairing failed") }
        let credentials = try pairing.receive(paired)
        let auth = try DeviceAuth(credentials: credentials)
        guard case .authChallenge(let authChallenge) = try peer.send(.authStart(auth.start)) else {
            throw CryptoError.malformed("no auth challenge")
        }
        var (finish, channel) = try auth.receive(authChallenge)
        guard case .secure(let first) = try peer.send(.authFinish(finish)) else {
            throw CryptoError.malformed("no secure")
        }
        #expect(try HostMessage.decode(channel.open(first)) == .authorized(.init(hostName: "peer")))
        let echo = Data(#"{"text":"hi","type":"echo"}"#.utf8)
        guard case .secure(let reply) = try peer.send(.secure(channel.seal(echo))) else {
            throw CryptoError.malformed("no echo")
        }
        #expect(try channel.open(reply) == echo)
        let binaryLine = try peer.send(
            Data(#"{"binary":"\#(channel.sealBinary(Data([9, 9])).base64EncodedString())"}"#.utf8))
        let wrapper = try JSONDecoder().decode([String: String].self, from: binaryLine)
        #expect(try channel.openBinary(Data(base64Encoded: wrapper["binary"] ?? "") ?? Data()) == Data([9, 9]))
        // After authorization refusals are sealed (PROTOCOL §6), and the peer keeps serving.
        guard case .secure(let refusal) = try HostMessage.decode(peer.send(Data(#"{"binary":"AAAA"}"#.utf8))) else {
            throw CryptoError.malformed("no sealed refusal")
        }
        #expect(try HostMessage.decode(channel.open(refusal)) == .error(.init(for: SealError.malformed)))
        guard case .secure(let unavailable) = try peer.send(.secure(channel.seal(.press(.init(page: 0, index: 0)))))
        else { throw CryptoError.malformed("no reply to a press") }
        guard case .error(let error) = try HostMessage.decode(channel.open(unavailable)) else {
            throw CryptoError.malformed("not an error")
        }
        #expect(error.code == .unavailable)
    }

    @Test
    func garbageLinesGetErrorsAndThePeerStaysUp() throws {
        let peer = try Peer(pin: "314159")
        for garbage in ["{", "[]", #"{"type":"pairStart"}"#] {
            let reply = try peer.send(Data(garbage.utf8))
            #expect(!reply.isEmpty)
            #expect(reply.range(of: Data("314159".utf8)) == nil)
        }
        #expect(try peer.send(.hello(.init(name: "swift"))) == .needPairing(.init(hostName: "peer")))
    }

    @Test
    func binaryBeforeAuthorizationIsRefusedAndEndsTheSession() throws {
        let peer = try Peer(pin: "314159")
        // The daemon's answer (PROTOCOL §2): an error saying why, then the close.
        guard case .error(let error) = try HostMessage.decode(peer.send(Data(#"{"binary":"AAAA"}"#.utf8))) else {
            throw CryptoError.malformed("no error")
        }
        #expect(error.code == .badMessage)
        #expect(throws: CryptoError.malformed("peer closed")) { try peer.nextLine() }
    }
}
