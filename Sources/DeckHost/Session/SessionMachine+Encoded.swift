import DeckKit
import Foundation

extension SessionMachine {
    /// Seals an inner message that was already encoded, so a large one (the app catalog) is encoded once,
    /// off the host's actor, for every device that asked; nil unless authorized or if sealing fails.
    public mutating func seal(encoded plaintext: Data) -> String? {
        guard case .authorized(var channel, let id) = stage else { return nil }
        defer { stage = .authorized(channel, deviceId: id) }
        guard let envelope = try? channel.seal(plaintext) else { return nil }
        return String(decoding: HostMessage.secure(envelope).encode(), as: UTF8.self)
    }
}
