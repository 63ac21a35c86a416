import DeckDesktop
import Dispatch
import Foundation

/// GNOME on Wayland, through Mutter's D-Bus APIs (DESIGN.md#viewing): the monitors (DisplayConfig), screen captures
/// (`MutterCapture`: ScreenCast + PipeWire) and input (RemoteDesktop), as a `ScreenSource` and an `InputSink`.
///
/// `@unchecked Sendable`: the bus is touched only on `queue`, which is also the input sessions' queue (it keeps
/// input events in the order they were asked for).
public final class MutterDesktop: @unchecked Sendable {
    private let queue = DispatchQueue(label: "touchdeck.mutter")
    private var bus: SessionBus?
    /// The captures' sessions and one for input while no capture runs (keys and buttons need no stream).
    let sessions: InputSessions<MutterSession>

    /// The clipboard through the sessions input goes through (`MutterClipboard`).
    let clipboard = MutterClipboard()

    /// A desktop whose input-only session closes after `inputIdle` seconds without use.
    public init(inputIdle: Double = 30) {
        sessions = InputSessions(queue: queue, idle: inputIdle)
        clipboard.desktop = self
    }

    /// Whether an input-only session is open now (for tests).
    var hasInputOnlySession: Bool { sessions.hasInputOnly }

    /// Whether Mutter's ScreenCast and RemoteDesktop services are on the session bus now.
    public static func isAvailable() -> Bool {
        guard let bus = try? SessionBus() else { return false }
        return bus.hasOwner(MutterSession.screenCast) && bus.hasOwner(MutterSession.remoteDesktop)
    }

    /// Monitors, one-shot grabs (a short capture's first frame) and captures through Mutter.
    public var screen: ScreenSource {
        ScreenSource(
            monitors: { try await self.onQueue { bus throws(ScreenSourceError) in try Self.monitors(bus) } },
            grab: { monitor in try await self.grab(monitor) },
            capture: { monitor, fps, handlers in
                try MutterCapture(
                    desktop: self, bus: try self.openBusOnQueue(), monitor: monitor, fps: fps, handlers: handlers)
            })
    }

    private static func monitors(_ bus: SessionBus) throws(ScreenSourceError) -> [Monitor] {
        do { return try MutterMonitors.current(on: bus) } catch { throw WaylandInput.screenError(error) }
    }

    /// Runs `body` on the queue with the bus.
    private func onQueue<T: Sendable>(_ body: @escaping @Sendable (SessionBus) throws(ScreenSourceError) -> T)
        async throws -> T
    {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { () throws(ScreenSourceError) in try body(try self.openBus()) })
            }
        }
    }

    /// The bus, from any thread but the queue's.
    func openBusOnQueue() throws(ScreenSourceError) -> SessionBus {
        try queue.sync { Result { () throws(ScreenSourceError) in try openBus() } }.get()
    }

    /// The bus, connected on first use (on `queue`).
    private func openBus() throws(ScreenSourceError) -> SessionBus {
        if let bus { return bus }
        do { bus = try SessionBus() } catch { throw WaylandInput.screenError(error) }
        return bus!
    }

    // MARK: Input

    /// Input through the newest running capture's session, else through a session of its own (no pointer
    /// motion then: Mutter places the pointer only in a stream's coordinates).
    public var input: InputSink {
        RemoteInput.sink { (_, keysym, body: @escaping @Sendable (MutterSession) throws(DBusError) -> Void) in
            try await self.inject(keysym: keysym, body)
        }
    }

    private func inject(keysym: UInt32? = nil, _ body: @escaping @Sendable (MutterSession) throws(DBusError) -> Void)
        async throws
    {
        let failure = await onInputQueue { self.injectNow(keysym: keysym, body) }
        if let failure { throw failure }
    }

    private func injectNow(keysym: UInt32?, _ body: (MutterSession) throws(DBusError) -> Void) -> InputSinkError? {
        guard let session = inputSession() else { return .noDisplay }
        do {
            try body(session)
            return nil
        } catch {
            return WaylandInput.failure(error, keysym: keysym, droppedSession: { forget(session) })
        }
    }

    /// Runs `body` on the queue (where `inputSession` and `forget` may be called) and returns what it returns.
    func onInputQueue<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T { await sessions.run(body) }

    /// On the queue: the newest running capture's session, else the input-only one (opened when missing); nil
    /// when Mutter cannot be reached.
    func inputSession() -> MutterSession? {
        let session = sessions.current { () -> Result<MutterSession, ScreenSourceError> in
            guard let bus = try? openBus(), let opened = try? MutterSession(bus: bus, monitor: nil) else {
                return .failure(.noDisplay)
            }
            return .success(opened)
        }
        return try? session.get()
    }

    /// On the queue: after a failed call, forgets `session` if it is the input-only one.
    func forget(_ session: MutterSession) { sessions.forget(session) }
}
