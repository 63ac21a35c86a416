import Foundation
import Testing

@testable import DeckTransport

/// DESIGN.md#transport: HTTP serves only the app's own files and never follows a link out of the web root.
@Suite struct HTTPWebRootTests {
    /// A web root shaped like `Web/`: the app, the modules it imports, and tests and benchmarks beside them;
    /// plus a secret outside the root and links pointing at it.
    private func makeRoot() throws -> (outside: URL, files: StaticFiles) {
        let outside = try makeTemporaryDirectory()
        let web = outside.appendingPathComponent("web")
        let manager = FileManager.default
        for folder in ["app", "core", "test", "bench", "secrets"] {
            try manager.createDirectory(at: web.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try Data("<!doctype html>".utf8).write(to: web.appendingPathComponent("app/index.html"))
        try Data("export const a = 1;\n".utf8).write(to: web.appendingPathComponent("app/main.js"))
        try Data("export const log = 1;\n".utf8).write(to: web.appendingPathComponent("core/log.js"))
        try Data("# notes\n".utf8).write(to: web.appendingPathComponent("core/README.md"))
        try Data("test('x')\n".utf8).write(to: web.appendingPathComponent("test/rules.test.js"))
        try Data("bench\n".utf8).write(to: web.appendingPathComponent("bench/crypto-bench.mjs"))
        try Data("secret\n".utf8).write(to: outside.appendingPathComponent("ca-key.js"))
        try Data("secret\n".utf8).write(to: web.appendingPathComponent("secrets/key.js"))
        try manager.createSymbolicLink(
            atPath: web.appendingPathComponent("app/leak.js").path, withDestinationPath: "../../ca-key.js")
        try manager.createSymbolicLink(
            atPath: web.appendingPathComponent("app/outside").path, withDestinationPath: outside.path)
        try manager.createSymbolicLink(
            atPath: web.appendingPathComponent("app/sideways.js").path, withDestinationPath: "../secrets/key.js")
        try manager.createSymbolicLink(
            atPath: web.appendingPathComponent("app/alias.js").path, withDestinationPath: "main.js")
        return (outside, StaticFiles(root: web, indexPath: "app/index.html", folders: ["app", "core"]))
    }

    @Test func onlyTheAppAndTheModulesItImportsAreServed() throws {
        let (outside, files) = try makeRoot()
        defer { try? FileManager.default.removeItem(at: outside) }
        #expect(files.response(forPath: "/") != nil)
        #expect(files.response(forPath: "/app/main.js")?.body == Data("export const a = 1;\n".utf8))
        #expect(files.response(forPath: "/core/log.js") != nil)
        for refused in ["/test/rules.test.js", "/bench/crypto-bench.mjs", "/core/README.md", "/secrets/key.js"] {
            #expect(files.response(forPath: refused) == nil, "\(refused)")
        }
    }

    @Test func linksLeadingOutOfTheServedFoldersAreNotFollowed() throws {
        let (outside, files) = try makeRoot()
        defer { try? FileManager.default.removeItem(at: outside) }
        #expect(files.response(forPath: "/app/leak.js") == nil)
        #expect(files.response(forPath: "/app/outside/ca-key.js") == nil)
        #expect(files.response(forPath: "/app/sideways.js") == nil)
        // A link that stays inside the app is fine.
        #expect(files.response(forPath: "/app/alias.js")?.body == Data("export const a = 1;\n".utf8))
    }
}
