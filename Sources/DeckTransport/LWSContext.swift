import CLibWebSockets
import Foundation

/// Owns one `lws_context` with its single vhost, and the C memory lws keeps pointers into (protocol table,
/// retry policy, strings) until the context is gone.
///
/// Thread-confined: created on the thread that calls `start()`, then handed to the service thread, which
/// alone services and destroys it.
final class LWSContext {
    let context: OpaquePointer
    let vhost: OpaquePointer
    private let protocols: UnsafeMutablePointer<lws_protocols>
    private let retryPolicy: UnsafeMutablePointer<lws_retry_bo_t>
    private let strings: [UnsafeMutablePointer<CChar>]

    /// Creates the context and binds the listening socket, so a taken port fails here, synchronously.
    /// `user` comes back from `lws_context_user` inside `serviceCallback`.
    init(configuration: ServerConfiguration, user: UnsafeMutableRawPointer) throws {
        lws_set_log_level(Int32(LLL_ERR), nil)
        let texts: [String] = [
            "touchdeck", configuration.certificate.serverCertificate.path,
            configuration.certificate.serverKey.path, "http/1.1",
        ]
        let strings = texts.map { strdup($0)! }
        protocols = Self.makeProtocols(name: strings[0])
        retryPolicy = .allocate(capacity: 1)
        retryPolicy.initialize(to: lws_retry_bo_t())
        retryPolicy.pointee.secs_since_valid_ping = configuration.pingInterval
        retryPolicy.pointee.secs_since_valid_hangup = configuration.deadPeerTimeout
        self.strings = strings

        var contextInfo = lws_context_creation_info()
        // lws 4.1 reads the UTF-8 check from the context's options, not the vhost's: without it here, text
        // frames that are not UTF-8 pass (DESIGN.md#transport wants them closed with 1007).
        contextInfo.options = LWSOption.doSSLGlobalInit | LWSOption.explicitVhosts | LWSOption.validateUTF8
        contextInfo.user = user
        guard let context = lws_create_context(&contextInfo) else {
            Self.free(protocols: protocols, retryPolicy: retryPolicy, strings: strings)
            throw TransportError.listen("lws_create_context failed")
        }
        var info = Self.vhostInfo(configuration, protocols: protocols, retryPolicy: retryPolicy, strings: strings)
        guard let vhost = lws_create_vhost(context, &info) else {
            lws_context_destroy(context)
            Self.free(protocols: protocols, retryPolicy: retryPolicy, strings: strings)
            throw TransportError.listen("cannot listen on port \(configuration.port) (in use, or TLS files unusable)")
        }
        self.context = context
        self.vhost = vhost
    }

    deinit {
        lws_context_destroy(context)
        Self.free(protocols: protocols, retryPolicy: retryPolicy, strings: strings)
    }

    /// The bound port; differs from the configured one when that was 0.
    var listenPort: Int { Int(lws_get_vhost_listen_port(vhost)) }

    private static func vhostInfo(
        _ configuration: ServerConfiguration, protocols: UnsafeMutablePointer<lws_protocols>,
        retryPolicy: UnsafeMutablePointer<lws_retry_bo_t>, strings: [UnsafeMutablePointer<CChar>]
    ) -> lws_context_creation_info {
        var info = lws_context_creation_info()
        info.port = Int32(configuration.port)
        info.protocols = UnsafePointer(protocols)
        info.vhost_name = UnsafePointer(strings[0])
        info.ssl_cert_filepath = UnsafePointer(strings[1])
        info.ssl_private_key_filepath = UnsafePointer(strings[2])
        // Only HTTP/1.1: WebSockets over h2 would need RFC 8441, which browsers do not use here.
        info.alpn = UnsafePointer(strings[3])
        info.retry_and_idle_policy = UnsafePointer(retryPolicy)
        TLSPolicy.apply(to: &info)
        // TLS and plain share the port: lws peeks at the first byte (0x16 = TLS hello) and, for plain,
        // drops TLS and serves HTTP/WS as is, without redirecting to https.
        info.options =
            LWSOption.allowNonSSLOnSSLPort | LWSOption.allowHTTPOnHTTPSListener | LWSOption.validateUTF8
            | LWSOption.failUponUnableToBind | LWSOption.disableOSCACerts
        return info
    }

    private static func makeProtocols(name: UnsafeMutablePointer<CChar>) -> UnsafeMutablePointer<lws_protocols> {
        // lws walks the table until an entry with a NULL callback, so the second entry stays zeroed.
        let table = UnsafeMutablePointer<lws_protocols>.allocate(capacity: 2)
        table.initialize(repeating: lws_protocols(), count: 2)
        table[0].name = UnsafePointer(name)
        table[0].callback = serviceCallback
        // lws hands a long message over in pieces of at most this size.
        table[0].rx_buffer_size = 64 * 1024
        return table
    }

    private static func free(
        protocols: UnsafeMutablePointer<lws_protocols>, retryPolicy: UnsafeMutablePointer<lws_retry_bo_t>,
        strings: [UnsafeMutablePointer<CChar>]
    ) {
        protocols.deinitialize(count: 2)
        protocols.deallocate()
        retryPolicy.deallocate()
        for string in strings { Foundation.free(string) }
    }
}

@available(*, unavailable) extension LWSContext: Sendable {}

/// `LWS_SERVER_OPTION_*` values from lws-context-vhost.h (4.1). Several are ORs of two bits, a macro
/// form Swift does not import, so they are spelled out here.
enum LWSOption {
    static let doSSLGlobalInit: UInt64 = 1 << 12
    static let allowNonSSLOnSSLPort: UInt64 = (1 << 3) | doSSLGlobalInit
    /// The server never checks client certificates, so the system's trust store need not be loaded.
    static let disableOSCACerts: UInt64 = 1 << 6
    static let validateUTF8: UInt64 = 1 << 8
    static let explicitVhosts: UInt64 = 1 << 13
    static let allowHTTPOnHTTPSListener: UInt64 = 1 << 29
    static let failUponUnableToBind: UInt64 = 1 << 30
}
