import Foundation

/// The seam between screen viewing and the desktop it shows (SPEC §7, STYLE practice 1): the rest of the
/// host asks this for monitors and pictures and never learns whether X11 or a Wayland compositor answers.
///
/// It lists monitors, takes one-shot grabs (for `listDisplays`' thumbnails) and starts continuous captures
/// that deliver frames (`CapturedFrame`: the `ScreenImage` layout, the damaged rectangles, the cursor drawn
/// in) on the back-end's own thread — X11's XShm + XDamage loop, or PipeWire's callback for Wayland — so the
/// pipeline behind it stays the same for every back-end.
///
/// Both calls may block on the desktop for a while; the back-ends run them on their own queue, never on the
/// caller's actor.
public struct ScreenSource: Sendable {
    /// The monitors now, left to right; throws `ScreenSourceError.noDisplay` when there is no desktop.
    public var monitors: @Sendable () async throws -> [Monitor]
    /// One picture of the monitor's rectangle as it is now; throws a `ScreenSourceError`.
    public var grab: @Sendable (Monitor) async throws -> ScreenImage
    /// Starts a continuous capture of one monitor; returns at once, frames follow on the back-end's thread.
    public var capture: StartCapture
    /// Whether the next capture will wait for the computer's user to approve it (the ScreenCast portal before
    /// its first approval); quick, reads no more than a file.
    public var needsApproval: @Sendable () -> Bool

    /// A source from its operations.
    public init(
        monitors: @escaping @Sendable () async throws -> [Monitor],
        grab: @escaping @Sendable (Monitor) async throws -> ScreenImage,
        capture: @escaping StartCapture = { _, _, _ in throw ScreenSourceError.noDisplay },
        needsApproval: @escaping @Sendable () -> Bool = { false }
    ) {
        self.monitors = monitors
        self.grab = grab
        self.capture = capture
        self.needsApproval = needsApproval
    }

    /// The X server at `display` (nil: `$DISPLAY` of the host process): XRandR monitors, XShm grabs (XGetImage
    /// where shared memory cannot be used). The display is opened on first use and again after it goes away.
    /// Each capture (`X11Capture`) opens a connection of its own, used only on its own thread.
    public static func x11(display: String? = nil) -> ScreenSource {
        let screen = X11Screen(displayName: display)
        return ScreenSource(
            monitors: { try await screen.monitors() }, grab: { try await screen.grab($0) },
            capture: { monitor, fps, handlers in
                try X11Capture(display: display, monitor: monitor, fps: fps, handlers: handlers)
            })
    }

    /// Lists `monitors` and grabs each as `pictures` says (nil: `noSuchMonitor`), reporting every grab to
    /// `grabbed`.
    /// Captures start a `FakeCapture` handed to `started`, which the test drives.
    public static func fake(
        monitors: [Monitor], pictures: @escaping @Sendable (Monitor) -> ScreenImage?,
        grabbed: @escaping @Sendable (Monitor) -> Void = { _ in },
        started: @escaping @Sendable (FakeCapture) -> Void = { _ in }
    ) -> ScreenSource {
        ScreenSource(
            monitors: { monitors },
            grab: { monitor in
                grabbed(monitor)
                guard let picture = pictures(monitor) else { throw ScreenSourceError.noSuchMonitor }
                return picture
            },
            capture: { monitor, fps, handlers in
                guard monitors.contains(monitor) else { throw ScreenSourceError.noSuchMonitor }
                let capture = FakeCapture(monitor: monitor, fps: fps, handlers: handlers)
                started(capture)
                return capture
            })
    }

    /// A host with no desktop: every call throws `noDisplay`.
    public static let noDisplay = ScreenSource(
        monitors: { throw ScreenSourceError.noDisplay }, grab: { _ in throw ScreenSourceError.noDisplay },
        capture: { _, _, _ in throw ScreenSourceError.noDisplay })

    /// Traps if called: for tests that must never reach the screen.
    public static let unimplemented = ScreenSource(
        monitors: { preconditionFailure("ScreenSource.monitors called in a test that does not expect it") },
        grab: { _ in preconditionFailure("ScreenSource.grab called in a test that does not expect it") },
        capture: { _, _, _ in preconditionFailure("ScreenSource.capture called in a test that does not expect it") })
}
