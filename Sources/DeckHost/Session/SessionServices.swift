import DeckKit
import DeckTransport
import Foundation

/// A sealed channel after authorization: opens device envelopes and seals host messages.
/// The live value wraps DeckCrypto's channel; tests use a transparent fake.
public protocol SealedChannel {
    /// Opens a text envelope from the device; throws on a bad box or a replayed seq.
    mutating func open(_ envelope: SecureEnvelope) throws -> Data
    /// Seals a text message for the device.
    mutating func seal(_ plaintext: Data) throws -> SecureEnvelope
    /// Seals a binary message for the device (`seq || nonce || ciphertext || tag`).
    mutating func sealBinary(_ payload: Data) throws -> Data
    /// Seals and hands over binary messages from any thread, in counter order (video and sound).
    var mediaSealer: any MediaSealing { get }
}

/// Seals binary messages for one device from any thread; `then` runs before the next message is sealed.
/// The message is sealed in its own buffer and handed on, consumed at each step so that no stage shares it
/// (a shared buffer would be copied by the next stage that writes).
public protocol MediaSealing: Sendable {
    func seal(_ message: consuming WireBuffer, then: (consuming WireBuffer) -> Void)
}

/// How a media stream hands one packet on: seal it, send it, and call the second argument once it has left.
public typealias MediaSend = @Sendable (consuming WireBuffer, @escaping @Sendable () -> Void) -> Void

extension MediaSealing {
    /// Seals each packet and queues it on `link` for connection `id`: the send path of video and sound.
    public func sending(over link: any DeviceLink, to id: ConnectionID) -> MediaSend {
        { message, onSent in
            seal(consume message) { sealed in link.send(binary: consume sealed, to: id, onSent: onSent) }
        }
    }
}

/// One handshake step: the reply and the state to keep, or a refusal.
public enum HandshakeStep<Reply, State> {
    case next(Reply, State)
    /// Send this refusal (`pairingFailed`, `unauthorized` or `error`).
    case refused(HostMessage)
}

/// The host-wide knowledge and crypto a session's handshake needs: the paired devices, the PIN gate,
/// SPAKE2 and the authentication exchange. The host's actor owns the live value.
public protocol SessionServices: AnyObject {
    /// What a session keeps between `pairStart` and `pairConfirm`.
    associatedtype PairingState
    /// What a session keeps between `authStart` and `authFinish`.
    associatedtype AuthState
    /// The channel an authorized session seals with.
    associatedtype Channel: SealedChannel

    /// The name devices see.
    var hostName: String { get }
    /// Whether a device id belongs to a paired device.
    func isPaired(_ deviceId: String) -> Bool
    /// A device that is not paired said hello: issue a PIN if the gate allows, and tell the user.
    func pairingWanted(by name: String)
    /// Checks the PIN gate and answers `pairStart` from `peer` (its address, for the log).
    func beginPairing(_ start: DeviceMessage.PairStart, peer: String)
        -> HandshakeStep<HostMessage.PairChallenge, PairingState>
    /// Checks `cA`; on success creates the device (the caller stores it). `peer` is the address, for the log.
    func finishPairing(_ state: PairingState, _ confirm: DeviceMessage.PairConfirm, name: String, peer: String)
        -> HandshakeStep<HostMessage.Paired, DeviceRecord>
    /// Answers `authStart` for a paired device.
    func beginAuth(_ start: DeviceMessage.AuthStart) -> HandshakeStep<HostMessage.AuthChallenge, AuthState>
    /// Checks the device proof, and that the device is still paired, and derives the channel. A refusal
    /// closes the connection, except `unauthorized{unknownDevice}` (revoked meanwhile: pair again).
    func finishAuth(_ state: AuthState, _ finish: DeviceMessage.AuthFinish) -> HandshakeStep<Void, Channel>
}
