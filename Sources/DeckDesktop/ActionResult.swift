/// What a press or key action reports back to the device.
public enum ActionResult: Equatable, Sendable {
    case ok
    /// Failed, with a short reason meant for the device's user.
    case failed(String)
    /// Started and still running: the device hears that at once, and the outcome when it comes (a command key
    /// runs until it exits; PROTOCOL §6 "Buttons"). The outcome is never `running` again.
    case running(ActionOutcome)
}

/// The outcome of an action that is still running, awaited by whoever reports it.
public final class ActionOutcome: Sendable, Equatable {
    private let task: Task<ActionResult, Never>

    /// Starts `body` now, on its own task.
    public init(_ body: @escaping @Sendable () async -> ActionResult) { task = Task(operation: body) }

    /// The final result (`ok` or `failed`).
    public var value: ActionResult {
        get async {
            if case .running(let inner) = await task.value { return await inner.value }
            return await task.value
        }
    }

    public static func == (left: ActionOutcome, right: ActionOutcome) -> Bool { left === right }
}
