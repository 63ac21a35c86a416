import DeckKit
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One key's state command, kept running (issue 23, PROTOCOL §6 "Live looks"): started in `$SHELL -i -c` in its
/// own session and process group, its stdout read on a thread of its own, each line a partial look applied there;
/// the owner is told (`notify`, at most once until it `take`s) that a newer look or error waits. Nothing per byte
/// reaches the owner: it takes the latest whenever it gets round to it.
///
/// Containment: a periodic run longer than its interval, a line over 64 KiB or 10 MB in one run is killed (the
/// whole process group); a bad line, a crash or a long-running command that ends is an error the key shows; runs
/// after a failure wait `RestartBackoff` (1 s doubling to 60 s). `stop` kills the group at once.
///
/// `@unchecked Sendable`: every mutable field is guarded by `condition`.
public final class StateCommandRun: @unchecked Sendable {
    /// What the key shows now.
    public struct Snapshot: Equatable, Sendable {
        public var look = LiveLook()
        public var error: String?
    }

    public let source: StateSource
    private let environment: HostEnvironment
    private let notify: @Sendable () -> Void
    private let condition = NSCondition()
    private var latest = Snapshot()
    private var notified = false
    private var stopped = false
    /// The running shell's process group (its pid), 0 between runs.
    private var group: pid_t = 0

    /// A run of `source`; `notify` is called on the reader's thread when a new snapshot waits.
    public init(source: StateSource, environment: HostEnvironment, notify: @escaping @Sendable () -> Void) {
        self.source = source
        self.environment = environment
        self.notify = notify
    }

    /// Starts the thread that runs the command.
    public func start() {
        let thread = Thread { [self] in loop() }
        thread.name = "touchdeck-state"
        thread.stackSize = 256 * 1024
        thread.start()
    }

    /// Kills the command's process group now and ends the thread; no run starts after this.
    public func stop() {
        condition.lock()
        stopped = true
        if group > 0 { kill(-group, SIGKILL) }
        condition.broadcast()
        condition.unlock()
    }

    /// The latest snapshot; the next change notifies again.
    public func take() -> Snapshot {
        condition.lock()
        defer { condition.unlock() }
        notified = false
        return latest
    }

