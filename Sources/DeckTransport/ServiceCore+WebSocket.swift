import CLibWebSockets
import Foundation

extension ServiceCore {
    /// Upgrades are accepted on the configured path only, and from browsers only on pages of the host's own
    /// origins; anything else is refused before the handshake completes.
    func acceptsUpgrade(_ wsi: OpaquePointer) -> Bool {
        var buffer = [CChar](repeating: 0, count: 256)
        guard lws_hdr_copy(wsi, &buffer, Int32(buffer.count), WSI_TOKEN_GET_URI) > 0 else { return false }
        guard String(cBuffer: buffer) == configuration.webSocketPath else { return false }
        guard originAllowed(wsi) else {
            // A 403 says why to the page's developer tools; lws then drops the connection.
            _ = lws_return_http_status(wsi, UInt32(HTTP_STATUS_FORBIDDEN.rawValue), "WebSocket from another origin")
            return false
        }
        return true
    }

    func opened(_ wsi: OpaquePointer) {
        let limit = min(configuration.frontDoor?.maxMessageSize ?? .max, configuration.maxMessageSize)
        let connection = Connection(id: nextID(), wsi: wsi, limit: limit)
        connections[connection.id] = connection
        connectionsByWSI[wsi] = connection
        let info = ConnectionInfo(isTLS: lws_is_ssl(wsi) != 0, remoteAddress: PeerAddress.of(wsi))
        connection.address = info.remoteAddress
        guard admit(connection, address: info.remoteAddress) else { return }
        connection.isReported = true
        handler.opened(connection.id, info)
    }

    func received(_ wsi: OpaquePointer, _ chunk: UnsafeRawBufferPointer) -> Int32 {
        guard let connection = connectionsByWSI[wsi] else { return -1 }
        // Closing (the owner or the front door asked): what the peer still sends is dropped unread by anyone.
        guard !connection.isClosing, connection.closeCode == nil else { return 0 }
        charge(connection, bytes: chunk.count)
        let outcome = connection.assembler.append(
            chunk, isBinary: lws_frame_is_binary(wsi) != 0, isFinal: lws_is_final_fragment(wsi) != 0,
            remainingInFrame: Int(clamping: lws_remaining_packet_payload(wsi)))
        switch outcome {
        case .needMore:
            return 0
        case .tooLarge:
            // lws sends this close code, then waits for the peer's close before dropping the socket.
            connection.isClosing = true
            lws_close_reason(wsi, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE, nil, 0)
            return -1
        case .message(let data, let isBinary):
            if isBinary {
                handler.binary(data, connection.id)
            } else {
                // lws has already checked the UTF-8 (LWS_SERVER_OPTION_VALIDATE_UTF8) and closed on bad text.
                handler.text(String(decoding: data, as: UTF8.self), connection.id)
            }
            return 0
        }
    }

    /// Writes at most one message per callback so that no connection starves the others.
    func writeable(_ wsi: OpaquePointer) -> Int32 {
        // Once closing, lws may still call here for writes asked for earlier; a second -1 would make it drop
        // the socket at once instead of waiting for the peer's close (and reset it over unread input).
        guard let connection = connectionsByWSI[wsi], !connection.isClosing else { return 0 }
        let sent = connection.flushing
        connection.flushing.removeAll()
        for onSent in sent { onSent() }
        if connection.outbox.isEmpty {
            guard let code = connection.closeCode else { return 0 }
            // Closed only after what was queued before `close` has gone out.
            connection.isClosing = true
            var reason = Array(connection.closeReason.utf8.prefix(123))  // a close payload is at most 125 bytes
            lws_close_reason(wsi, lws_close_status(rawValue: UInt32(code)), &reason, reason.count)
            return -1
        }
        let message = connection.outbox.removeFirst()
        guard write(wsi, message.data, as: message.isBinary ? LWS_WRITE_BINARY : LWS_WRITE_TEXT) else { return -1 }
        if let onSent = message.onSent { connection.flushing.append(onSent) }
        // Asked again both for the next queued message and to report `onSent` once this one is flushed.
        lws_callback_on_writable(wsi)
        return 0
    }

    func closed(_ wsi: OpaquePointer) {
        guard let connection = connectionsByWSI.removeValue(forKey: wsi) else { return }
        connections[connection.id] = nil
        leftFrontDoor(connection.id)
        if connection.isReported { handler.closed(connection.id) }
    }
}

/// The peer's numeric address as lws reports it, with IPv4-mapped IPv6 shortened to plain IPv4.
enum PeerAddress {
    static func of(_ wsi: OpaquePointer) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        guard lws_get_peer_simple(wsi, &buffer, buffer.count) != nil else { return "" }
        return normalized(String(cBuffer: buffer))
    }

    static func normalized(_ address: String) -> String {
        let mappedPrefix = "::ffff:"
        if address.lowercased().hasPrefix(mappedPrefix), address.contains(".") {
            return String(address.dropFirst(mappedPrefix.count))
        }
        return address
    }

    /// Whether `address` (already normalized) is this computer.
    static func isLoopback(_ address: String) -> Bool {
        address.hasPrefix("127.") || address == "::1"
    }
}
