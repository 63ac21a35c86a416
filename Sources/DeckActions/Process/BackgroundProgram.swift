extension HostEnvironment {
    /// Starts `name` (a path, or found on `$PATH`) with `arguments` and forgets it: detached as a launched app is
    /// (`DetachedProcess`: its own session, nothing inherited, its output to /dev/null) and reaped when it ends. For
    /// helpers nobody waits for, such as `notify-send`: Foundation's `Process` kept about 1 KB of every start for
    /// good, and the host notifies at every viewing. Returns whether it started.
    @discardableResult
    public func startInBackground(_ name: String, _ arguments: [String]) -> Bool {
        guard let path = findExecutable(name) else { return false }
        return (try? DetachedProcess.spawn([path] + arguments, environment: variables, directory: nil)) != nil
    }
}
