import DeckCrypto
import DeckKit
import DeckMedia
import DeckTransport
import Foundation

// Stored icons (PROTOCOL §6 "Stored icons", issue 22): a picture chosen on a device becomes `icons/NAME` in the
// config dir, a 144 px PNG named by its digest; a device asks for one by name to show it.
extension DeckServer {
    /// `storeIcon` and `getIcon`.
    func handleIcon(_ message: DeviceMessage, from id: ConnectionID) {
        switch message {
        case .storeIcon(let request): storeIcon(request.data, from: id)
        case .getIcon(let request): sendIcon(request.name, to: id)
        default: return
        }
    }

    /// Checks the file's kind and size at once, then converts and writes it on the icons' own thread; the device
    /// gets the name, or why not.
    private func storeIcon(_ data: Data, from id: ConnectionID) {
        let type = DeviceMessage.StoreIcon.type
        guard mayEdit(id, request: type) else { return }
        do {
            _ = try IconImage.format(of: data)
        } catch {
            return sendSealed(.error(.init(for: error, request: type)), to: id)
        }
        let folder = iconsDirectory
        let log = self.log
        let started = ContinuousClock.now
        guard
            let work = IconWork.start({ try IconFiles.store(data, in: folder) })
        else {
            let text = "the host is storing other icons; try again"
            return sendSealed(.error(.init(code: .unavailable, message: text, request: type)), to: id)
        }
        Task {
            switch await work() {
            case .success(let name):
                log.info(
                    "stored an icon",
                    ["icon": name, "bytes": "\(data.count)", "ms": "\((ContinuousClock.now - started).milliseconds)"])
                self.sendSealed(.iconStored(.init(name: name)), to: id)
            case .failure(let error):
                if !(error is IconImageError) { log.error("could not store an icon: \(error)") }
                self.sendSealed(.error(.init(for: error, request: type)), to: id)
            }
        }
    }

    /// A stored icon's PNG, read off the actor; `data` absent when there is none of that name.
    private func sendIcon(_ name: String, to id: ConnectionID) {
        guard KeyLook.isImageName(name) else {
            let text = "“\(name.prefix(80))” is not a stored icon's name (hex digits and .png)"
            return sendSealed(
                .error(.init(code: .badMessage, message: text, request: DeviceMessage.GetIcon.type)), to: id)
        }
        let file = iconsDirectory.appendingPathComponent(name)
        Task {
            let png = try? await FileWork.run { try Data(contentsOf: file) }
            self.sendSealed(.icon(.init(name: name, data: png)), to: id)
        }
    }
}

/// The icons folder's files.
enum IconFiles {
    /// Makes `data` a stored icon in `folder` (created 0700): the PNG `IconImage` makes of it, written 0600
    /// whole and renamed into place, named by the start of its SHA-256 (the same picture twice: one file).
    static func store(_ data: Data, in folder: URL) throws -> String {
        let png = try IconImage.storedPNG(from: data)
        let name = String(Bytes.hex(SHA256.hash(png)).prefix(32)) + ".png"
        try FolderFile.privateFolder(folder)
        let file = folder.appendingPathComponent(name)
        if (try? Data(contentsOf: file)) != png { try AtomicFile.write(png, to: file, mode: 0o600) }
        return name
    }
}

/// Icon conversions, one at a time on a thread of their own (never the actor's, nor the cooperative pool: a
/// 4000×3000 JPEG is tens of milliseconds of decoding), so however many devices upload, one core at most works
/// on pictures. At most `maxWaiting` wait; another is refused at once rather than held in memory.
enum IconWork {
    static let maxWaiting = 4
    private static let queue = DispatchQueue(label: "touchdeck.icons", qos: .userInitiated)
    private static let waiting = WaitingCount()

    /// Queues `work` and returns how to wait for its outcome, or nil when `maxWaiting` are waiting already.
    static func start<T: Sendable>(_ work: @escaping @Sendable () throws -> T)
        -> (@Sendable () async -> Result<T, any Error>)?
    {
        guard waiting.enter(limit: maxWaiting) else { return nil }
        let outcome = Outcome<T>()
        queue.async {
            outcome.set(Result { try work() })
            waiting.leave()
        }
        return { await outcome.value() }
    }

    private final class WaitingCount: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0

        func enter(limit: Int) -> Bool {
            lock.withLock {
                guard count < limit else { return false }
                count += 1
                return true
            }
        }

        func leave() { lock.withLock { count -= 1 } }
    }

    /// A result set once on the queue and awaited once.
    private final class Outcome<T: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var result: Result<T, any Error>?
        private var waiter: CheckedContinuation<Result<T, any Error>, Never>?

        func set(_ result: Result<T, any Error>) {
            let waiting: CheckedContinuation<Result<T, any Error>, Never>? = lock.withLock {
                self.result = result
                defer { waiter = nil }
                return waiter
            }
            waiting?.resume(returning: result)
        }

        func value() async -> Result<T, any Error> {
            await withCheckedContinuation { continuation in
                let ready: Result<T, any Error>? = lock.withLock {
                    if result == nil { waiter = continuation }
                    return result
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }
}

extension Duration {
    fileprivate var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
