import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a short command that answers a question on its standard output (`loginctl show-session …`); the seam
/// lets a test answer instead.
public struct QueryCommand: Sendable {
    /// Runs `arguments` (the first one looked up on PATH); its standard output when it exits with 0 in time,
    /// nil when it is missing, fails or takes too long.
    public var run: @Sendable (_ arguments: [String]) async -> String?

    /// A command runner from its one operation.
    public init(run: @escaping @Sendable (_ arguments: [String]) async -> String?) {
        self.run = run
    }

    /// Runs the command as a child process on a queue of its own (waiting for it never blocks the caller's
    /// thread pool); one still running after `timeout` is killed and counts as failed.
    public static func live(timeout: Duration = .seconds(1)) -> QueryCommand {
        let queue = DispatchQueue(label: "touchdeck.lock.query")
        return QueryCommand { arguments in
            await withCheckedContinuation { continuation in
                queue.async { continuation.resume(returning: runWaiting(arguments, timeout: timeout)) }
            }
        }
    }

    /// Answers what `answer` returns for the arguments.
    public static func fake(_ answer: @escaping @Sendable ([String]) -> String?) -> QueryCommand {
        QueryCommand { answer($0) }
    }

    /// Traps if called: for tests that must never run a command.
    public static let unimplemented = QueryCommand { arguments in
        preconditionFailure("QueryCommand.run(\(arguments)) called in a test that does not expect it")
    }

    /// Starts the command and blocks the calling thread until it exits or `timeout` passes.
    private static func runWaiting(_ arguments: [String], timeout: Duration) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        guard (try? process.run()) != nil else { return nil }
        let (seconds, attoseconds) = timeout.components
        if exited.wait(timeout: .now() + Double(seconds) + Double(attoseconds) * 1e-18) == .timedOut {
            // SIGKILL, not terminate(): a child started from a thread that blocks SIGTERM inherits the mask
            // and would never stop. env has exec'd the command, so this pid is the command itself.
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
            return nil
        }
        guard process.terminationStatus == 0, process.terminationReason == .exit else { return nil }
        return readAvailable(output.fileHandleForReading.fileDescriptor)
    }

    /// What the exited command left in the pipe. Non-blocking: a child of the command that kept the pipe open
    /// must not make the probe wait for it. (An answer larger than the pipe's buffer would have made the
    /// command wait for a reader and time out; the questions asked here get a word or a line.)
    private static func readAvailable(_ descriptor: Int32) -> String {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
