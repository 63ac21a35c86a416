import DeckDesktop
import Foundation
import Synchronization
import Testing

@testable import DeckX11

/// The lock probes: X11's screensaver against private Xvfbs (turned on and off with xset), logind's hint
/// through an injected command, and the real commands where this machine has them.
@Suite struct LockProbeTests {
    typealias PrivateServer = X11ScreenTests.PrivateServer

    /// The probe's answer, or nil when it gave none within `limit`: a hang fails the test, not the whole run.
    func answer(of probe: LockProbe, within limit: Duration = .seconds(30)) async -> Bool? {
        let (answers, continuation) = AsyncStream<Bool?>.makeStream()
        Task { continuation.yield(await probe.isLocked()) }
        Task {
            try? await Task.sleep(for: limit)
            continuation.yield(nil)
        }
        for await answer in answers {
            continuation.finish()
            return answer
        }
        return nil
    }

    /// Runs `xset -display <display> s <action>` (activate: the screensaver comes on now; reset: it goes off). The
    /// limit only guards against a hang: in a full run on two cores xset once needed more than 5 s.
    func screenSaver(_ action: String, on display: String) async throws {
        let output = await QueryCommand.live(timeout: .seconds(30)).run(["xset", "-display", display, "s", action])
        try #require(output != nil, "xset s \(action) failed on \(display) (x11-xserver-utils installed?)")
    }

    @Test func theX11ProbeSeesTheScreensaverComeOnAndGoOff() async throws {
        let server = try PrivateServer(width: 320, height: 240, firstDisplay: 1100)
        defer { server.stop() }
        let probe = LockProbe.x11(display: server.display)
        #expect(await answer(of: probe) == false)
        try await screenSaver("activate", on: server.display)
        #expect(await answer(of: probe) == true)
        #expect(await answer(of: probe) == true)
        try await screenSaver("reset", on: server.display)
        #expect(await answer(of: probe) == false)
    }

    @Test func aDisplayThatIsNotThereIsNotLocked() async throws {
        let number = try #require(
            (500..<600).first { !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\($0)") })
        let probe = LockProbe.x11(display: ":\(number)")
        #expect(await answer(of: probe) == false)
        // Asked again, it tries to open the display again and still finds none.
        #expect(await answer(of: probe) == false)
    }

    @Test func aServerThatGoesAwayIsNotLockedAndOneStartedInItsPlaceIsAskedAgain() async throws {
        // Numbers of its own: the other test's server must not take the freed number before it is started again.
        let first = try PrivateServer(width: 320, height: 240, firstDisplay: 1150)
        let display = first.display
        let probe = LockProbe.x11(display: display)
        try await screenSaver("activate", on: display)
        #expect(await answer(of: probe) == true)
        first.stop()
        #expect(await answer(of: probe) == false)
        #expect(await answer(of: probe) == false)
        // Another test run may take the freed number in between; then this part cannot be checked here.
        let number = try #require(Int(display.dropFirst()))
        let second = try PrivateServer(width: 320, height: 240, number: number)
        defer { second.stop() }
        #expect(await answer(of: probe) == false)
        try await screenSaver("activate", on: display)
        #expect(await answer(of: probe) == true)
    }

    @Test func theLogindProbeReadsTheLockedHintThroughItsCommand() async throws {
        let asked = Mutex<[[String]]>([])
        let reply = Mutex<String?>("yes\n")
        let probe = LockProbe.logind(
            session: "c2",
            command: .fake { arguments in
                asked.withLock { $0.append(arguments) }
                return reply.withLock { $0 }
            })
        #expect(await probe.isLocked() == true)
        let query = ["loginctl", "--no-pager", "show-session", "c2", "--property=LockedHint", "--value"]
        #expect(asked.withLock { $0 } == [query])
        for (output, locked) in [("no\n", false), ("yes", true), (nil, false), ("", false), ("maybe\n", false)] {
            reply.withLock { $0 = output }
            #expect(await probe.isLocked() == locked, "loginctl said \(String(describing: output))")
        }
        #expect(probe.name == "logind session c2")
    }

    @Test func outsideALogindSessionNoCommandIsRun() async {
        #expect(await LockProbe.logind(session: nil, command: .unimplemented).isLocked() == false)
        #expect(await LockProbe.logind(session: "-H", command: .unimplemented).isLocked() == false)
    }

    @Test func theSessionComesFromXDGSessionIDOrElseTheCgroup() {
        let inScope = "0::/user.slice/user-1000.slice/session-c2.scope\n"
        let inService = "0::/user.slice/user-1000.slice/user@1000.service/app.slice/touchdeck.service\n"
        #expect(LogindSession.current(environment: ["XDG_SESSION_ID": "7"], cgroup: inScope) == "7")
        #expect(LogindSession.current(environment: [:], cgroup: inScope) == "c2")
        #expect(LogindSession.current(environment: ["XDG_SESSION_ID": "--all"], cgroup: inScope) == "c2")
        #expect(LogindSession.current(environment: [:], cgroup: inService) == nil)
        #expect(LogindSession.current(environment: [:], cgroup: nil) == nil)
        #expect(LogindSession.current(environment: [:], cgroup: "1:name=systemd:/session-.scope\n") == nil)
    }

    /// Whatever this machine has (a logind that knows no such session, no logind, no loginctl), the real
    /// command answers "not locked" and does not hang.
    @Test func theRealLoginctlAnswersNotLockedForASessionThatDoesNotExist() async {
        let probe = LockProbe.logind(session: "td99999999")
        #expect(await answer(of: probe) == false)
    }

    @Test func aQueryCommandGivesItsOutputOnlyWhenItSucceedsInTime() async {
        // A generous limit where the command must finish (starting a process took over 300 ms once in a full,
        // parallel run on two cores), a short one where it must be cut off.
        let command = QueryCommand.live(timeout: .seconds(10))
        #expect(await command.run(["echo", "yes"]) == "yes\n")
        #expect(await command.run(["false"]) == nil)
        #expect(await command.run(["touchdeck-no-such-command"]) == nil)
        let start = ContinuousClock.now
        #expect(await QueryCommand.live(timeout: .milliseconds(300)).run(["sleep", "30"]) == nil)
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    @Test func eitherIsLockedWhenAnyProbeIs() async {
        let asked = Atomic<Int>(0)
        let counting = LockProbe.fake {
            asked.add(1, ordering: .relaxed)
            return false
        }
        #expect(await LockProbe.either([counting, .unlocked]).isLocked() == false)
        #expect(await LockProbe.either([counting, .fake { true }]).isLocked() == true)
        #expect(await LockProbe.either([.fake { true }, .unimplemented]).isLocked() == true)
        #expect(await LockProbe.either([]).isLocked() == false)
        #expect(asked.load(ordering: .relaxed) == 2)
        #expect(LockProbe.either([.x11(display: ":5"), .logind(session: "3")]).name == "x11 :5 or logind session 3")
    }
}
