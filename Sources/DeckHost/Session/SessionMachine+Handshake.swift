import DeckKit
import Foundation

extension SessionMachine {
    mutating func handshake(_ message: DeviceMessage, services: Services) -> [SessionAction] {
        switch message {
        case .hello(let hello): return greet(hello, services: services)
        case .pairStart(let start): return beginPairing(start, services: services)
        case .pairConfirm(let confirm): return finishPairing(confirm, services: services)
        case .authStart(let start): return beginAuth(start, services: services)
        case .authFinish(let finish): return finishAuth(finish, services: services)
        default: return [.send(.unauthorized(.init(reason: .notAuthorized)))]
        }
    }

    private mutating func greet(_ hello: DeviceMessage.Hello, services: Services) -> [SessionAction] {
        deviceName = Self.cleanName(hello.name)
        deviceProtocol = hello.protocolVersion
        stage = .open
        if let id = hello.deviceId, services.isPaired(id) {
            return [.send(.authRequired(.init(hostName: services.hostName)))]
        }
        services.pairingWanted(by: deviceName)
        return [.send(.needPairing(.init(hostName: services.hostName)))]
    }

    private mutating func beginPairing(_ start: DeviceMessage.PairStart, services: Services)
        -> [SessionAction]
    {
        if !start.name.isEmpty { deviceName = Self.cleanName(start.name) }
        switch services.beginPairing(start, peer: peer) {
        case .next(let challenge, let state):
            stage = .pairing(state, name: deviceName)
            return [.send(.pairChallenge(challenge))]
        case .refused(let failure):
            stage = .open
            return [.send(failure)]
        }
    }

    private mutating func finishPairing(_ confirm: DeviceMessage.PairConfirm, services: Services)
        -> [SessionAction]
    {
        guard case .pairing(let state, let name) = stage else {
            return [.send(.pairingFailed(.init(reason: .badMessage)))]
        }
        // One confirmation per exchange: a wrong one needs a fresh pairStart (one guess per attempt).
        stage = .open
        switch services.finishPairing(state, confirm, name: name, peer: peer) {
        case .next(let paired, let device): return [.paired(device), .send(.paired(paired))]
        case .refused(let failure): return [.send(failure)]
        }
    }

    private mutating func beginAuth(_ start: DeviceMessage.AuthStart, services: Services) -> [SessionAction] {
        switch services.beginAuth(start) {
        case .next(let challenge, let state):
            stage = .authenticating(state, deviceId: start.deviceId)
            return [.send(.authChallenge(challenge))]
        case .refused(let refusal):
            stage = .open
            return [.send(refusal)]
        }
    }

    private mutating func finishAuth(_ finish: DeviceMessage.AuthFinish, services: Services) -> [SessionAction] {
        guard case .authenticating(let state, let deviceId) = stage else {
            return [.send(.unauthorized(.init(reason: .notAuthorized)))]
        }
        switch services.finishAuth(state, finish) {
        case .next(_, let channel):
            stage = .authorized(channel, deviceId: deviceId)
            let welcome = HostMessage.authorized(.init(hostName: services.hostName))
            return [.sendSealed(welcome), .authorized(deviceId: deviceId, protocolVersion: deviceProtocol)]
        case .refused(.unauthorized(let refusal)) where refusal.reason == .unknownDevice:
            // Revoked since authStart: the same answer authStart gives, and the device may pair again here.
            stage = .open
            return [.send(.unauthorized(refusal))]
        case .refused(let refusal):
            stage = .closed
            return [.send(refusal), .close(code: CloseCode.policyViolation, reason: "bad proof")]
        }
    }

    /// Names are shown to the host's user: DeckKit's one rule (no control or bidi characters, 64 characters).
    static func cleanName(_ name: String) -> String { DisplayName.clean(name) }
}
