import CLibWebSockets
import Foundation

extension ServiceCore {
    /// lws delivers bodies in pieces the socket can take; this is the most written per callback.
    static let httpChunkSize = 32 * 1024

    /// GET and HEAD: the host's responder first, then the web root (over TLS, or plain HTTP from this
    /// computer), else 404. Any other method: 405.
    func httpRequest(_ wsi: OpaquePointer, path: String?) -> Int32 {
        guard let method = HTTPMethod(wsi) else { return refuseMethod(wsi) }
        let isLoopback = PeerAddress.isLoopback(PeerAddress.of(wsi))
        let request = HTTPRequest(path: path ?? "/", isTLS: lws_is_ssl(wsi) != 0, isLoopback: isLoopback)
        let servesFiles = request.isTLS || (request.isLoopback && configuration.servesWebRootToLoopbackHTTP)
        var response =
            handler.http(request) ?? (servesFiles ? staticFiles?.response(forPath: request.path) : nil)
            ?? .notFound
        // HEAD: the same headers, Content-Length included, and no body.
        let length = response.body.count
        if method == .head { response.body = Data() }
        return startResponse(wsi, response, length: length)
    }

    /// 405, once the request's body (if any) has been read and dropped, so the answer is not lost to a reset
    /// and the connection stays usable.
    private func refuseMethod(_ wsi: OpaquePointer) -> Int32 {
        // lws 4.1 does not decode chunked request bodies: answer, then close instead of reading on.
        if lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_TRANSFER_ENCODING) > 0 {
            var refusal = HTTPResponse.methodNotAllowed
            refusal.headers["Connection"] = "close"
            return startResponse(wsi, refusal, closesAfter: true)
        }
        guard Self.declaredLength(wsi) == 0 else {
            refusedUploads.insert(wsi)
            return 0
        }
        return startResponse(wsi, .methodNotAllowed)
    }

    /// Bytes on a connection lws adopted as raw: it does so with requests it does not route, such as
    /// `CONNECT`, which would otherwise stay open unanswered. They get the 405 other methods get, then close.
    func rawReceived(_ wsi: OpaquePointer) -> Int32 {
        let refusal = HTTPResponse.methodNotAllowed
        let headers =
            refusal.headers.map { ($0.key, $0.value) } + HTTPResponse.securityHeaders.map { ($0.name, $0.value) }
            + [
                ("Content-Type", refusal.contentType), ("Content-Length", "\(refusal.body.count)"),
                ("Connection", "close"),
            ]
        let head = "HTTP/1.1 405 Method Not Allowed\r\n" + headers.map { "\($0.0): \($0.1)\r\n" }.joined() + "\r\n"
        _ = write(wsi, Data(head.utf8) + refusal.body, as: LWS_WRITE_HTTP)  // LWS_WRITE_RAW is a macro for this value
        return -1
    }

    /// The end of a request body lws read (and we dropped): a refused method gets its 405 now. lws reports
    /// the completion a second time once that answer is under way, which needs nothing.
    func httpBodyCompleted(_ wsi: OpaquePointer) -> Int32 {
        guard refusedUploads.remove(wsi) != nil else { return 0 }
        return startResponse(wsi, .methodNotAllowed)
    }

    /// The request's Content-Length; 0 when absent.
    private static func declaredLength(_ wsi: OpaquePointer) -> UInt64 {
        var buffer = [CChar](repeating: 0, count: 32)
        let copied = lws_hdr_copy(wsi, &buffer, Int32(buffer.count), WSI_TOKEN_HTTP_CONTENT_LENGTH)
        return copied > 0 ? UInt64(String(cBuffer: buffer)) ?? 1 : 0
    }

    /// Writes the status line and headers, then queues the body (or, for HEAD, none despite `length`).
    private func startResponse(
        _ wsi: OpaquePointer, _ response: HTTPResponse, length: Int? = nil, closesAfter: Bool = false
    ) -> Int32 {
        let named =
            response.headers.map { ($0.key, $0.value) } + HTTPResponse.securityHeaders.map { ($0.name, $0.value) }
        let extra = named.map { ($0.0.lowercased() + ":", $0.1) }.sorted { $0.0 < $1.0 }
        let space = 1024 + extra.reduce(0) { $0 + $1.0.utf8.count + $1.1.utf8.count + 4 }
        let headroom = Int(touchdeck_lws_pre())
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: headroom + space)
        defer { buffer.deallocate() }
        let start = buffer + headroom
        let end = start + space - 1
        var cursor: UnsafeMutablePointer<UInt8>? = start
        let status = UInt32(response.status)
        let declared = lws_filepos_t(length ?? response.body.count)
        guard lws_add_http_common_headers(wsi, status, response.contentType, declared, &cursor, end) == 0 else {
            return -1
        }
        // The web client changes while the host runs; browsers must ask again rather than use stale modules.
        let caching = extra.contains { $0.0 == "cache-control:" } ? [] : [("cache-control:", "no-cache")]
        for (name, value) in extra + caching {
            let added = lws_add_http_header_by_name(wsi, name, value, Int32(value.utf8.count), &cursor, end)
            guard added == 0 else { return -1 }
        }
        guard lws_finalize_write_http_header(wsi, start, &cursor, end) == 0 else { return -1 }
        if response.body.isEmpty { return lws_http_transaction_completed(wsi) != 0 ? -1 : 0 }
        httpBodies[wsi] = PendingBody(data: response.body, closesAfter: closesAfter)
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
            if pending.closesAfter { return -1 }
            // Keep-alive: the connection waits for the next request unless lws says it must close.
            return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
        }
        pending.offset += count
        httpBodies[wsi] = pending
        lws_callback_on_writable(wsi)
        return 0
    }
}

/// The methods the server answers; lws tells them apart by which URI header it filled.
enum HTTPMethod {
    case get, head

    /// nil for every other method (POST, PUT, DELETE, OPTIONS, PATCH…).
    init?(_ wsi: OpaquePointer) {
        if lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) > 0 {
            self = .get
        } else if lws_hdr_total_length(wsi, WSI_TOKEN_HEAD_URI) > 0 {
            self = .head
        } else {
            return nil
        }
    }
}
