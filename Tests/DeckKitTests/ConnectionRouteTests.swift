import DeckKit
import Testing

/// Seed part 1: a direct link reports itself as Wi-Fi, so its name is checked first.
@Test(
    arguments: [
        ("awdl0", true, false, ConnectionRoute.direct),
        ("llw0", true, false, .direct),
        ("awdl0", false, true, .direct),
        ("en0", true, false, .sameWiFi),
        ("en0", false, true, .wired),
        ("en0", true, true, .sameWiFi),
        ("utun3", false, false, .other),
        (nil, false, false, .other),
        (nil, true, false, .sameWiFi),
    ] as [(String?, Bool, Bool, ConnectionRoute)])
func routeFromInterface(name: String?, isWiFi: Bool, isWired: Bool, expected: ConnectionRoute) {
    #expect(ConnectionRoute(interfaceName: name, isWiFi: isWiFi, isWired: isWired) == expected)
}

@Test(
    arguments: [
        ("wlan0", ConnectionRoute.sameWiFi),
        ("wlp3s0", .sameWiFi),
        ("p2p-wlan0-0", .direct),
        ("enp0s31f6", .wired),
        ("eno1", .wired),
        ("eth0", .wired),
        ("lo", .other),
        ("tailscale0", .other),
    ] as [(String, ConnectionRoute)])
func routeFromLinuxInterfaceName(name: String, expected: ConnectionRoute) {
    #expect(ConnectionRoute(linuxInterface: name) == expected)
}

@Test func unknownLinuxInterfaceIsOther() {
    #expect(ConnectionRoute(linuxInterface: nil) == .other)
    #expect(ConnectionRoute.allCases.map(\.label) == ["direct", "same Wi-Fi", "wired", "network"])
}
