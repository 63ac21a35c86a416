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
        let connection = Connection(
            id: nextID(), wsi: wsi, limit: limit, queueLimit: configuration.maxQueuedBytes)
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
                inspectWhileWaiting(connection, message: data)  // the front door: does it name a paired device?
                // lws has already checked the UTF-8 (LWS_SERVER_OPTION_VALIDATE_UTF8) and closed on bad text.
                handler.text(String(decoding: data, as: UTF8.self), connection.id)
            }
            return 0
        }
    }

    /// Writes at most one frame per callback so that no connection starves the others.
    func writeable(_ wsi: OpaquePointer) -> Int32 {
        // Once closing, lws may still call here for writes asked for earlier; a second -1 would make it drop
        // the socket at once instead of waiting for the peer's close (and reset it over unread input).
        guard let connection = connectionsByWSI[wsi], !connection.isClosing else { return 0 }
        let sent = connection.flushing
        connection.flushing.removeAll()
        for onSent in sent { onSent() }
        guard let fragment = connection.queue.next() else {
            guard let code = connection.closeCode else {
                // Everything queued is in the socket: the peer is reading, nothing to watch.
                lws_set_timeout(wsi, NO_PENDING_TIMEOUT, 0)
                return 0
            }
            // Closed only after what was queued before `close` has gone out. lws then sets its own timeout
            // for the peer's close frame, which replaces the progress deadline.
            connection.isClosing = true
            var reason = Array(connection.closeReason.utf8.prefix(123))  // a close payload is at most 125 bytes
            lws_close_reason(wsi, lws_close_status(rawValue: UInt32(code)), &reason, reason.count)
            return -1
        }
        guard write(wsi, fragment) else { return -1 }
        if let onSent = fragment.onSent { connection.flushing.append(onSent) }
        // A frame left: the peer has a new keep-alive period to take it.
        watchProgress(connection)
        // Asked again both for the next frame and to report `onSent` once this one is flushed.
        lws_callback_on_writable(wsi)
        return 0
    }

    /// Queues a message, or closes the connection with 1008 when its queue would exceed the cap.
    func enqueue(_ message: OutgoingMessage, on connection: Connection) {
        guard !connection.isClosing, !connection.isOverLimit else { return }
        switch connection.queue.add(message) {
        case .queued(let first):
            if first { watchProgress(connection) }
            lws_callback_on_writable(connection.wsi)
        case .overLimit:
            connection.isOverLimit = true
            requestClose(connection, code: UnreadClose.code, reason: UnreadClose.reason)
        }
    }

    /// Arms the progress deadline: unless lws takes another frame within the keep-alive timeout, the
    /// connection is dropped. lws's own keep-alive counts any pong as life, and a peer's TCP stack and pongs
    /// go on while it reads nothing; this deadline counts only frames that left (issue 20.1). A peer that
    /// reads nothing cannot be sent a close frame either, so lws drops the socket without one.
    func watchProgress(_ connection: Connection) {
        lws_set_timeout(connection.wsi, PENDING_TIMEOUT_USER_OK, Int32(configuration.deadPeerTimeout))
    }

    func closed(_ wsi: OpaquePointer) {
        guard let connection = connectionsByWSI.removeValue(forKey: wsi) else { return }
        connections[connection.id] = nil
        leftFrontDoor(connection.id)
        if connection.isReported { handler.closed(connection.id) }
    }
}

/// The close for a connection whose unread messages passed `ServerConfiguration.maxQueuedBytes` (PROTOCOL §0).
enum UnreadClose {
    static let code: UInt16 = 1008
    static let reason = "too much unread"
}

extension SendQueue.Fragment {
    /// The opcode and FIN bit as lws takes them.
    var lwsProtocol: lws_write_protocol {
        let opcode: lws_write_protocol =
            switch kind {
            case .text: LWS_WRITE_TEXT
            case .binary: LWS_WRITE_BINARY
            case .continuation: LWS_WRITE_CONTINUATION
            }
        return lws_write_protocol(rawValue: opcode.rawValue | (isFinal ? 0 : LWS_WRITE_NO_FIN.rawValue))
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
