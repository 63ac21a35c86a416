import DeckDesktop
import DeckKit

/// Runs a multi-action's steps one after another (PROTOCOL §6 "Layout"): each key step to its end (a command step
/// until it exits, as its own key would report it), each delay as asked. The first step that fails stops the rest
/// and the result names it ("step 3 of 5: no terminal found"); cancelling the task (a second press of the key)
/// stops it before the next step, or during a delay, and the result says so.
///
/// The host says how a key step runs (`runKey`): hotkey and text steps go through its typing lane, record steps
/// to its recording, the rest to an `ActionRunner`. The clock is a seam so the order and the delays are tested
/// without waiting.
public struct MultiActionRunner: Sendable {
    private let runKey: @Sendable (Button) async -> ActionResult
    private let sleep: @Sendable (Duration) async throws -> Void

    /// `sleep` must throw when its task is cancelled (as `Task.sleep` does).
    public init(
        runKey: @escaping @Sendable (Button) async -> ActionResult,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.runKey = runKey
        self.sleep = sleep
    }

    /// Runs `steps` in order; `.ok` when every step worked.
    public func run(_ steps: [MultiStep]) async -> ActionResult {
        for (offset, step) in steps.enumerated() {
            let number = offset + 1
            if Task.isCancelled { return Self.cancelled(before: number, of: steps.count) }
            switch step {
            case .delay(let milliseconds):
                do {
                    try await sleep(.milliseconds(milliseconds))
                } catch {
                    return Self.cancelled(before: number + 1, of: steps.count)
                }
            case .key(let button):
                if case .failed(let reason) = await Self.outcome(of: runKey(button)) {
                    return .failed("step \(number) of \(steps.count): \(reason)")
                }
            }
        }
        return .ok
    }

    /// A step that runs on (a command) counts once it has ended: the next step may need what it did.
    public static func outcome(of result: ActionResult) async -> ActionResult {
        if case .running(let outcome) = result { return await outcome.value }
        return result
    }

    /// What a cancelled run reports: the steps it left out. `step` may be one past the last (cancelled in the last
    /// step's delay, nothing left to run).
    public static func cancelled(before step: Int, of count: Int) -> ActionResult {
        step > count
            ? .failed("cancelled after step \(count) of \(count)")
            : .failed("cancelled before step \(step) of \(count)")
    }
}
