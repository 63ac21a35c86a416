import DeckDesktop
import Foundation
import Testing

@testable import DeckActions

@Suite struct CommandRunnerTests {
    func bashDesktop() throws -> (TempDesktop, HostEnvironment) {
        let desk = try TempDesktop()
        try desk.write(
            "home/.bashrc",
            "alias blogrun='echo published > \"$HOME/blog.txt\"'\nmkout() { echo \"$1\" > \"$HOME/fn.txt\"; }\n")
        return (desk, desk.environment(["SHELL": "/bin/bash"]))
    }

    @Test func runsACommandThatWritesAFile() async throws {
        let (desk, environment) = try bashDesktop()
        let result = await CommandRunner.live(environment: environment).run("echo written > \"$HOME/out.txt\"", "write")
        #expect(result.isRunning)
        #expect(await result.settled == .ok)
        #expect(await desk.waitForFile(desk.home + "/out.txt") == "written\n")
    }

    @Test func aliasesAndFunctionsFromTheShellRcWork() async throws {
        let (desk, environment) = try bashDesktop()
        let runner = CommandRunner.live(environment: environment)
        #expect(await runner.run("blogrun", "blog").settled == .ok)
        #expect(await desk.waitForFile(desk.home + "/blog.txt") == "published\n")
        #expect(await runner.run("mkout hello", "fn").settled == .ok)
        #expect(await desk.waitForFile(desk.home + "/fn.txt") == "hello\n")
    }

    @Test func missingCommandIsAFailure() async throws {
        let (_, environment) = try bashDesktop()
        let result = await CommandRunner.live(environment: environment).run("no-such-tool-touchdeck --help", "missing")
        #expect(await result.settled == .failed("command not found: no-such-tool-touchdeck"))
    }

    @Test func immediateNonZeroExitReportsCodeAndLastLine() async throws {
        let (_, environment) = try bashDesktop()
        let result = await CommandRunner.live(environment: environment).run("echo first; echo boom >&2; exit 3", "fail")
        #expect(await result.settled == .failed("exit 3: boom"))
    }

    @Test func aFailureAfterASecondIsStillReportedWithItsLastLine() async throws {
        // It used to count as fine once it had run 300 ms: the failure reached only the log.
        let (_, environment) = try bashDesktop()
        let result = await CommandRunner.live(environment: environment).run("sleep 1; echo gone wrong; exit 3", "late")
        #expect(result.isRunning)
        #expect(await result.settled == .failed("exit 3: gone wrong"))
    }

    @Test func aCommandStillRunningAtTheLimitCountsAsStarted() async throws {
        let (desk, environment) = try bashDesktop()
        let runner = CommandRunner.live(environment: environment, limit: .milliseconds(300))
        let result = await runner.run("echo $$ > \"$HOME/pid\"; exec sleep 120", "long")
        #expect(await result.settled == .ok)
        // The outcome came at the limit, while the command still ran.
        let pid = await desk.waitForFile(desk.home + "/pid").flatMap { Int32($0.trimmingCharacters(in: .newlines)) }
        let running = try #require(pid)
        #expect(kill(running, 0) == 0)
        kill(running, SIGKILL)
    }

    @Test func longRunningCommandsAreOk() async throws {
        let (desk, environment) = try bashDesktop()
        let result = await CommandRunner.live(environment: environment).run(
            "sleep 2; echo late > \"$HOME/late.txt\"", "slow")
        #expect(result.isRunning)
        #expect(await result.settled == .ok)
        #expect(await desk.waitForFile(desk.home + "/late.txt") == "late\n")
    }

    @Test func outputIsAppendedToThePerButtonLog() async throws {
        let (desk, environment) = try bashDesktop()
        let runner = CommandRunner.live(environment: environment)
        #expect(await runner.run("echo run-one", "logged").settled == .ok)
        #expect(await runner.run("echo run-two", "logged").settled == .ok)
        let logPath = CommandRunner.logDirectory(environment: environment) + "/logged.log"
        #expect(logPath.hasPrefix(desk.stateHome + "/touchdeck/logs/"))
        let log = await desk.waitForFile(logPath) ?? ""
        #expect(log.contains("$ echo run-one\n"))
        #expect(log.contains("run-one\n"))
        #expect(log.contains("run-two\n"))
    }

    @Test func missingShellIsAFailure() async throws {
        let desk = try TempDesktop()
        let environment = desk.environment(["SHELL": "/nonexistent/zsh"])
        #expect(
            await CommandRunner.live(environment: environment).run("true", "x")
                == .failed("shell not found: /nonexistent/zsh"))
    }

    @Test(arguments: [
        ("bash: line 1: foo: command not found", "foo"),
        ("bash: foo: command not found", "foo"),
        ("zsh:1: command not found: foo", "foo"),
        ("sh: 1: foo: not found", "foo"),
        ("fish: Unknown command: foo", "foo"),
        ("", "fallback"),
    ])
    func readsTheMissingNameFromEveryShell(output: String, expected: String) {
        #expect(ShellOutput.missingCommand(in: output, command: "fallback --x") == expected)
    }

    @Test func shellNoiseIsNotTheReason() {
        let output =
            "bash: cannot set terminal process group (1): Inappropriate ioctl for device\nbash: no job control in this shell\n"
        #expect(ShellOutput.lastMeaningfulLine(output) == nil)
        #expect(ShellOutput.lastMeaningfulLine(output + "real problem\n\n") == "real problem")
    }
}

extension ActionResult {
    /// The final result: a running action's outcome, any other result as it is.
    var settled: ActionResult {
        get async {
            guard case .running(let outcome) = self else { return self }
            return await outcome.value
        }
    }

    var isRunning: Bool {
        if case .running = self { return true }
        return false
    }
}
