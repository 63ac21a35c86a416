import DeckDesktop
import Foundation
import Testing

@testable import DeckHost

/// The control socket outside the config dir lives in a private directory that the daemon creates (0700) and
/// that both the daemon and the CLI check: a directory squatted by another user, or opened to others, is
/// refused with a clear error instead of trusted (it fed the CLI a fake PIN and address).
@Suite(.serialized) struct ControlSocketTrustTests {
    let runtime = TempDir()
    /// A config dir whose socket path is too long for `sockaddr_un`, so the private directory is used.
    var configDirectory: URL { runtime.url.appendingPathComponent(String(repeating: "c", count: 120)) }
    var environment: [String: String] { ["XDG_RUNTIME_DIR": runtime.url.path] }
    var folder: String { runtime.url.path + "/touchdeck-\(getuid())" }

    func server() -> ControlServer {
        ControlServer(
            path: ControlSocket.path(configDirectory: configDirectory, environment: environment),
            privateDirectory: ControlSocket.privateDirectory(
                configDirectory: configDirectory, environment: environment),
            log: .silent
        ) { _ in
            var answer = ControlResponse()
            answer.pin = "123456"
            return answer
        }
    }

    /// `touchdeck pair` as the CLI sends it, off the cooperative pool (the server answers through a task).
    func ask() async throws -> ControlResponse {
        let (directory, environment) = (configDirectory, environment)
        return try await offThePool {
            try ControlClient.send(ControlRequest(command: .pair), configDirectory: directory, environment: environment)
        }
    }

    func squat(mode: mode_t, owner: uid_t? = nil) throws {
        #expect(mkdir(folder, mode) == 0)
        #expect(chmod(folder, mode) == 0)  // mkdir's mode passes through the umask
        if let owner { #expect(chown(folder, owner, owner) == 0) }
    }

    @Test func theFallbackSocketIsInsideAPrivateDirectoryUnderTheRuntimeDir() {
        let path = ControlSocket.path(configDirectory: configDirectory, environment: environment)
        #expect(path.hasPrefix(folder + "/") && path.hasSuffix(".sock"))
        #expect(ControlSocket.privateDirectory(configDirectory: runtime.url, environment: environment) == nil)
        let tmp = ControlSocket.privateDirectory(configDirectory: configDirectory, environment: [:])
        #expect(tmp == "/tmp/touchdeck-\(getuid())")
    }

    @Test func theDaemonCreatesTheDirectory700AndTheCLIGetsItsAnswer() async throws {
        let server = server()
        try server.start()
        defer { server.stop() }
        let mode = try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int
        #expect(mode == 0o700)
        #expect(try await ask().pin == "123456")
    }

    @Test func aDirectoryOpenToOthersIsRefusedByTheDaemon() throws {
        try squat(mode: 0o777)
        #expect(throws: PrivateDirectory.Untrusted.openToOthers(folder, mode: 0o777)) { try server().start() }
        let message = "\(PrivateDirectory.Untrusted.openToOthers(folder, mode: 0o777))"
        #expect(message.contains("its mode is 777, not 700"))
    }

    @Test(.enabled(if: getuid() == 0, "only root can give a directory to another user"))
    func aDirectoryOwnedByAnotherUserIsRefusedByTheDaemon() throws {
        try squat(mode: 0o700, owner: 65534)
        #expect(throws: PrivateDirectory.Untrusted.wrongOwner(folder, owner: 65534)) { try server().start() }
    }

    @Test func aSymbolicLinkInItsPlaceIsRefused() throws {
        let elsewhere = runtime.url.appendingPathComponent("elsewhere").path
        #expect(mkdir(elsewhere, 0o700) == 0)
        #expect(symlink(elsewhere, folder) == 0)
        #expect(throws: PrivateDirectory.Untrusted.notADirectory(folder)) { try server().start() }
    }

    @Test func theCLIRefusesASocketInADirectoryOpenedLater() async throws {
        let server = server()
        try server.start()
        defer { server.stop() }
        #expect(chmod(folder, 0o755) == 0)
        do {
            _ = try await ask()
            Issue.record("the CLI trusted a socket in a directory others can read")
        } catch let failure as ControlClient.Failure {
            guard case .untrusted(let reason) = failure else {
                Issue.record("refused as \(failure)")
                return
            }
            #expect(reason.contains("refusing the control socket directory \(folder): its mode is 755"))
        }
    }

    @Test(.enabled(if: getuid() == 0, "only root can give a directory to another user"))
    func theCLIRefusesAFakeDaemonInASquattedDirectory() async throws {
        // The squatter's directory holds a socket that answers like the daemon, with a PIN of its choosing.
        try squat(mode: 0o777)
        let fake = ControlServer(
            path: ControlSocket.path(configDirectory: configDirectory, environment: environment), log: .silent
        ) { _ in
            var answer = ControlResponse()
            answer.pin = "000000"
            return answer
        }
        try fake.start()
        defer { fake.stop() }
        #expect(chown(folder, 65534, 65534) == 0)
        await #expect(throws: ControlClient.Failure.self) { try await ask() }
        #expect((try? await ask())?.pin == nil)
    }

    @Test func noDirectoryMeansNotRunning() async {
        await #expect(
            throws: ControlClient.Failure.notRunning(
                ControlSocket.path(configDirectory: configDirectory, environment: environment))
        ) {
            try await ask()
        }
    }
}
