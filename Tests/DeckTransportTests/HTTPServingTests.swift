import Foundation
import Testing

@testable import DeckTransport

@Suite struct HTTPServingTests {
    /// A server whose web root holds a small app, as `Web/` does.
    private func makeServer(configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> TestServer {
        let server = try TestServer(configure: configure)
        let web = server.directory.appendingPathComponent("web")
        try FileManager.default.createDirectory(
            at: web.appendingPathComponent("app"), withIntermediateDirectories: true)
        try Data("<!doctype html><title>deck</title>".utf8).write(to: web.appendingPathComponent("app/index.html"))
        try Data("export const deck = 1;\n".utf8).write(to: web.appendingPathComponent("app/main.js"))
        try Data("{\"name\":\"TouchDeck\"}".utf8).write(to: web.appendingPathComponent("app/manifest.webmanifest"))
        try Data(count: 300_000).write(to: web.appendingPathComponent("app/big.png"))
        return server
    }

    /// `curl` output: the body, then a line with the status code and content type.
    private func curl(_ url: String, ca: String? = nil) async throws -> (status: Int, type: String, body: String) {
        var arguments = ["-s", "-w", "\n%{http_code} %{content_type}", url]
        if let ca { arguments = ["--cacert", ca] + arguments }
        let result = try await runToolAsync("/usr/bin/curl", arguments)
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
        let last = lines.last.map(String.init) ?? ""
        let status = Int(last.prefix { $0 != " " }) ?? 0
        let type = String(last.drop { $0 != " " }.dropFirst())
        return (status, type, lines.dropLast().joined(separator: "\n"))
    }

    @Test func httpsServesStaticFilesWithTheirMIMETypes() async throws {
        let server = try makeServer()
        let ca = server.certificates.authority.path
        let base = "https://localhost:\(server.port)"
        let script = try await curl("\(base)/app/main.js", ca: ca)
        #expect(script.status == 200)
        #expect(script.type == "text/javascript; charset=utf-8")
        #expect(script.body == "export const deck = 1;\n")
        let manifest = try await curl("\(base)/app/manifest.webmanifest", ca: ca)
        #expect(manifest.type == "application/manifest+json")
        let index = try await curl("\(base)/", ca: ca)
        #expect(index.status == 200)
        #expect(index.type == "text/html; charset=utf-8")
        #expect(index.body.contains("<title>deck</title>"))
    }

    @Test func largeFileArrivesWhole() async throws {
        let server = try makeServer()
        let ca = server.certificates.authority.path
        let result = try await runToolAsync(
            "/usr/bin/curl",
            [
                "-s", "--cacert", ca, "-o", "/dev/null", "-w", "%{size_download} %{content_type}",
                "https://localhost:\(server.port)/app/big.png",
            ])
        #expect(result.output == "300000 image/png")
    }

    @Test func plainHTTPAsksTheHostHandlerFirst() async throws {
        let server = try makeServer()
        let setup = try await curl("http://127.0.0.1:\(server.port)/setup")
        #expect(setup.status == 200)
        #expect(setup.body == "setup tls=false loopback=true")
        let secure = try await curl("https://localhost:\(server.port)/setup", ca: server.certificates.authority.path)
        #expect(secure.body == "setup tls=true loopback=true")
    }

    @Test func plainHTTPFromLoopbackGetsTheAppOnlyWhenAllowed() async throws {
        let allowed = try makeServer()
        #expect(try await curl("http://127.0.0.1:\(allowed.port)/app/main.js").status == 200)
        let refused = try makeServer { $0.servesWebRootToLoopbackHTTP = false }
        let result = try await curl("http://127.0.0.1:\(refused.port)/app/main.js")
        #expect(result.status == 404)
        #expect(
            try await curl("https://localhost:\(refused.port)/app/main.js", ca: refused.certificates.authority.path)
                .status == 200)
    }

    @Test func missingAndEscapingPathsAre404() async throws {
        let server = try makeServer()
        let ca = server.certificates.authority.path
        #expect(try await curl("https://localhost:\(server.port)/app/nothing.js", ca: ca).status == 404)
        let escape = try await runToolAsync(
            "/usr/bin/curl",
            [
                "-s", "--path-as-is", "--cacert", ca, "-o", "/dev/null", "-w", "%{http_code}",
                "https://localhost:\(server.port)/../certs/ca-key.pem",
            ])
        #expect(escape.output != "200")
    }

    @Test func mimeTypesForWebClientFiles() {
        let expected = [
            "a.js": "text/javascript; charset=utf-8", "a.mjs": "text/javascript; charset=utf-8",
            "a.css": "text/css; charset=utf-8", "a.html": "text/html; charset=utf-8", "a.svg": "image/svg+xml",
            "a.png": "image/png", "a.json": "application/json", "a.webmanifest": "application/manifest+json",
            "a.bin": "application/octet-stream",
        ]
        for (name, type) in expected { #expect(StaticFiles.mimeType(forPath: name) == type, "\(name)") }
    }

    @Test func requestPathsStayInsideTheRoot() {
        let cases: [(String, String?)] = [
            ("/", "app/index.html"), ("/app/main.js", "app/main.js"), ("/app/", "app"),
            ("/../etc/passwd", nil), ("/app/../../x", nil), ("/.git/config", nil), ("/app/.env", nil),
            ("relative", nil), ("//etc/passwd", nil),
        ]
        for (path, expected) in cases {
            #expect(StaticFiles.relativePath(path, index: "app/index.html") == expected, "\(path)")
        }
    }
}
