import Foundation

/// The one address devices are given, in every place that gives one: the daemon's HTTPS address
/// (`touchdeck status` and `pair`, `make run`), the setup page's QR code and link, and the setup page itself.
/// A device pairs per address (its browser keeps the pairing per origin), so two addresses for one computer
/// pair the same device twice.
public enum SetupLink {
    /// The address the setup page leads to: the first IPv4 address, which works with or without mDNS, else the
    /// first one given (`name.local` when the computer has no IPv4 address). The daemon's own address follows
    /// the same rule (`HostDaemon.primaryAddress`: a LAN IPv4 address first, else `name.local`).
    public static func preferred(_ addresses: [String]) -> String? {
        addresses.first(where: isIPv4) ?? addresses.first
    }

    /// `http://host:port/setup` for the app's `https://host:port/`: the plain-HTTP page on the same address and
    /// port that offers the certificate; nil for anything else.
    public static func page(forApp url: String) -> String? {
        guard var parts = URLComponents(string: url), parts.scheme == "https", parts.host != nil else { return nil }
        parts.scheme = "http"
        parts.path = "/setup"
        return parts.string
    }

    static func isIPv4(_ address: String) -> Bool {
        let parts = address.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { UInt8($0) != nil }
    }
}
