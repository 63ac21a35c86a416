import DeckActions
import DeckScreen
import Dispatch
import Foundation

/// KDE, wlroots and other Wayland desktops without Mutter, through the ScreenCast portal (SPEC §7): monitors from
/// the compositor's outputs, captures through `PortalCapture` (the user approves once; the restore token is kept in
/// the config dir). No input yet: the pointer and the keypad answer that this desktop cannot take them.
public final class PortalDesktop: Sendable {
    private let token: PortalRestoreToken
    private let queue = DispatchQueue(label: "touchdeck.portal")

    /// A desktop whose restore token lives in `configDirectory`.
    public init(configDirectory: URL) { token = PortalRestoreToken(directory: configDirectory) }

    /// Whether the ScreenCast portal (version 4: persistent sessions) answers on the session bus.
    public static func isAvailable() -> Bool {
        guard let bus = try? SessionBus(),
            let version = try? bus.property(
                PortalSession.portal, PortalSession.objectPath, PortalSession.screenCast, "version")
        else { return false }
        return version.isOfType("u") && version.uint32 >= 4
    }

    public var screen: ScreenSource {
        let token = token
        let start: StartCapture = { _, fps, handlers in
            try PortalCapture(bus: try Self.bus(), token: token, fps: fps, handlers: handlers)
        }
        return ScreenSource(
            monitors: {
                try await self.blocking { () throws(ScreenSourceError) in
                    guard let outputs = WaylandOutputs.current(), !outputs.isEmpty else { throw .noDisplay }
                    return outputs
                }
            },
            // A still screen sends no first frame through some back-ends (xdg-desktop-portal-wlr waits for
            // damage): a thumbnail waits 3 s at most, then the display is listed without one. Before the user
            // first approved there is no thumbnail at all: listing must not put a dialog on the computer's screen.
            grab: { monitor in
                try await self.blocking { () throws(ScreenSourceError) in
                    guard token.load() != nil else { throw .captureFailed("screen sharing is not approved yet") }
                    return try grabFirstFrame(monitor, start, seconds: 3)
                }
            },
            capture: start,
            // No restore token: the portal asks the user (KDE's dialog; a refused or stale token asks again).
            needsApproval: { token.load() == nil })
    }

    /// Input the portal desktop cannot take yet (the wlroots virtual pointer and keyboard are still to come).
    public static let input = InputSink(
        movePointer: { _ in throw InputSinkError.noInjection }, setButton: { _, _ in throw InputSinkError.noInjection },
        scroll: { _, _ in throw InputSinkError.noInjection }, tapKeysym: { _ in throw InputSinkError.noInjection })

    /// Keypad keys the portal desktop cannot type yet.
    public static let keypad = KeyInjector { _ in .failed("typing is not supported on this desktop yet") }

    private static func bus() throws(ScreenSourceError) -> SessionBus {
        do { return try SessionBus() } catch { throw MutterDesktop.screenError(error) }
    }

    private func blocking<T: Sendable>(_ body: @escaping @Sendable () throws(ScreenSourceError) -> T) async throws -> T
    {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { () throws(ScreenSourceError) in try body() }) }
        }
    }
}
