import Foundation

/// The ids of the paired devices, as the front door on the service thread sees them: a snapshot the host's
/// actor replaces whenever a device pairs or is revoked, read by the service thread without waiting on the
/// actor (a connection that names one of these waits in the known devices' reserve, `WaitingRoom`).
///
/// `@unchecked Sendable`: `ids` is only touched under `lock`, held for one set lookup or one assignment.
public final class KnownDevices: @unchecked Sendable {
    private let lock = NSLock()
    private var ids: Set<String> = []

    /// An empty snapshot: every connection is a stranger until the owner says otherwise.
    public init() {}

    /// The paired devices are now exactly `ids`.
    public func replace(with ids: some Sequence<String>) {
        let snapshot = Set(ids)
        lock.withLock { self.ids = snapshot }
    }

    /// Whether `id` is a paired device's id.
    public func contains(_ id: String) -> Bool { lock.withLock { ids.contains(id) } }
}

/// Which paired device a connection says it is, from its upgrade or one message before authorization: the
/// `device` query argument of `/ws?device=ID`, or the `deviceId` of a `hello` or `authStart` (PROTOCOL §0).
/// Only a claim: the device proves it by authorizing. Messages longer than `inspected` bytes are not read
/// (a real hello or authStart is a few hundred bytes), so a stranger cannot make the service thread parse
/// its 64 KiB hellos.
enum DeviceClaim {
    static let inspected = 4096

    /// The device id a `hello` or `authStart` in `message` names, if any.
    static func named(in message: Data) -> String? {
        guard message.count <= inspected, let word = try? JSONDecoder().decode(Word.self, from: message),
            word.type == "hello" || word.type == "authStart"
        else { return nil }
        return word.deviceId
    }

    private struct Word: Decodable {
        let type: String
        let deviceId: String?
    }
}
