import DeckKit
import Foundation

/// Why an authorized session refused an inner message.
struct SealedRefusal: WireReportable {
    let wireCode: WireErrorCode
    let wireMessage: String
}

extension SessionMachine {
    /// After authorization only `secure` envelopes count; what is inside goes to the host as a request.
    mutating func receiveSealed(_ text: String, services: Services) -> [SessionAction] {
        guard case .authorized(var channel, let deviceId) = stage else { return [] }
        let outer: DeviceMessage
        do {
            outer = try DeviceMessage.decode(text)
        } catch {
            return [.sendSealed(.error(.init(for: error)))]
        }
        guard case .secure(let envelope) = outer else {
            return refuse(.mustBeSealed, "after authorization every message must be sealed")
        }
        let plaintext: Data
        do {
            plaintext = try channel.open(envelope)
            stage = .authorized(channel, deviceId: deviceId)
        } catch {
            return refuse(.badSeal, "the box did not open or its seq was replayed")
        }
        return inner(plaintext)
    }

    private func inner(_ plaintext: Data) -> [SessionAction] {
        let message: DeviceMessage
        do {
            message = try DeviceMessage.decode(plaintext)
        } catch {
            return [.sendSealed(.error(.init(for: error)))]
        }
        // Sealed, so `mustBeSealed` would mislead: the message is well formed, just out of place.
        if message.isHandshake {
            return refuse(.badMessage, "\(message.type): handshake messages are not accepted after authorization")
        }
        if case .secure = message { return refuse(.badMessage, "a sealed envelope inside another") }
        return [.request(message)]
    }

    private func refuse(_ code: WireErrorCode, _ text: String) -> [SessionAction] {
        [.sendSealed(.error(.init(code: code, message: text)))]
    }
}
