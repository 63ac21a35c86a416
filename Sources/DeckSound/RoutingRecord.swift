import DeckDesktop
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What the routing changed, on disk before each change, so the next start can undo a routing a crash left
/// behind (DESIGN.md#sound): the sink that was the default, our null sink's module, and where each moved stream was.
public struct RoutingRecord: Codable, Equatable, Sendable {
    /// The default sink before routing (updated when the user picks another one while routed).
    public var previousDefault: String
    /// Our null sink's module, once loaded.
    public var module: UInt32?
    /// Stream index → the name of the sink it played on before it was moved.
    public var origins: [UInt32: String]

    public init(previousDefault: String, module: UInt32? = nil, origins: [UInt32: String] = [:]) {
        self.previousDefault = previousDefault
        self.module = module
        self.origins = origins
    }
}

/// Where the record lives: a file written atomically (temp, fsync, rename, fsync of the folder), or nowhere
/// (tests, or a host without a config folder).
public struct RoutingRecordStore: Sendable {
    public var load: @Sendable () -> RoutingRecord?
    public var save: @Sendable (RoutingRecord) throws -> Void
    public var remove: @Sendable () -> Void

    public init(
        load: @escaping @Sendable () -> RoutingRecord?, save: @escaping @Sendable (RoutingRecord) throws -> Void,
        remove: @escaping @Sendable () -> Void
    ) {
        self.load = load
        self.save = save
        self.remove = remove
    }

    /// `sound-routing.json` in `directory` (mode 0600). A file that cannot be read as a record counts as none.
    public static func file(in directory: URL) -> RoutingRecordStore {
        let url = directory.appendingPathComponent("sound-routing.json")
        return RoutingRecordStore(
            load: { (try? Data(contentsOf: url)).flatMap { try? JSONDecoder().decode(RoutingRecord.self, from: $0) } },
            save: { record in
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                try writeAtomically(try encoder.encode(record), to: url)
            },
            remove: { unlink(url.path) })
    }

    /// Kept in memory: what a test inspects, or what a crash "leaves behind" for the next router.
    public static func memory(_ initial: RoutingRecord? = nil) -> (RoutingRecordStore, @Sendable () -> RoutingRecord?) {
        let box = LockedValue(initial)
        let store = RoutingRecordStore(
            load: { box.get() }, save: { record in box.set(record) }, remove: { box.set(nil) })
        return (store, { box.get() })
    }
}

/// Temp file in the same folder, fsync, rename, fsync of the folder: a reader sees the old or the new record.
private func writeAtomically(_ data: Data, to url: URL) throws {
    let directory = url.deletingLastPathComponent().path
    let temp = directory + "/." + url.lastPathComponent + ".tmp-\(getpid())"
    let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw SoundError.record("create \(temp): errno \(errno)") }
    let written = data.withUnsafeBytes { raw in Glibc.write(fd, raw.baseAddress, raw.count) }
    let synced = fsync(fd) == 0
    close(fd)
    guard written == data.count, synced, rename(temp, url.path) == 0 else {
        unlink(temp)
        throw SoundError.record("write \(url.path): errno \(errno)")
    }
    let folder = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if folder >= 0 {
        fsync(folder)
        close(folder)
    }
}

/// A value behind a lock, for the small shared bits of this module.
final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func get() -> Value { lock.withLock { value } }
    func set(_ new: Value) { lock.withLock { value = new } }
    func update<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&value) } }
}
