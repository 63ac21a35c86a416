import CLibWebSockets
import Foundation

/// The one lws protocol callback. lws calls it on the service thread for every event of every connection.
func serviceCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    guard let wsi, let raw = lws_context_user(lws_get_context(wsi)) else { return 0 }
    // Unretained: `ServiceLoop` holds the +1 taken with `passRetained` when the context was created and
    // gives it back only after `lws_context_destroy` returned, so the core outlives every callback.
    let core = Unmanaged<ServiceCore>.fromOpaque(raw).takeUnretainedValue()
    return core.handle(wsi, reason, user, input, length)
}

/// A WebSocket as the service thread tracks it.
final class Connection {
    let id: ConnectionID
    let wsi: OpaquePointer
    var assembler: MessageAssembler
    /// What waits to be written, capped (`ServerConfiguration.maxQueuedBytes`).
    var queue: SendQueue
    /// `onSent` of messages already given to lws; called at the next writeable callback, which lws delivers
    /// only once it has pushed all of them into the socket.
    var flushing: [@Sendable () -> Void] = []
    /// The queue went over its cap: what is still sent is dropped and the connection closes with 1008.
    var isOverLimit = false
    var closeCode: UInt16?
    var closeReason = ""
    /// Set once lws was told to close. lws then sends the close frame and waits for the peer's, reading and
    /// dropping whatever comes first, so the socket is not torn down over unread data (which would reset it
    /// and lose the frames still on their way to the peer); nothing more may be written or reported.
    var isClosing = false
    /// Whether the handler heard `opened`; a connection the front door refused never reaches it.
    var isReported = false
    /// The peer's address, which the front door counts by.
    var address = ""
    /// While set, lws does not read this connection: its address spent its byte budget (`AddressBudget`).
    var pausedUntil: ContinuousClock.Instant?

    init(id: ConnectionID, wsi: OpaquePointer, limit: Int, queueLimit: Int) {
        self.id = id
        self.wsi = wsi
        self.assembler = MessageAssembler(limit: limit)
        self.queue = SendQueue(limit: queueLimit)
    }
}

/// An HTTP body still being written.
struct PendingBody {
    var data: Data
    var offset = 0
    /// Close once written, rather than wait for the next request on the connection.
    var closesAfter = false
}

/// Everything the service thread knows; dispatches lws callbacks to the handler.
///
/// Thread-confined to the service thread, except `inbox`, which is itself locked. It is created on the
/// thread calling `start()` before the service thread exists, and never touched by it afterwards.
final class ServiceCore {
    let configuration: ServerConfiguration
    let handler: WebSocketHandler
    let inbox: CommandInbox
    let staticFiles: StaticFiles?
    var connections: [ConnectionID: Connection] = [:]
    var connectionsByWSI: [OpaquePointer: Connection] = [:]
    var httpBodies: [OpaquePointer: PendingBody] = [:]
    /// Connections not authorized yet; nil when the configuration has no front door.
    var room: WaitingRoom?
    var budget: AddressBudget?
    let origins: OriginPolicy
    /// Requests with a refused method whose body lws is still reading; each gets its 405 at the end.
    var refusedUploads: Set<OpaquePointer> = []

    init(configuration: ServerConfiguration, handler: WebSocketHandler, inbox: CommandInbox) {
        self.configuration = configuration
        self.handler = handler
        self.inbox = inbox
        staticFiles = configuration.webRoot.map {
            StaticFiles(root: $0, indexPath: configuration.indexPath, folders: configuration.webRootFolders)
        }
        room = configuration.frontDoor.map(WaitingRoom.init(limits:))
        budget = configuration.frontDoor.map(AddressBudget.init(limits:))
        origins = OriginPolicy(
            certificate: configuration.certificate.serverCertificate,
            servesAppOnLoopbackHTTP: configuration.webRoot != nil && configuration.servesWebRootToLoopbackHTTP)
    }

