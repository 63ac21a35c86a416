import Foundation
import Testing

/// The live tests run under `scripts/with-desktop`; outside it they fail (never skip) with this hint.
public enum LiveDesktop {
    public static func require(_ name: String) throws -> String {
        try #require(
            ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 },
            "\(name) is not set: run the live tests under scripts/with-desktop (make test-swift does)")
    }

    /// Runs a tool to completion and returns its stdout (stderr is appended, for failure messages).
    @discardableResult
    public static func run(_ arguments: [String], environment: [String: String]? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let environment { process.environment = environment }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

/// Collects callback values and lets a test wait for one that matches, giving up (and failing) after
/// a generous limit instead of hanging when the value never comes.
public final class Inbox<Value: Sendable>: Sendable {
    private let stream: AsyncStream<Value>
    public let continuation: AsyncStream<Value>.Continuation

    public init() {
        (stream, continuation) = AsyncStream.makeStream(of: Value.self)
    }

    public func send(_ value: Value) { continuation.yield(value) }

    public func next(where matches: @escaping @Sendable (Value) -> Bool, seconds: Double = 15) async -> Value? {
        let stream = self.stream
        return await withTaskGroup(of: Value?.self) { group in
            group.addTask {
                for await value in stream where matches(value) { return value }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
