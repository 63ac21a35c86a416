import DeckActions
import DeckCrypto
import DeckDesktop
import DeckKit
import DeckRecord
import Foundation

/// The folder recordings are saved in (DESIGN.md#recording) and what a device may read from it: the list, and the
/// files' bytes in chunks. Only `.mp4` files directly in the folder are ever named or read.
struct RecordingLibrary: Sendable {
    let folder: URL
    /// Thumbnails (`data:` URLs) kept beside nothing the user sees: in the host's cache folder.
    let thumbnails: URL
    /// Each file's SHA-256 by name, size and modification time: a fetch reads the whole file once, not per chunk.
    let digests = DigestCache()

    /// Bytes per `recordingChunk` (base64 makes it a third larger, well under the 16 MiB message limit).
    static let chunkBytes = 256 * 1024

    /// `$(xdg-user-dir VIDEOS)/TouchDeck`, by xdg-user-dir's own rule: it sources `user-dirs.dirs` over the
    /// environment, so the file's `XDG_VIDEOS_DIR` wins, then `$XDG_VIDEOS_DIR`; where xdg-user-dir would
    /// answer `$HOME` (neither is set), `~/Videos/TouchDeck`.
    static func live(environment: HostEnvironment = .current) -> RecordingLibrary {
        let home = environment["HOME"] ?? NSHomeDirectory()
        let configHome = environment["XDG_CONFIG_HOME"] ?? home + "/.config"
        let videos =
            userDir("VIDEOS", in: configHome + "/user-dirs.dirs", home: home)
            ?? environment["XDG_VIDEOS_DIR"].flatMap { usableUserDir($0, home: home) } ?? home + "/Videos"
        let cache = (environment["XDG_CACHE_HOME"] ?? home + "/.cache") + "/touchdeck/thumbnails"
        return RecordingLibrary(
            folder: URL(fileURLWithPath: videos).appendingPathComponent("TouchDeck"),
            thumbnails: URL(fileURLWithPath: cache))
    }

