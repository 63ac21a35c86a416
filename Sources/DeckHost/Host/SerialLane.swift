/// Runs async jobs one after another in the order they were added, without blocking the caller.
///
/// Keypad keys must reach the desktop in the order they were typed, and the last `setVolume` of a slider
/// drag must be the one that stays; separate `Task`s may start in any order, so each job waits for the
/// one before it. A value owned by the host's actor (only the actor adds jobs).
struct SerialLane {
    private var tail: Task<Void, Never>?

    /// Adds a job that starts once every job added before it has finished.
    mutating func add(_ job: @escaping @Sendable () async -> Void) {
        let previous = tail
        tail = Task {
            await previous?.value
            await job()
        }
    }
}