    func handle(
        _ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
        _ input: UnsafeMutableRawPointer?, _ length: Int
    ) -> Int32 {
        switch reason {
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED: runCommands()
        case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION: return acceptsUpgrade(wsi) ? 0 : 1
        case LWS_CALLBACK_ESTABLISHED: opened(wsi)
        case LWS_CALLBACK_RECEIVE: return received(wsi, UnsafeRawBufferPointer(start: input, count: length))
        case LWS_CALLBACK_SERVER_WRITEABLE: return writeable(wsi)
        case LWS_CALLBACK_CLOSED: closed(wsi)
        case LWS_CALLBACK_TIMER: timerFired(wsi)
        case LWS_CALLBACK_HTTP:
            return httpRequest(wsi, path: input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) })
        case LWS_CALLBACK_HTTP_WRITEABLE: return httpWriteable(wsi)
        case LWS_CALLBACK_HTTP_BODY: return 0  // request bodies are never used: dropped as they arrive
        case LWS_CALLBACK_HTTP_BODY_COMPLETION: return httpBodyCompleted(wsi)
        case LWS_CALLBACK_RAW_RX: return rawReceived(wsi)
        case LWS_CALLBACK_WSI_DESTROY:
            httpBodies[wsi] = nil
            refusedUploads.remove(wsi)
            closed(wsi)
        default: return lws_callback_http_dummy(wsi, reason, user, input, length)
        }
        return 0
    }

    /// Reports every connection lws did not report closed; called after the context is destroyed.
    func closeRemaining() {
        // A connection the front door refused was never reported opened, so it is not reported closed either.
        let reported = connections.values.filter(\.isReported).sorted { $0.id.rawValue < $1.id.rawValue }
        for connection in reported { handler.closed(connection.id) }
        connections.removeAll()
        connectionsByWSI.removeAll()
    }

    func nextID() -> ConnectionID {
        ConnectionID(rawValue: Self.idCounter.next())
    }

    /// Process-wide, so an id is never reused, not even after a stop and a new start.
    private static let idCounter = IDCounter()

    private func runCommands() {
        for command in inbox.drain() {
            switch command {
            case .send(let id, let message):
                guard let connection = connections[id] else { continue }
                enqueue(message, on: connection)
            case .close(let id, let code):
                guard let connection = connections[id] else { continue }
                requestClose(connection, code: code)
            case .authorize(let id):
                guard let connection = connections[id] else { continue }
                authorized(connection)
            }
        }
    }

    /// Closes after what is queued has gone out; the first code asked for wins.
    func requestClose(_ connection: Connection, code: UInt16, reason: String = "") {
        if connection.closeCode == nil {
            connection.closeCode = code
            connection.closeReason = reason
        }
        // The close frame is output too: a peer whose socket is full gets the keep-alive timeout to take it.
        if !connection.isClosing { watchProgress(connection) }
        resume(connection)
        lws_callback_on_writable(connection.wsi)
    }

    /// Writes `bytes` (an HTTP answer) behind the `LWS_PRE` headroom lws needs for its header.
    func write(_ wsi: OpaquePointer, _ bytes: Data, as kind: lws_write_protocol) -> Bool {
        let headroom = Int(touchdeck_lws_pre())
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: headroom + bytes.count, alignment: 16)
        defer { buffer.deallocate() }
        bytes.copyBytes(to: UnsafeMutableRawBufferPointer(start: buffer + headroom, count: bytes.count))
        // lws keeps a copy of whatever the socket did not take, so the buffer may go right after.
        let written = lws_write(wsi, (buffer + headroom).assumingMemoryBound(to: UInt8.self), bytes.count, kind)
        return Int(written) >= bytes.count
    }

    /// Writes one WebSocket frame in place: lws puts its frame header into the `LWS_PRE` bytes before it (the message's
    /// room in front, or the end of the frame before, put back afterwards), so the bytes are not copied.
    func write(_ wsi: OpaquePointer, _ fragment: SendQueue.Fragment) -> Bool {
        let count = fragment.range.count
        // lws keeps a copy of whatever the socket did not take, so the bytes are free again right after.
        let written = fragment.message.withLentRoom(Int(touchdeck_lws_pre()), before: fragment.range.lowerBound) {
            lws_write(wsi, $0, count, fragment.lwsProtocol)
        }
        return Int(written) >= count
    }
}

@available(*, unavailable) extension ServiceCore: Sendable {}

/// A counter shared by every server in the process. `@unchecked Sendable`: `last` is only touched under `lock`.
final class IDCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var last: UInt64 = 0

    func next() -> UInt64 {
        lock.withLock {
            last += 1
            return last
        }
    }
}
@available(*, unavailable) extension Connection: Sendable {}
