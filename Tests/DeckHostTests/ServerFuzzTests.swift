import DeckCrypto
import DeckDesktop
import DeckKit
import DeckTransport
import Foundation
import Testing

@testable import DeckHost

#if canImport(Glibc)
    import Glibc
#endif

/// The whole daemon (`DeckServer` with fake desktop parts) under seeded garbage: an authorized device whose
/// sealed requests are mutated fixtures (pages and slots of every size, wrong kinds, unknown types), and a
/// stranger on another connection. Afterwards the host still answers and its layout still keeps the page rule.
@Suite struct ServerFuzzTests {
    static let requests: [Data] = SealedSessionFuzzTests.requests.map { $0.encode() }

    @Test func hostSurvivesMutatedSealedRequestsAndStrangers() async throws {
        var rng = FuzzRNG(seed: 0x5EED_0B01)
        let harness = try HostHarness()
        var device = try await harness.authorize(try await harness.pair(name: "iPad"))
        let stranger = await harness.open()
        for _ in 0..<1500 {
            let plaintext = Self.mutated(rng.pick(Self.requests), &rng)
            let envelope = device.channel.seal(plaintext)
            await harness.host.handle(
                .text(String(decoding: DeviceMessage.secure(envelope).encode(), as: UTF8.self), device.id))
            if rng.chance(10) {
                let text = String(decoding: Self.mutated(rng.pick(Self.requests), &rng), as: UTF8.self)
                await harness.host.handle(.text(text, stranger))
            }
        }
        let layout = await harness.host.config.layout
        #expect(Self.isNormal(layout))
        _ = device.inbox()
        let button = Button(label: "after", kind: .command("true"))
        await device.send(.setButton(.init(page: 0, index: 0, button: button)), to: harness.host)
        let answers = device.inbox()
        #expect(
            answers.contains {
                if case .layout(let l) = $0 { l.layout.button(page: 0, index: 0) == button } else { false }
            })
        #expect(await harness.host.control(ControlRequest(command: .status)).ok)
    }

    static func mutated(_ data: Data, _ rng: inout FuzzRNG) -> Data {
        guard rng.chance(80), let tree = try? JSONTree(parsing: data) else {
            return ByteMutator.mutate(data, rng: &rng)
        }
        return JSONMutator.mutate(tree, rng: &rng, types: SessionFuzzTests.types).bytes
    }

    /// The page rule: the grid's slots on every page (12 unless resized), the last page empty, not two empty at the end.
    static func isNormal(_ layout: DeckLayout) -> Bool {
        guard let last = layout.pages.last, layout.pages.allSatisfy({ $0.count == layout.slots }) else {
            return false
        }
        let twoEmpty = layout.pages.count > 1 && layout.pages[layout.pages.count - 2].allSatisfy { $0 == nil }
        return last.allSatisfy { $0 == nil } && !twoEmpty
    }

    @Test func controlSocketAnswersEveryLine() async throws {
        var rng = FuzzRNG(seed: 0x5EED_0B02)
        let dir = TempDir()
        let server = ControlServer(path: ControlSocket.path(configDirectory: dir.url), log: .silent) { request in
            ControlResponse(ok: true, error: request.command.rawValue)
        }
        try server.start()
        defer { server.stop() }
        let seeds = [
            #"{"command":"pair"}"#, #"{"command":"revoke","name":"iPad"}"#,
            #"{"command":"allowScreen","name":"x","on":true}"#,
        ].map { Data($0.utf8) }
        var readable = 0
        for i in 0..<300 {
            let line = Self.mutated(rng.pick(seeds), &rng) + (rng.chance(90) ? Data([0x0A]) : Data())
            // Nothing at all is not a request; the daemon just hangs up.
            if line.isEmpty { continue }
            let request = try? ControlCodec.decoder.decode(ControlRequest.self, from: line)
            let answer = try await offThePool { [path = server.path] in Self.ask(path, line) }.flatMap {
                try? ControlCodec.decoder.decode(ControlResponse.self, from: $0)
            }
            #expect(answer?.ok == (request != nil), "#\(i)")
            readable += request == nil ? 0 : 1
        }
        #expect(readable > 30)
    }

    /// One request line, the write side shut so a line without a newline still ends; the answer line.
    static func ask(_ path: String, _ line: Data) -> Data? {
        let fd = ControlSocket.connect(path)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard ControlSocket.writeAll(fd, line) else { return nil }
        shutdown(fd, Int32(SHUT_WR))
        return ControlSocket.readLine(fd)
    }
}
