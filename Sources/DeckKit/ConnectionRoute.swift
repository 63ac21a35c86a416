/// Which way a device's connection runs, shown next to "Connected".
public enum ConnectionRoute: String, Sendable, CaseIterable {
    /// Device to device without an access point (Apple's AWDL, Wi-Fi Direct).
    case direct
    /// Through the same Wi-Fi network.
    case sameWiFi
    /// Over a cable.
    case wired
    /// Anything else (loopback, VPN, unknown).
    case other

    /// Interface-name prefixes of direct links. They report themselves as Wi-Fi too, so the name is
    /// checked first: `awdl`/`llw` on Apple systems, `p2p-` for Wi-Fi Direct groups on Linux.
    public static let directPrefixes = ["awdl", "llw", "p2p-"]

    /// Decides from the interface the connection uses: a direct-link name wins, then Wi-Fi, then wired.
    public init(interfaceName name: String?, isWiFi: Bool, isWired: Bool) {
        if let name, Self.directPrefixes.contains(where: name.hasPrefix) {
            self = .direct
        } else if isWiFi {
            self = .sameWiFi
        } else if isWired {
            self = .wired
        } else {
            self = .other
        }
    }

    /// Decides from a Linux interface name alone, using systemd's predictable naming
    /// (`wl…` Wi-Fi, `en…` Ethernet) and the classic `eth…`.
    public init(linuxInterface name: String?) {
        let name = name ?? ""
        self.init(
            interfaceName: name,
            isWiFi: name.hasPrefix("wl"),
            isWired: name.hasPrefix("en") || name.hasPrefix("eth"))
    }

    /// Short text for a status line.
    public var label: String {
        switch self {
        case .direct: "direct"
        case .sameWiFi: "same Wi-Fi"
        case .wired: "wired"
        case .other: "network"
        }
    }
}
