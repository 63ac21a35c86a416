import Foundation
import Testing

@testable import DeckTransport

/// Paths inside the checkout, found from this file's location.
enum Checkout {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let python = root.appendingPathComponent(".venv/bin/python").path
    static let client = root.appendingPathComponent("Tests/transport/wsclient.py").path
}

/// Everything a test server's handler saw, readable from the test.
final class Recorder: @unchecked Sendable {  // every property is guarded by `lock`
    private let lock = NSLock()
    private var _opened: [ConnectionID: ConnectionInfo] = [:]
    private var _closed: [ConnectionID] = []
    private var _texts: [String] = []
    private var _binarySizes: [Int] = []
    private var _sentCount = 0

    var opened: [ConnectionID: ConnectionInfo] { lock.withLock { _opened } }
    var closed: [ConnectionID] { lock.withLock { _closed } }
    var texts: [String] { lock.withLock { _texts } }
    var binarySizes: [Int] { lock.withLock { _binarySizes } }
    var sentCount: Int { lock.withLock { _sentCount } }

    func didOpen(_ id: ConnectionID, _ info: ConnectionInfo) { lock.withLock { _opened[id] = info } }
    func didClose(_ id: ConnectionID) { lock.withLock { _closed.append(id) } }
    func didReceive(text: String) { lock.withLock { _texts.append(text) } }
    func didReceive(binary: Data) { lock.withLock { _binarySizes.append(binary.count) } }
    func didSend() { lock.withLock { _sentCount += 1 } }
}

/// A server on a free port with a temporary certificate directory and web root, whose handler echoes text,
/// answers `send-binary COUNT SIZE` with binary messages, and reports binary sizes as text.
final class TestServer: @unchecked Sendable {  // `server` is set once in init before any callback can run
    let recorder = Recorder()
    let directory: URL
    let certificates: CertificateFiles
    private(set) var server: WebSocketServer!
    private(set) var port = 0

    init(configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
        directory = try makeTemporaryDirectory()
        let identity = LocalIdentity(dnsNames: ["localhost"], ipAddresses: ["127.0.0.1", "::1"])
        certificates = try CertificateStore.prepare(
            in: directory.appendingPathComponent("certs"), identity: identity)
        var configuration = ServerConfiguration(
            certificate: certificates, port: 0, webRoot: directory.appendingPathComponent("web"))
        // The echo handler has no notion of authorization; the front door's own tests switch it back on.
        configuration.frontDoor = nil
        configure(&configuration)
        server = WebSocketServer(configuration: configuration, handler: makeHandler())
        port = try server.start()
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    var plainURL: String { "ws://127.0.0.1:\(port)/ws" }
    var tlsURL: String { "wss://localhost:\(port)/ws" }

    private func makeHandler() -> WebSocketHandler {
        let recorder = recorder
        return WebSocketHandler(
            opened: { recorder.didOpen($0, $1) },
            text: { [weak self] text, id in
                recorder.didReceive(text: text)
                self?.answer(text, to: id)
            },
            binary: { [weak self] data, id in
                recorder.didReceive(binary: data)
                self?.server.send(text: "binary \(data.count)", to: id)
            },
            closed: { recorder.didClose($0) },
            http: { request in
                guard request.path == "/setup" else { return nil }
                let body = "setup tls=\(request.isTLS) loopback=\(request.isLoopback)"
                return HTTPResponse(contentType: "text/html; charset=utf-8", body: Data(body.utf8))
            })
    }

    private func answer(_ text: String, to id: ConnectionID) {
        let words = text.split(separator: " ")
        guard words.first == "send-binary", words.count == 3, let count = Int(words[1]), let size = Int(words[2])
        else { return server.send(text: text, to: id) }
        let recorder = recorder
        for _ in 0..<count {
            server.send(binary: Data(repeating: 7, count: size), to: id, onSent: { recorder.didSend() })
        }
    }
}

/// Runs the Python client with `arguments` and decodes the JSON object it prints.
func runClient(_ arguments: [String]) async throws -> [String: Any] {
    let result = try await runToolAsync(Checkout.python, [Checkout.client] + arguments)
    let line = result.output.split(separator: "\n").last.map(String.init) ?? ""
    guard result.status == 0, let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    else {
        Issue.record("client \(arguments.first ?? "") failed (\(result.status)): \(result.output)")
        return [:]
    }
    return object
}

/// Waits until `condition` holds, checking every 50 ms, for at most `seconds`; returns whether it held.
func eventually(within seconds: Double = 30, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return condition()
}

/// `runTool` without blocking a cooperative thread: output goes to a temporary file read after exit.
func runToolAsync(_ executable: String, _ arguments: [String]) async throws -> ToolResult {
    let outputURL = FileManager.default.temporaryDirectory.appendingPathComponent("tool-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: outputURL) }
    let output = try FileHandle(forWritingTo: outputURL)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardOutput = output
    process.standardError = output
    process.standardInput = FileHandle.nullDevice
    let status: Int32 = try await withCheckedThrowingContinuation { continuation in
        process.terminationHandler = { finished in
            finished.terminationHandler = nil  // the process holds its handler: break that cycle
            continuation.resume(returning: finished.terminationStatus)
        }
        do { try process.run() } catch { continuation.resume(throwing: error) }
    }
    try output.close()
    let text = String(decoding: try Data(contentsOf: outputURL), as: UTF8.self)
    return ToolResult(status: status, output: text)
}
