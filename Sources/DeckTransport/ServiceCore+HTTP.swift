import CLibWebSockets
import Foundation

extension ServiceCore {
    /// lws delivers bodies in pieces the socket can take; this is the most written per callback.
    static let httpChunkSize = 32 * 1024

    /// The host's responder first, then the web root (over TLS, or plain HTTP from this computer), else 404.
    func httpRequest(_ wsi: OpaquePointer, path: String?) -> Int32 {
        let isLoopback = PeerAddress.isLoopback(PeerAddress.of(wsi))
        let request = HTTPRequest(path: path ?? "/", isTLS: lws_is_ssl(wsi) != 0, isLoopback: isLoopback)
        let servesFiles = request.isTLS || (request.isLoopback && configuration.servesWebRootToLoopbackHTTP)
        let response =
            handler.http(request) ?? (servesFiles ? staticFiles?.response(forPath: request.path) : nil)
            ?? .notFound
        return startResponse(wsi, response)
    }

    private func startResponse(_ wsi: OpaquePointer, _ response: HTTPResponse) -> Int32 {
        let extra = response.headers.map { ($0.key.lowercased() + ":", $0.value) }.sorted { $0.0 < $1.0 }
        let space = 1024 + extra.reduce(0) { $0 + $1.0.utf8.count + $1.1.utf8.count + 4 }
        let headroom = Int(touchdeck_lws_pre())
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: headroom + space)
        defer { buffer.deallocate() }
        let start = buffer + headroom
        let end = start + space - 1
        var cursor: UnsafeMutablePointer<UInt8>? = start
        let status = UInt32(response.status)
        let length = lws_filepos_t(response.body.count)
        guard lws_add_http_common_headers(wsi, status, response.contentType, length, &cursor, end) == 0 else {
            return -1
        }
        // The web client changes while the host runs; browsers must ask again rather than use stale modules.
        for (name, value) in extra + [("cache-control:", "no-cache")] {
            let added = lws_add_http_header_by_name(wsi, name, value, Int32(value.utf8.count), &cursor, end)
            guard added == 0 else { return -1 }
        }
        guard lws_finalize_write_http_header(wsi, start, &cursor, end) == 0 else { return -1 }
        if response.body.isEmpty { return lws_http_transaction_completed(wsi) != 0 ? -1 : 0 }
        httpBodies[wsi] = PendingBody(data: response.body)
        lws_callback_on_writable(wsi)
        return 0
    }

    func httpWriteable(_ wsi: OpaquePointer) -> Int32 {
        guard var pending = httpBodies[wsi] else { return 0 }
        let count = min(pending.data.count - pending.offset, Self.httpChunkSize)
        let isLast = pending.offset + count == pending.data.count
        let start = pending.data.startIndex + pending.offset
        let chunk = pending.data.subdata(in: start..<start + count)
        guard write(wsi, chunk, as: isLast ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) else { return -1 }
        if isLast {
            httpBodies[wsi] = nil
            // Keep-alive: the connection waits for the next request unless lws says it must close.
            return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
        }
        pending.offset += count
        httpBodies[wsi] = pending
        lws_callback_on_writable(wsi)
        return 0
    }
}
