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
            return [.sendSealed(.error(.init(for: error, request: Self.knownType(in: plaintext))))]
        }
        // Sealed, so `mustBeSealed` would mislead: the message is well formed, just out of place.
        if message.isHandshake {
            return refuse(
                .badMessage, "\(message.type): handshake messages are not accepted after authorization",
                request: message.type)
        }
        if case .secure = message { return refuse(.badMessage, "a sealed envelope inside another", request: "secure") }
        return [.request(message)]
    }

    private func refuse(_ code: WireErrorCode, _ text: String, request: String? = nil) -> [SessionAction] {
        [.sendSealed(.error(.init(code: code, message: text, request: request)))]
    }

    /// The `type` of a message that did not decode, when it is one the host knows (an error then names what it
    /// answers); an unknown or odd type is not echoed.
    static func knownType(in plaintext: Data) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: plaintext) as? [String: Any],
            let type = object["type"] as? String, DeviceMessage.readers[type] != nil
        else { return nil }
        return type
    }
}
