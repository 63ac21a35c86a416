import CLibWebSockets
import DeckKit
import Foundation

/// One message waiting to be written to a WebSocket, in a buffer with room in front for lws's frame header.
struct OutgoingMessage {
    var bytes: WireBuffer
    var isBinary: Bool
    /// Called on the service thread once the message has left lws for the socket.
    var onSent: (@Sendable () -> Void)?

    init(bytes: WireBuffer, isBinary: Bool, onSent: (@Sendable () -> Void)?) {
        self.bytes = bytes
        self.isBinary = isBinary
        self.onSent = onSent
    }

    /// A message from bytes held elsewhere, copied once into a buffer with the room lws needs.
    init(data: Data, isBinary: Bool, onSent: (@Sendable () -> Void)?) {
        self.init(
            bytes: WireBuffer(copying: data, front: Int(touchdeck_lws_pre()), back: 0), isBinary: isBinary,
            onSent: onSent)
    }
}

/// Work handed from any thread to the service thread.
enum ServiceCommand {
    case send(ConnectionID, OutgoingMessage)
    case close(ConnectionID, code: UInt16)
    /// The connection authorized: it leaves the front door's limits.
    case authorize(ConnectionID)
}

/// The only state shared between threads: commands posted from anywhere, drained by the service thread,
/// plus the flag that ends the service loop.
///
/// `@unchecked Sendable`: every stored property is read and written only while `lock` is held. The lws
/// context pointer is cleared under the same lock before the context is destroyed, so
/// `lws_cancel_service` (the one lws call that is safe from other threads) never sees a freed context.
final class CommandInbox: @unchecked Sendable {
    private let lock = NSLock()
    private var commands: [ServiceCommand] = []
    private var context: OpaquePointer?
    private var stopping = false

    /// Starts accepting commands for `context`.
    func attach(_ context: OpaquePointer) {
        lock.withLock { self.context = context }
    }

    /// Queues `command` and wakes the service loop; false when the server is not running.
    @discardableResult
    func post(_ command: ServiceCommand) -> Bool {
        lock.withLock {
            guard let context, !stopping else { return false }
            commands.append(command)
            lws_cancel_service(context)
            return true
        }
    }

    /// Everything posted since the last call, in order.
    func drain() -> [ServiceCommand] {
        lock.withLock {
            defer { commands.removeAll(keepingCapacity: true) }
            return commands
        }
    }

    /// Asks the service loop to end; true the first time.
    func requestStop() -> Bool {
        lock.withLock {
            guard let context, !stopping else { return false }
            stopping = true
            lws_cancel_service(context)
            return true
        }
    }

    /// Whether `requestStop` was called.
    var isStopping: Bool { lock.withLock { stopping } }

    /// Forgets the context; called on the service thread just before it is destroyed.
    func detach() {
        lock.withLock {
            context = nil
            commands.removeAll()
        }
    }
}
