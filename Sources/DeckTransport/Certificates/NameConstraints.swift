import Foundation
import Glibc

/// What the local CA may sign for (DESIGN.md#local-ca): the host's own names, its addresses when the CA is made and the
/// private address ranges. Written into the CA as a critical Name Constraints extension, so that its key, if
/// it ever leaks, cannot sign a certificate any device accepts for a public site.
struct NameConstraints: Equatable {
    /// Addresses that never route on the internet: loopback, RFC 1918, link-local, IPv6 unique-local.
    static let privateRanges: [IPRange] = [
        "127.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16",
        "::1/128", "fc00::/7", "fe80::/10",
    ]

    /// DNS subtrees; each also permits its subdomains (RFC 5280 §4.2.1.10).
    var dnsNames: [String]
    /// Permitted address ranges.
    var ipRanges: [IPRange]

    /// The identity's names, its addresses that the private ranges do not already hold, and the private ranges.
    init(identity: LocalIdentity) {
        dnsNames = identity.dnsNames
        let own = identity.ipAddresses.compactMap(IPRange.init(host:))
        ipRanges = Self.privateRanges + own.filter { address in !Self.privateRanges.contains { $0.contains(address) } }
    }

    /// The extension as `X509V3_EXT_conf_nid` reads it:
    /// `critical,permitted;DNS:desk,permitted;IP:10.0.0.0/255.0.0.0,…`.
    var extensionValue: String {
        let names = dnsNames.map { "permitted;DNS:\($0)" } + ipRanges.map { "permitted;IP:\($0.addressAndMask)" }
        return (["critical"] + names).joined(separator: ",")
    }
}

/// An IPv4 or IPv6 network: address bytes and a prefix length.
struct IPRange: Equatable {
    /// 4 or 16 bytes, host bits zero.
    let bytes: [UInt8]
    let prefixLength: Int

    /// `10.0.0.0/8`, `fc00::/7`; nil when it does not parse.
    init?(cidr: String) {
        let parts = cidr.split(separator: "/", maxSplits: 1).map(String.init)
        guard parts.count == 2, let bytes = Self.parse(parts[0]), let length = Int(parts[1]),
            (0...bytes.count * 8).contains(length)
        else { return nil }
        self.init(bytes: bytes, prefixLength: length)
    }

    /// One address as a range of one.
    init?(host: String) {
        guard let bytes = Self.parse(host) else { return nil }
        self.init(bytes: bytes, prefixLength: bytes.count * 8)
    }

    private init(bytes: [UInt8], prefixLength: Int) {
        self.bytes = zip(bytes, Self.mask(length: prefixLength, count: bytes.count)).map { $0 & $1 }
        self.prefixLength = prefixLength
    }

    /// Whether `other` (a network or single address of the same family) lies inside this one.
    func contains(_ other: IPRange) -> Bool {
        guard other.bytes.count == bytes.count, other.prefixLength >= prefixLength else { return false }
        let mask = Self.mask(length: prefixLength, count: bytes.count)
        return zip(zip(other.bytes, mask), bytes).allSatisfy { $0.0 & $0.1 == $1 }
    }

    /// `10.0.0.0/255.0.0.0` or `fc00::/fe00::`: OpenSSL's config syntax writes the mask as an address.
    var addressAndMask: String {
        "\(Self.format(bytes))/\(Self.format(Self.mask(length: prefixLength, count: bytes.count)))"
    }

    private static func mask(length: Int, count: Int) -> [UInt8] {
        (0..<count).map { index in
            let bits = min(max(length - index * 8, 0), 8)
            return bits == 0 ? 0 : UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
        }
    }

    /// The address bytes of a numeric IPv4 or IPv6 address.
    static func parse(_ text: String) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 16)
        if inet_pton(AF_INET, text, &buffer) == 1 { return Array(buffer.prefix(4)) }
        if inet_pton(AF_INET6, text, &buffer) == 1 { return buffer }
        return nil
    }

    private static func format(_ bytes: [UInt8]) -> String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        _ = inet_ntop(family, bytes, &text, socklen_t(text.count))
        return String(cBuffer: text)
    }
}

extension IPRange: ExpressibleByStringLiteral {
    /// For the fixed tables above; a literal that does not parse is a programmer error.
    init(stringLiteral value: String) {
        guard let range = IPRange(cidr: value) else { preconditionFailure("bad range literal \(value)") }
        self = range
    }
}
