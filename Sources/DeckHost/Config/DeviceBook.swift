import Foundation

/// The paired devices, kept in `devices.json` (mode 0600) and saved after every change.
/// Owned by the host's actor; not thread-safe.
public final class DeviceBook {
    private(set) var records: [DeviceRecord]
    private let store: ConfigStore

    public init(store: ConfigStore) {
        self.store = store
        records = store.load(.devices, as: DeviceFile.self, fallback: DeviceFile(devices: [])).devices
    }

    func record(id: String) -> DeviceRecord? { records.first { $0.id == id } }

    /// Devices whose name is `name`, or whose id starts with it (names may repeat).
    func matching(_ name: String) -> [DeviceRecord] {
        let byName = records.filter { $0.name == name }
        if !byName.isEmpty { return byName }
        return name.count >= 4 ? records.filter { $0.id.hasPrefix(name.lowercased()) } : []
    }

    public func add(_ record: DeviceRecord) throws {
        records.append(record)
        try save()
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

    private func save() throws { try store.save(DeviceFile(devices: records), to: .devices) }
}