    /// `XDG_<NAME>_DIR="$HOME/Videos"` from a user-dirs.dirs file, with `$HOME` expanded.
    static func userDir(_ name: String, in file: String, home: String) -> String? {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("XDG_\(name)_DIR=") {
            var value = line.dropFirst("XDG_\(name)_DIR=".count).trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                value = String(value.dropFirst().dropLast())
            }
            return usableUserDir(value.replacingOccurrences(of: "$HOME", with: home), home: home)
        }
        return nil
    }

    /// An absolute folder other than the home itself (user-dirs.dirs sets a folder to `$HOME/` to turn it off).
    static func usableUserDir(_ value: String, home: String) -> String? {
        value.hasPrefix("/") && value != home && value != home + "/" ? value : nil
    }

    /// A new file's URL, named by date and monitor: `2026-12-01 14.03.22 HDMI-1.mp4` (" 2" added if taken).
    func newFile(monitor: Monitor, at date: Date) throws -> URL {
        try FolderFile.privateFolder(folder)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH.mm.ss"
        let safeMonitor = monitor.name.map { $0 == "/" || $0.isNewline ? "-" : $0 }
        let stem = "\(formatter.string(from: date)) \(String(safeMonitor))"
        var url = folder.appendingPathComponent(stem + ".mp4")
        var number = 2
        while FileManager.default.fileExists(atPath: url.path) {
            url = folder.appendingPathComponent("\(stem) \(number).mp4")
            number += 1
        }
        return url
    }

    /// The file a device named, if it is a recording in the folder.
    func file(named name: String) -> URL? {
        guard name.hasSuffix(".mp4"), !name.contains("/"), !name.hasPrefix("."), name.utf8.count <= 255 else {
            return nil
        }
        let url = folder.appendingPathComponent(name)
        // The entry itself must be a regular file: a link (to devices.json, /dev/zero), a FIFO or a device is not.
        return FolderFile.isRegular(url.path) ? url : nil
    }

    /// Saves the picture shown in the list for `name`.
    func saveThumbnail(_ dataURL: String, for name: String) {
        try? FolderFile.privateFolder(thumbnails)
        try? FolderFile.writePrivate(Data(dataURL.utf8), to: thumbnails.appendingPathComponent(name + ".txt").path)
    }

    /// A saved thumbnail: a regular file of at most 256 KiB holding a `data:` URL.
    private func thumbnail(for name: String) -> String? {
        let path = thumbnails.appendingPathComponent(name + ".txt").path
        guard let data = FolderFile.read(path, limit: 256 * 1024) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        return text.hasPrefix("data:image/") ? text : nil
    }

    /// Every recording, newest first, `recording` (the file being written now) marked as such. Reads each
    /// file's duration: run it off the actor.
    func list(recording: String? = nil) -> [HostMessage.RecordingEntry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var entries: [(Date, HostMessage.RecordingEntry)] = []
        for name in names {
            guard let url = file(named: name), let handle = FolderFile.open(url.path) else { continue }
            defer { try? handle.close() }
            var info = stat()
            guard fstat(handle.fileDescriptor, &info) == 0 else { continue }
            let size = Int(info.st_size)
            let modified = Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec))
            // The probe opens the descriptor checked above, never the name again.
            let duration =
                RecordingProbe.duration(of: URL(fileURLWithPath: FolderFile.path(of: handle))).map { Int($0 / 1000) }
                ?? 0
            let thumbnail = thumbnail(for: name)
            let active: Bool? = name == recording ? true : nil
            entries.append(
                (modified, .init(name: name, size: size, durationMs: duration, thumbnail: thumbnail, recording: active))
            )
        }
        return entries.sorted { $0.0 > $1.0 }.map(\.1)
    }

    /// Deletes a recording and its thumbnail. Off the actor.
    func delete(_ name: String) throws {
        guard let url = file(named: name) else { throw RecordingLibraryError.noSuchRecording(name) }
        try FileManager.default.removeItem(at: url)
        try? FileManager.default.removeItem(at: thumbnails.appendingPathComponent(name + ".txt"))
    }

    /// One chunk of `name` from `offset`, with the whole file's size and SHA-256. Reads the file: off the actor.
    /// `progress` is called at each MiB the first fetch's digest reads.
    func chunk(
        of name: String, from offset: Int, progress: @escaping () -> Void = {}
    ) throws -> HostMessage.RecordingChunk {
        guard let url = file(named: name) else { throw RecordingLibraryError.noSuchRecording(name) }
        guard offset >= 0 else { throw RecordingLibraryError.badOffset(offset) }
        guard let handle = FolderFile.open(url.path) else { throw RecordingLibraryError.noSuchRecording(name) }
        defer { try? handle.close() }
        let stamp = try DigestCache.Stamp(of: handle, name: name)
        let size = stamp.size
        let digest = try digests.digest(for: stamp) { try Self.sha256(of: handle, progress: progress) }
        try handle.seek(toOffset: UInt64(min(offset, size)))
        let bytes = offset < size ? try handle.read(upToCount: Self.chunkBytes) ?? Data() : Data()
        return .init(name: name, offset: offset, size: size, sha256: digest, data: bytes.base64EncodedString())
    }

    /// SHA-256 of the whole file, read in 1 MiB pieces (`progress` called at each), lowercase hex.
    static func sha256(of handle: FileHandle, progress: () -> Void = {}) throws -> String {
        try handle.seek(toOffset: 0)
        let read = {
            progress()
            return try handle.read(upToCount: 1 << 20) ?? Data()
        }
        guard let digest = try SHA256.hash(reading: read) else {
            throw RecordingLibraryError.digest
        }
        return digest.map { String(format: "%02x", $0) }.joined()
    }
}

/// Why a fetch could not be answered.
enum RecordingLibraryError: Error, Equatable, CustomStringConvertible {
    /// No recording of that name in the folder.
    case noSuchRecording(String)
    /// A negative offset.
    case badOffset(Int)
    /// OpenSSL's digest failed.
    case digest

    var description: String {
        switch self {
        case .noSuchRecording(let name): "no recording is called \(name)"
        case .badOffset(let offset): "offset \(offset) is not a byte position"
        case .digest: "the SHA-256 could not be computed"
        }
    }
}
