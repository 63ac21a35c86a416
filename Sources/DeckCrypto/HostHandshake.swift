import DeckKit
import Foundation

/// The host's security stages on one connection (PROTOCOL.md §2–§5): hello, pairing, authentication, then
/// sealed traffic only. A value whose methods return actions; the connection's I/O shell performs them.
public struct HostHandshake: Sendable {
    /// One thing for the shell to do, in order.
    public enum Action: Equatable, Sendable {
        /// Send this text message.
        case send(HostMessage)
        /// A PIN was issued for this device's request: show it to the host's user (never log it).
        case showPin(String)
        /// Remember this newly paired device (persist it) before sending what follows.
        case store(PairedDevice)
        /// The connection is authorized as this device.
        case authorized(deviceId: String)
        /// An opened sealed text message from the device: its inner JSON.
        case inner(Data)
        /// Close the connection.
        case close
    }

    /// Where the connection stands.
    public enum Stage: Equatable, Sendable {
        case handshaking
        case authorized(deviceId: String)
    }

    public let hostName: String
    public private(set) var stage = Stage.handshaking
    /// The device's protocol number from `hello` (1 until it says otherwise).
    public private(set) var deviceProtocol = ProtocolVersion.legacy
    /// The device's name from `hello`.
    public private(set) var deviceName = ""
    private var pairing = HostPairing()
    private var auth = HostAuth()
    private var channel: SecureChannel?

    public init(hostName: String) {
        self.hostName = hostName
    }

    /// Handles one text message from the device.
    public mutating func receive(
        _ message: DeviceMessage, gate: inout PairingGate, registry: any DeviceRegistry,
        now: PairingGate.Instant
    ) -> [Action] {
        if case .authorized = stage { return receiveAuthorized(message) }
        switch message {
        case .hello(let hello): return receive(hello, gate: &gate, registry: registry, now: now)
        case .pairStart(let start): return [.send(pairing.receive(start, gate: &gate, now: now))]
        case .pairConfirm(let confirm): return confirmed(pairing.receive(confirm, gate: &gate, now: now))
        case .authStart(let start):
            return [.send(auth.receive(start, secret: registry.secret(forDevice: start.deviceId)))]
        case .authFinish(let finish): return finished(auth.receive(finish))
        default: return [.send(.unauthorized(.init(reason: .notAuthorized)))]
        }
    }

    /// Seals a message to the device; nil before authorization.
    public mutating func seal(_ message: HostMessage) -> HostMessage? {
        guard channel != nil else { return nil }
        return .secure(channel!.seal(message))
    }

    /// Seals an inner message given as its JSON bytes; nil before authorization.
    public mutating func seal(json inner: Data) -> HostMessage? {
        guard channel != nil else { return nil }
        return .secure(channel!.seal(inner))
    }

    /// Seals a binary message to the device; nil before authorization.
    public mutating func sealBinary(_ body: Data) -> Data? {
        guard channel != nil else { return nil }
        return channel!.sealBinary(body)
    }

    /// Opens a sealed binary message from the device.
    public mutating func openBinary(_ message: Data) throws(SealError) -> Data {
        guard channel != nil else { throw .badSeal }
        return try channel!.openBinary(message)
    }

    private mutating func receive(
        _ hello: DeviceMessage.Hello, gate: inout PairingGate, registry: any DeviceRegistry,
        now: PairingGate.Instant
    ) -> [Action] {
        deviceProtocol = hello.protocolVersion
        deviceName = String(hello.name.prefix(64))
        if let id = hello.deviceId, registry.secret(forDevice: id) != nil {
            return [.send(.authRequired(.init(hostName: hostName)))]
        }
        var actions: [Action] = []
        if case .issued(let pin) = gate.requestPin(now: now) { actions.append(.showPin(pin)) }
        actions.append(.send(.needPairing(.init(hostName: hostName))))
        return actions
    }

    private func confirmed(_ outcome: HostPairing.Outcome) -> [Action] {
        switch outcome {
        case .reply(let message): [.send(message)]
        case .paired(let device, let reply): [.store(device), .send(reply)]
        }
    }

    private mutating func finished(_ outcome: HostAuth.Outcome) -> [Action] {
        switch outcome {
        case .reply(let message): return [.send(message)]
        case .refuse(let message): return [.send(message), .close]
        case .authorized(let deviceId, var sealing):
            stage = .authorized(deviceId: deviceId)
            let first = sealing.seal(HostMessage.authorized(.init(hostName: hostName)))
            channel = sealing
            return [.authorized(deviceId: deviceId), .send(.secure(first))]
        }
    }

    private mutating func receiveAuthorized(_ message: DeviceMessage) -> [Action] {
        guard case .secure(let envelope) = message else {
            // Pairing and auth messages included: after authorization only sealed envelopes count.
            return [.send(.error(.init(code: .mustBeSealed, message: "send messages sealed")))]
        }
        do {
            return [.inner(try channel!.open(envelope))]
        } catch {
            return [.send(.error(.init(for: error)))]
        }
    }
}
