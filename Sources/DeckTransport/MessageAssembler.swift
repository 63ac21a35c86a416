import Foundation

/// Joins the pieces lws delivers into whole WebSocket messages. lws hands over each frame in chunks of at
/// most the protocol's rx buffer size, and a message may span many frames (iOS Safari fragments big ones),
/// so a message is whole only when the final frame's last chunk has arrived.
struct MessageAssembler {
    /// What one chunk produced.
    enum Outcome: Equatable {
        /// The message is not complete yet.
        case needMore
        /// A whole message.
        case message(Data, isBinary: Bool)
        /// The message would exceed the limit; the connection must be closed with 1009.
        case tooLarge
    }

    /// Largest message accepted, in bytes; raised when the connection authorizes.
    var limit: Int
    private var buffer = Data()
    private var isBinary = false
    private var inMessage = false

    init(limit: Int) { self.limit = limit }

    /// Adds one chunk. `remainingInFrame` is what lws says is still to come of the current frame, which
    /// lets an oversized message be refused before it is buffered.
    mutating func append(
        _ chunk: UnsafeRawBufferPointer, isBinary binary: Bool, isFinal: Bool, remainingInFrame: Int
    ) -> Outcome {
        if !inMessage {
            inMessage = true
            isBinary = binary
        }
        // A subtraction, not a sum: `remainingInFrame` is the peer's claimed frame length (up to 2^63 − 1),
        // and adding it to what is buffered could overflow.
        guard remainingInFrame <= limit - buffer.count - chunk.count else {
            reset()
            return .tooLarge
        }
        buffer.append(contentsOf: chunk)
        guard isFinal else { return .needMore }
        let message = Outcome.message(buffer, isBinary: isBinary)
        reset()
        return message
    }

    private mutating func reset() {
        buffer = Data()
        inMessage = false
    }
}
