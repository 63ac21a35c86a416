import Foundation

/// Which browser pages may open a WebSocket to the host (DESIGN.md#transport). A browser always sends `Origin`; a page
/// elsewhere must not use the user's browser to guess PINs or fill the waiting room, so only the host's own
/// origins pass: `https://<a name or address in the server certificate>:<port>`, and, when the app is served
/// over plain HTTP on loopback, `http://<loopback>:<port>`. No `Origin` at all is a board or a tool: allowed.
struct OriginPolicy {
    /// Whether the server certificate names `host` (a lowercase DNS name or a numeric address).
    var certifies: (String) -> Bool
    /// Whether the app is also served over plain HTTP to loopback peers, whose pages then have an http origin.
    var servesAppOnLoopbackHTTP: Bool

    /// Whether a WebSocket upgrade carrying `origin` (nil: no header) may go ahead on `port`.
    func allows(_ origin: String?, port: Int) -> Bool {
        guard let origin else { return true }
        guard let parsed = Origin(origin), parsed.port == port else { return false }
        switch parsed.scheme {
        case "https": return certifies(parsed.host)
        case "http": return servesAppOnLoopbackHTTP && Self.isLoopback(parsed.host)
        default: return false
        }
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || (host.hasPrefix("127.") && Origin.isIPv4(host))
    }
}

/// `scheme://host[:port]` as RFC 6454 serializes an origin; anything else (a path, user info, `null`) is nil.
struct Origin: Equatable {
    let scheme: String
    /// Lowercase; an IPv6 address without its brackets.
    let host: String
    let port: Int

    init?(_ text: String) {
        let lowered = text.lowercased()
        guard let separator = lowered.range(of: "://") else { return nil }
        scheme = String(lowered[..<separator.lowerBound])
        let authority = lowered[separator.upperBound...]
        guard !authority.isEmpty, !authority.contains(where: { "/?#@ ".contains($0) }) else { return nil }
        let defaultPort = scheme == "https" ? 443 : scheme == "http" ? 80 : nil
        let (host, portText) = Self.split(authority)
        guard let host, !host.isEmpty else { return nil }
        guard let port = portText.map({ Int($0) }) ?? defaultPort, (1...65535).contains(port) else { return nil }
        self.host = host
        self.port = port
    }

    /// Host and optional port text; the host is nil when the brackets of an IPv6 address do not close.
    private static func split(_ authority: Substring) -> (String?, Substring?) {
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return (nil, nil) }
            let host = String(authority[authority.index(after: authority.startIndex)..<close])
            let rest = authority[authority.index(after: close)...]
            if rest.isEmpty { return (host, nil) }
            return rest.hasPrefix(":") ? (host, rest.dropFirst()) : (nil, nil)
        }
        let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return (nil, nil) }
        return (String(parts[0]), parts.count == 2 ? parts[1] : nil)
    }

    static func isIPv4(_ host: String) -> Bool {
        var address = in_addr()
        return inet_pton(AF_INET, host, &address) == 1
    }

    /// Whether `host` is a numeric address (IPv4, or IPv6 already without brackets).
    static func isNumeric(_ host: String) -> Bool {
        var address = in6_addr()
        return isIPv4(host) || inet_pton(AF_INET6, host, &address) == 1
    }
}
