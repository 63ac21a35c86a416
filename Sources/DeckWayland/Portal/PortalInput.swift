import DeckDesktop
import Foundation

/// Input through the RemoteDesktop portal (KDE): the pointer, the keypad and typing go through the newest running
/// capture's remote-desktop session, whose approval covered them; with none running, through a session of their
/// own without a stream (the user is asked on the computer unless the portal kept an earlier approval; no
/// pointer motion then), closed after `inputIdle` seconds unused. Keysyms are placed by the compositor on its
/// layout, so every keysym is checked against the layout first (`KeysymSession`).
extension PortalDesktop {
    public var input: InputSink {
        RemoteInput.sink { (pointer, keysym, body: @escaping @Sendable (PortalSession) throws(DBusError) -> Void) in
            try await self.inject(
                device: pointer ? PortalSession.pointer : PortalSession.keyboard, keysym: keysym, body)
        }
    }

    /// Keypad keys as keysyms through the portal.
    public var keypad: KeyInjector {
        WaylandStrokes.keypad { await self.type($0) }
    }

    /// Text and the keyboard row's keys as keysyms through the portal.
    public var typing: TypingSink {
        WaylandStrokes.typing { await self.type($0) }
    }

    /// What the device is told when the user did not allow remote control.
    static let notAllowed = "the computer's user did not allow remote control"

    func type(_ strokes: [WaylandStroke]) async -> ActionResult {
        await onInputQueue {
            let session: PortalSession
            switch self.inputSession() {
            case .success(let opened): session = opened
            case .failure(let error): return .failed(Self.text(error))
            }
            guard session.devices & PortalSession.keyboard != 0 else { return .failed(Self.notAllowed) }
            do { return try session.type(strokes) } catch {
                self.forget(session)
                return .failed("no display")
            }
        }
    }

    private static func text(_ error: PortalError) -> String {
        switch error {
        case .denied: notAllowed
        case .failed(let text) where text == noInputReason: text
        case .failed(let text): "desktop portal: \(text)"
        }
    }

    private func inject(
        device: UInt32, keysym: UInt32? = nil, _ body: @escaping @Sendable (PortalSession) throws(DBusError) -> Void
    ) async throws {
        let failure: InputSinkError? = await onInputQueue { () -> InputSinkError? in
            guard self.remoteDesktop != nil else { return .noInjection }
            guard case .success(let session) = self.inputSession() else { return .noDisplay }
            guard session.devices & device != 0 else { return .noInjection }
            do throws(DBusError) {
                try body(session)
                return nil
            } catch {
                return WaylandInput.failure(error, keysym: keysym, droppedSession: { self.forget(session) })
            }
        }
        if let failure { throw failure }
    }

    private func onInputQueue<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T { await sessions.run(body) }

    /// On the input queue: the newest running capture's session, else the input-only one (opened when missing:
    /// this may wait for the user's answer on the computer).
    private func inputSession() -> Result<PortalSession, PortalError> {
        sessions.current { () -> Result<PortalSession, PortalError> in
            guard remoteDesktop != nil else { return .failure(.failed(Self.noInputReason)) }
            do {
                let bus = try SessionBus()
                let opened = try PortalSession(bus: bus, kind: kind(monitor: false), restoreToken: token.load())
                if let renewed = opened.restoreToken { try? token.save(renewed) }
                return .success(opened)
            } catch let error as PortalError {
                return .failure(error)
            } catch {
                return .failure(.failed("\(error)"))
            }
        }
    }

    /// On the input queue: after a failed call, ends and forgets `session` if it is the input-only one.
    private func forget(_ session: PortalSession) { sessions.forget(session) }
}
