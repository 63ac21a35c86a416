/// Protocol numbers both sides announce (`hello.protocol`, `authorized.protocol`).
///
/// Features follow the lower of the two numbers; a gap never disconnects.
public enum ProtocolVersion {
    /// Buttons, volume, keypad, screen viewing.
    public static let legacy = 1
    /// Adds text input (`typeText`, `pressKey`).
    public static let typing = 2
    /// Adds the hotkey, text and open keys (a device at 2 or older shows them as plain keys it can press).
    public static let current = 3

    /// The number both sides work at.
    public static func agreed(device: Int, host: Int) -> Int { min(device, host) }

    /// What each side should say about a gap, if anything.
    public enum Gap: Equatable, Sendable {
        case none
        /// The host is older: the web client says "update the TouchDeck host".
        case hostOutdated
        /// The device is older: the host lists it as "(app update needed)".
        case deviceOutdated
    }

    public static func gap(device: Int, host: Int) -> Gap {
        if device == host { return .none }
        return device > host ? .hostOutdated : .deviceOutdated
    }
}
