import DeckKit
import DeckTransport
import Foundation

/// The paired devices, kept in `devices.json` (mode 0600) and saved after every change.
/// Owned by the host's actor; not thread-safe.
public final class DeviceBook {
    private(set) var records: [DeviceRecord]
    private let store: ConfigStore

    public init(store: ConfigStore) {
        self.store = store
        records = store.load(.devices, as: DeviceFile.self, fallback: DeviceFile(devices: [])).devices
        // Files written before names were cleaned may hold control or bidi characters; show them cleaned.
        for index in records.indices { records[index].name = DisplayName.clean(records[index].name) }
    }

    func record(id: String) -> DeviceRecord? { records.first { $0.id == id } }

    /// Devices whose name is `name`, or whose id starts with it (names may repeat).
    func matching(_ name: String) -> [DeviceRecord] {
        let byName = records.filter { $0.name == name }
        if !byName.isEmpty { return byName }
        return name.count >= 4 ? records.filter { $0.id.hasPrefix(name.lowercased()) } : []
    }

    /// Saves a newly paired device under a name no other device has (`DisplayName.unique`: a second "iPad"
    /// becomes "iPad 2"), so that every device can be named in `touchdeck devices`.
    public func add(_ record: DeviceRecord) throws {
        var stored = record
        stored.name = DisplayName.unique(record.name, taken: records.map(\.name))
        records.append(stored)
        try save()
    }

    /// Gives the device `id` the name `wanted`, cleaned; refused when it is empty or another device has it
    /// (ignoring case). Saved at once (atomically, like every change). Returns the name now stored.
    func rename(id: String, to wanted: String) throws -> String {
        let name = DisplayName.clean(wanted)
        guard !name.isEmpty else { throw RenameRefusal.empty }
        if let other = records.first(where: { $0.id != id && $0.name.lowercased() == name.lowercased() }) {
            throw RenameRefusal.taken(other.name)
        }
        try update(id: id) { $0.name = name }
        return name
    }

    func update(id: String, _ change: (inout DeviceRecord) -> Void) throws {
        guard let index = records.firstIndex(where: { $0.id == id }) else { return }
        change(&records[index])
        try save()
    }

    func remove(id: String) throws {
        records.removeAll { $0.id == id }
        try save()
    }

    /// Where the ids are published for the transport's front door (`KnownDevices`); set once by the daemon.
    var published: KnownDevices? {
        didSet { published?.replace(with: records.map(\.id)) }
    }

    private func save() throws {
        published?.replace(with: records.map(\.id))  // before the write: a failed save still changed the list
        try store.save(DeviceFile(devices: records), to: .devices)
    }
}

/// Why `touchdeck devices rename` was refused.
enum RenameRefusal: Error, Equatable, CustomStringConvertible {
    /// Nothing was left of the new name once control and bidi characters were removed.
    case empty
    /// Another device already has this name.
    case taken(String)

    var description: String {
        switch self {
        case .empty: "the new name is empty once control characters are removed"
        case .taken(let name): "another device is already called \(name); pick another name"
        }
    }
}
