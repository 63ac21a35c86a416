import Foundation

/// The seam between screen viewing and the desktop it shows (DESIGN.md#viewing, #seams): the rest of the
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
    /// Whether the next capture of the monitor (nil: the one Extend makes) will wait for the computer's user to
    /// approve it (the ScreenCast portal before its first approval of that monitor); quick, reads no more than a file.
    public var needsApproval: @Sendable (Monitor?) -> Bool

    /// A source from its operations.
    public init(
        monitors: @escaping @Sendable () async throws -> [Monitor],
        grab: @escaping @Sendable (Monitor) async throws -> ScreenImage,
        capture: @escaping StartCapture = { _, _, _ in throw ScreenSourceError.noDisplay },
        needsApproval: @escaping @Sendable (Monitor?) -> Bool = { _ in false }
    ) {
        self.monitors = monitors
        self.grab = grab
        self.capture = capture
        self.needsApproval = needsApproval
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