    private var isStopped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopped
    }

    private func publish(_ change: (inout Snapshot) -> Void) {
        condition.lock()
        let before = latest
        change(&latest)
        let tell = latest != before && !notified && !stopped
        if tell { notified = true }
        condition.unlock()
        if tell { notify() }
    }

    /// Waits `seconds` or until stopped; returns false when stopped.
    private func pause(_ seconds: Double) -> Bool {
        let until = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while !stopped, condition.wait(until: until) {}
        return !stopped
    }

    private func loop() {
        var backoff = RestartBackoff()
        while !isStopped {
            let started = ContinuousClock.now
            let failure = runOnce()
            guard !isStopped else { return }
            let wait: Double
            if let failure {
                publish { $0.error = failure }
                // A long-running command that ran a minute counts as healthy before it failed.
                if source.every == nil, ContinuousClock.now - started >= .seconds(RestartBackoff.longest) {
                    backoff.succeeded()
                }
                wait = max(backoff.failed(), Double(source.every ?? 0))
            } else {
                backoff.succeeded()
                wait = Double(source.every ?? 1)
            }
            guard pause(wait) else { return }
        }
    }

    /// One run; nil when it went well (a periodic run that exited 0 with good lines), else why not.
    private func runOnce() -> String? {
        let shellName = environment["SHELL"] ?? "/bin/sh"
        guard let shell = environment.findExecutable(shellName) else { return "shell not found: \(shellName)" }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return "cannot make a pipe: \(String(cString: strerror(errno)))" }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        condition.lock()
        guard !stopped else {
            condition.unlock()
            close(ends[0])
            close(ends[1])
            return nil
        }
        let spawned = Self.spawn(
            [shell, "-i", "-c", source.command], environment: environment.variables, directory: environment.home,
            output: ends[1])
        if case .success(let pid) = spawned { group = pid }
        condition.unlock()
        close(ends[1])
        let pid: pid_t
        switch spawned {
        case .success(let started): pid = started
        case .failure(let error):
            close(ends[0])
            return "cannot start \(shell): \(error)"
        }
        var failure = read(ends[0], pid: pid)
        close(ends[0])
        let status = reap(pid, graceSeconds: failure == nil ? 2 : 0)
        condition.lock()
        kill(-pid, SIGKILL)  // whatever of its group is left (a background job)
        group = 0
        condition.unlock()
        if failure == nil { failure = Self.verdict(status, periodic: source.every != nil) }
        if failure == nil { publish { $0.error = nil } }
        return failure
    }

    /// Reads lines until the end of the output, the interval or a limit; returns why the run failed, if it did.
    private func read(_ descriptor: Int32, pid: pid_t) -> String? {
        let deadline = source.every.map { ContinuousClock.now + .seconds($0) }
        var pending: [UInt8] = []
        var total = 0
        var lineFailure: String?
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            if isStopped { return nil }
            var timeout: Int32 = 250
            if let deadline {
                let left = deadline - ContinuousClock.now
                if left <= .zero {
                    kill(-pid, SIGKILL)
                    return "did not finish within \(source.every ?? 0) s (killed)"
                }
                let milliseconds = Double(left.components.seconds) * 1000 + Double(left.components.attoseconds) / 1e15
                timeout = Int32(min(250, max(1, milliseconds.rounded(.up))))
            }
            var watch = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&watch, 1, timeout)
            if ready == 0 || (ready < 0 && errno == EINTR) { continue }
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            total += count
            if total > LiveLook.maxRunBytes {
                kill(-pid, SIGKILL)
                return "printed more than 10 MB (killed)"
            }
            pending.append(contentsOf: chunk[..<count])
            while let newline = pending.firstIndex(of: 10) {
                if let problem = apply(pending[..<newline]) { lineFailure = problem }
                pending.removeSubrange(...newline)
            }
            if pending.count > LiveLook.maxLineBytes {
                kill(-pid, SIGKILL)
                return "printed a line longer than 64 KiB (killed)"
            }
        }
        if !pending.isEmpty, let problem = apply(pending[...]) { lineFailure = problem }
        return lineFailure
    }

    /// Applies one line; returns why it was refused. An empty line is skipped.
    private func apply(_ bytes: ArraySlice<UInt8>) -> String? {
        var line = String(decoding: bytes, as: UTF8.self)
        if line.hasSuffix("\r") { line.removeLast() }
        guard !line.allSatisfy(\.isWhitespace) else { return nil }
        condition.lock()
        let look = latest.look
        condition.unlock()
        do {
            let next = try look.applying(line: line)
            publish {
                $0.look = next
                if self.source.every == nil { $0.error = nil }
            }
            return nil
        } catch {
            publish { $0.error = error.description }
            return error.description
        }
    }

    /// Waits up to `graceSeconds` for the shell to exit, then kills its group; returns how it ended.
    private func reap(_ pid: pid_t, graceSeconds: Double) -> Int32 {
        var raw: Int32 = 0
        let until = ContinuousClock.now + .milliseconds(Int(graceSeconds * 1000))
        while true {
            let done = waitpid(pid, &raw, WNOHANG)
            if done == pid { return raw }
            if done < 0 && errno != EINTR { return 0 }
            if ContinuousClock.now >= until || isStopped {
                kill(-pid, SIGKILL)
                while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
                return raw
            }
            usleep(10_000)
        }
    }

    /// A periodic run's exit 0 is fine; any other end (and a long-running command's end at all) is a failure.
    static func verdict(_ raw: Int32, periodic: Bool) -> String? {
        let signal = raw & 0x7f
        if signal != 0 { return "killed by signal \(signal)" }
        let code = (raw >> 8) & 0xff
        if code == 0 { return periodic ? nil : "the command ended" }
        return code == 127 ? "command not found (exit 127)" : "exit \(code)"
    }

    /// Started detached (`DetachedProcess.launch`: a new session, so its pid is its process group), stdin and
    /// stderr on /dev/null, stdout to `output`.
    private static func spawn(
        _ arguments: [String], environment: [String: String], directory: String?, output: Int32
    ) -> Result<pid_t, SpawnError> {
        do {
            return .success(
                try DetachedProcess.launch(
                    arguments, environment: environment, directory: directory, output: output, errors: nil))
        } catch {
            return .failure(error)
        }
    }
}
