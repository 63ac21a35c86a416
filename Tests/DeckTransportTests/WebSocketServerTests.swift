import Foundation
import Testing

@testable import DeckTransport

@Suite struct WebSocketServerTests {
    @Test func plainWebSocketEchoesText() async throws {
        let server = try TestServer()
        #expect(server.port > 0)
        let result = try await runClient(["echo", server.plainURL, "hello deck"])
        #expect(result["reply"] as? String == "hello deck")
        #expect(server.recorder.texts == ["hello deck"])
        #expect(server.recorder.opened.values.map(\.isTLS) == [false])
        #expect(server.recorder.opened.values.map(\.remoteAddress) == ["127.0.0.1"])
    }

    @Test func secureWebSocketOnTheSamePort() async throws {
        let server = try TestServer()
        let result = try await runClient([
            "echo", server.tlsURL, "over tls", "--ca", server.certificates.authority.path,
        ])
        #expect(result["reply"] as? String == "over tls")
        #expect(server.recorder.opened.values.map(\.isTLS) == [true])
        let plain = try await runClient(["echo", server.plainURL, "then plain"])
        #expect(plain["reply"] as? String == "then plain")
        #expect(server.recorder.opened.values.filter { !$0.isTLS }.count == 1)
    }

    @Test func fragmentedMessageIsReassembled() async throws {
        let server = try TestServer()
        let parts = ["frag-", "ment", "ed ", String(repeating: "x", count: 100_000), " end"]
        let result = try await runClient(["fragments", server.plainURL] + parts)
        #expect(result["reply"] as? String == parts.joined())
        #expect(server.recorder.texts == [parts.joined()])
    }

    @Test func fragmentedMessageOverTLSIsReassembled() async throws {
        let server = try TestServer()
        let parts = ["é", "touch", "deck"]
        let ca = server.certificates.authority.path
        let result = try await runClient(["fragments", server.tlsURL] + parts + ["--ca", ca])
        #expect(result["reply"] as? String == "étouchdeck")
    }

    @Test func messageOfExactly16MiBIsAccepted() async throws {
        let server = try TestServer()
        let result = try await runClient(["oversize", server.plainURL, "\(16 * 1024 * 1024)"])
        // Not refused: the server answered with its size, so the client saw no close code.
        #expect(result["closeCode"] is NSNull)
        #expect(server.recorder.binarySizes == [16 * 1024 * 1024])
    }

    @Test func messageOver16MiBClosesOnlyThatConnection() async throws {
        let server = try TestServer()
        let result = try await runClient(["oversize", server.plainURL, "\(16 * 1024 * 1024 + 1)"])
        #expect(result["closeCode"] as? Int == 1009)
        #expect(result["other"] as? String == "still here")
        #expect(server.recorder.binarySizes.isEmpty)
        #expect(await eventually { server.recorder.closed.count == 2 })
    }

    @Test func onSentRunsForEveryBinarySend() async throws {
        let server = try TestServer()
        let result = try await runClient(["receive", server.plainURL, "5", "300000"])
        #expect(result["sizes"] as? [Int] == Array(repeating: 300_000, count: 5))
        #expect(await eventually { server.recorder.sentCount == 5 })
    }

    @Test func silentPeerIsDropped() async throws {
        let server = try TestServer()
        let result = try await runClient(["silent", "127.0.0.1", "\(server.port)"])
        #expect(result["upgraded"] as? Bool == true)
        #expect(result["closed"] as? Bool == true)
        #expect(await eventually { server.recorder.closed.count == 1 })
    }

    @Test func peerThatAnswersPingsStaysPastTheTimeout() async throws {
        let server = try TestServer()
        let result = try await runClient(["idle", server.plainURL, "18"])
        #expect(result["reply"] as? String == "after idle")
    }

    @Test func upgradeElsewhereThanWsIsRefused() async throws {
        let server = try TestServer()
        let result = try await runToolAsync(
            Checkout.python, [Checkout.client, "echo", "ws://127.0.0.1:\(server.port)/other", "x"])
        #expect(result.status != 0)
        #expect(server.recorder.opened.isEmpty)
    }

    @Test func stopWithOpenConnectionsReportsThemClosed() async throws {
        let server = try TestServer()
        let client = Task { try await runToolAsync(Checkout.python, [Checkout.client, "idle", server.plainURL, "3"]) }
        #expect(await eventually { server.recorder.opened.count == 1 })
        server.server.stop()
        #expect(server.recorder.closed == Array(server.recorder.opened.keys))
        server.server.send(text: "after stop", to: ConnectionID(rawValue: 1))
        _ = try? await client.value
    }

    @Test func closeFromTheHostEndsTheConnection() async throws {
        let server = try TestServer()
        let client = Task { try await runToolAsync(Checkout.python, [Checkout.client, "idle", server.plainURL, "5"]) }
        #expect(await eventually { server.recorder.opened.count == 1 })
        let id = try #require(server.recorder.opened.keys.first)
        server.server.close(id)
        #expect(await eventually { server.recorder.closed == [id] })
        _ = try await client.value
    }

    @Test func takenPortIsAListenError() throws {
        let first = try TestServer()
        var configuration = ServerConfiguration(certificate: first.certificates, port: first.port)
        configuration.webRoot = nil
        let second = WebSocketServer(configuration: configuration, handler: WebSocketHandler())
        #expect(throws: TransportError.self) { try second.start() }
    }
}

@Suite struct CrossThreadSendTests {
    @Test func sendsFromManyThreadsAllArriveInPerThreadOrder() async throws {
        let server = try TestServer()
        let client = Task {
            try await runToolAsync(Checkout.python, [Checkout.client, "listen", server.plainURL, "200"])
        }
        #expect(await eventually { server.recorder.opened.count == 1 })
        let id = try #require(server.recorder.opened.keys.first)
        let target = server.server!
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<50 { target.send(text: "\(thread):\(index)", to: id) }
        }
        let output = try await client.value.output
        let line = try #require(output.split(separator: "\n").last)
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: [String]]
        let messages = try #require(object?["messages"])
        #expect(messages.count == 200)
        for thread in 0..<4 {
            let own = messages.filter { $0.hasPrefix("\(thread):") }
            #expect(own == (0..<50).map { "\(thread):\($0)" })
        }
    }
}
