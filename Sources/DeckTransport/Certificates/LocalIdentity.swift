import Foundation
import Glibc

/// The names and addresses a device may use to reach this computer; the server certificate must cover all.
public struct LocalIdentity: Equatable, Sendable {
    /// DNS names, e.g. `desk`, `desk.local`, `localhost`.
    public var dnsNames: [String]
    /// Numeric IPv4/IPv6 addresses, e.g. `192.168.1.20`, `127.0.0.1`, `::1`.
    public var ipAddresses: [String]

    /// Names and addresses as given.
    public init(dnsNames: [String], ipAddresses: [String]) {
        self.dnsNames = dnsNames
        self.ipAddresses = ipAddresses
    }

    /// This computer now: its hostname, `hostname.local`, `localhost`, every up interface's address and
    /// the loopback addresses.
    public static func current() -> LocalIdentity {
        LocalIdentity(dnsNames: names(hostName: currentHostName()), ipAddresses: interfaceAddresses())
    }

    /// `host`, its `.local` form and `localhost`, without duplicates.
    static func names(hostName: String) -> [String] {
        let short = hostName.split(separator: ".").first.map(String.init) ?? ""
        let candidates = [hostName, short.isEmpty ? "" : "\(short).local", "localhost"]
        return unique(candidates.filter { !$0.isEmpty && $0 != "localhost.local" })
    }

    static func currentHostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        return String(cBuffer: buffer).lowercased()
    }

    /// Addresses of interfaces that are up, plus 127.0.0.1 and ::1. IPv6 link-local addresses are left
    /// out: a URL can only reach them with a zone id, which no certificate can name.
    static func interfaceAddresses() -> [String] {
        var found = ["127.0.0.1", "::1"]
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return found }
        defer { freeifaddrs(list) }
        var cursor = list
        while let entry = cursor {
            if let address = numericAddress(entry.pointee), !address.hasPrefix("fe80:") { found.append(address) }
            cursor = entry.pointee.ifa_next
        }
        return unique(found)
    }

    private static func numericAddress(_ entry: ifaddrs) -> String? {
        guard let socketAddress = entry.ifa_addr, entry.ifa_flags & UInt32(IFF_UP) != 0 else { return nil }
        let family = Int32(socketAddress.pointee.sa_family)
        guard family == AF_INET || family == AF_INET6 else { return nil }
        let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let status = getnameinfo(socketAddress, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST)
        guard status == 0 else { return nil }
        return String(cBuffer: host).lowercased()
    }

    private static func unique(_ items: [String]) -> [String] {
        var seen = Set<String>()
        return items.filter { seen.insert($0).inserted }
    }
}
