import DeckKit
import Foundation

/// A monitor a back-end made for a device (Extend), and how it is captured and driven.
public struct VirtualMonitor: Sendable {
    /// The monitor as `displays` would list it: its frame's size is the stream's, in device pixels.
    public var monitor: Monitor
    /// Where the pointer lands across it, in the desktop's input coordinates (layout pixels on a scaled Wayland
    /// output, where the frame's size is in device pixels).
    public var pointerArea: PixelRect
    /// How to capture it, when the desktop's usual capture cannot (the portal's is a session of its own); nil: the
    /// desktop's screen source captures it like any monitor.
    public var capture: StartCapture?

    public init(monitor: Monitor, pointerArea: PixelRect? = nil, capture: StartCapture? = nil) {
        self.monitor = monitor
        self.pointerArea = pointerArea ?? monitor.frame
        self.capture = capture
    }
}

/// The seam for Extend (DESIGN.md#seams, PROTOCOL §6 "Extend"): a back-end that can add a monitor to its desktop
/// makes one of a device's size and scale beside the others, and takes it away again. Every call may block on the
/// desktop (an IPC round trip, a RandR request): the host makes them off its actor, one at a time.
public struct VirtualMonitors: Sendable {
    /// Why this desktop cannot add a monitor now; nil when it can. Quick: asks the desktop at most once.
    public var unavailable: @Sendable () -> String?
    /// Adds a monitor of the request's size, scale and placement (or re-uses one this host made before); throws
    /// `ScreenSourceError.captureFailed` with the desktop's words when it cannot.
    public var create: @Sendable (ExtendRequest) throws -> VirtualMonitor
    /// Gives a monitor made before (no capture on it now) the request's size, scale and placement in place, so its
    /// windows stay on it (a device that turned); nil where the desktop cannot, and a turn makes a new monitor.
    public var resize: (@Sendable (Monitor, ExtendRequest) throws -> VirtualMonitor)?
    /// Takes the monitor away (or, where the desktop cannot remove it, parks it emptied), and puts the other
    /// monitors back as they were. Never throws: what fails is logged by the back-end's caller through the result.
    public var remove: @Sendable (Monitor) -> String?
    /// What a host that did not end cleanly left (read from its record): removed now; the answer says what was done.
    public var cleanUp: @Sendable () -> String?
    /// The monitors this host made that exist now (for `touchdeck status`).
    public var existing: @Sendable () -> [String]
    /// The names of monitors made and parked (not removable here): left out of `displays`, nobody is meant to view
    /// them. Quick: reads the record.
    public var parked: @Sendable () -> Set<String>
    /// Whether making a monitor for the request puts a question on the computer's screen first (the portal's virtual
    /// monitors: once per size); nil: as the screen source says (`ScreenSource.needsApproval(nil)`). Quick.
    public var needsApproval: (@Sendable (ExtendRequest) -> Bool)?

    public init(
        unavailable: @escaping @Sendable () -> String?,
        create: @escaping @Sendable (ExtendRequest) throws -> VirtualMonitor,
        remove: @escaping @Sendable (Monitor) -> String?,
        cleanUp: @escaping @Sendable () -> String? = { nil },
        existing: @escaping @Sendable () -> [String] = { [] },
        parked: @escaping @Sendable () -> Set<String> = { [] },
        resize: (@Sendable (Monitor, ExtendRequest) throws -> VirtualMonitor)? = nil,
        needsApproval: (@Sendable (ExtendRequest) -> Bool)? = nil
    ) {
        self.unavailable = unavailable
        self.create = create
        self.resize = resize
        self.remove = remove
        self.cleanUp = cleanUp
        self.existing = existing
        self.parked = parked
        self.needsApproval = needsApproval
    }

    /// A desktop that cannot add a monitor, and why.
    public static func notOffered(_ reason: String) -> VirtualMonitors {
        VirtualMonitors(
            unavailable: { reason }, create: { _ in throw ScreenSourceError.captureFailed(reason) },
            remove: { _ in nil })
    }

    /// Traps if called: for tests that must never reach the desktop.
    public static let unimplemented = VirtualMonitors(
        unavailable: { preconditionFailure("VirtualMonitors.unavailable called in a test that does not expect it") },
        create: { _ in preconditionFailure("VirtualMonitors.create called in a test that does not expect it") },
        remove: { _ in preconditionFailure("VirtualMonitors.remove called in a test that does not expect it") })
}
