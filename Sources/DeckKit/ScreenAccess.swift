/// Whether a device may view a screen now.
///
/// The checks run in a fixed order and the first that fails answers. "Not allowed" comes first so a
/// device that may not view learns nothing else (whether capture works, whether the host is locked,
/// who is watching).
public enum ScreenAccess {
    /// The device currently viewing.
    public struct Viewer: Equatable, Hashable, Sendable {
        public var deviceId: String
        /// Shown to a device that is refused because this one is viewing.
        public var name: String

        public init(deviceId: String, name: String) {
            self.deviceId = deviceId
            self.name = name
        }
    }

    /// The answer to a request to view.
    public enum Decision: Equatable, Hashable, Sendable {
        /// Nobody is viewing: start.
        case start
        /// The same device asked again (a reconnect, a second tab): it carries on.
        case resume
        case notAllowed
        case noPermission
        case locked
        /// Another device is viewing; `viewer` is its name.
        case busy(viewer: String)

        /// Whether viewing may go on.
        public var permitsViewing: Bool { self == .start || self == .resume }

        /// The `screenDenied` message for a refusal, nil when viewing is permitted.
        public var denial: HostMessage.ScreenDenied? {
            switch self {
            case .start, .resume: nil
            case .notAllowed: HostMessage.ScreenDenied(reason: .notAllowed)
            case .noPermission: HostMessage.ScreenDenied(reason: .noPermission)
            case .locked: HostMessage.ScreenDenied(reason: .locked)
            case .busy(let viewer): HostMessage.ScreenDenied(reason: .busy, viewer: viewer)
            }
        }
    }

    /// Decides in this order: allowed → capture possible → unlocked → nobody else viewing.
    ///
    /// The host also calls it every second while a device views (with that device as `viewer`); any
    /// answer but `.resume` then ends viewing, so locking or withdrawing permission stops it at once.
    ///
    /// - Parameters:
    ///   - allowed: the requesting device's "screen allowed" setting.
    ///   - permission: whether the host can capture at all (a display is reachable).
    ///   - locked: host locked or screensaver on.
    ///   - viewer: who views now, if anyone.
    ///   - requester: the asking device's id.
    public static func decide(
        allowed: Bool, permission: Bool, locked: Bool, viewer: Viewer?, requester: String
    ) -> Decision {
        guard allowed else { return .notAllowed }
        if !permission { return .noPermission }
        guard !locked else { return .locked }
        guard let viewer else { return .start }
        return viewer.deviceId == requester ? .resume : .busy(viewer: viewer.name)
    }
}
