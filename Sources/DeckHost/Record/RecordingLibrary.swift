import COpenSSL
import DeckActions
import DeckKit
import DeckRecord
import DeckScreen
import Foundation

/// The folder recordings are saved in (SPEC §11) and what a device may read from it: the list, and the files'
/// bytes in chunks. Only `.mp4` files directly in the folder are ever named or read.
struct RecordingLibrary: Sendable {
    let folder: URL
    /// Thumbnails (`data:` URLs) kept beside nothing the user sees: in the host's cache folder.
    let thumbnails: URL

    /// Bytes per `recordingChunk` (base64 makes it a third larger, well under the 16 MiB message limit).
    static let chunkBytes = 256 * 1024

    /// `$(xdg-user-dir VIDEOS)/TouchDeck` (read from `user-dirs.dirs` as xdg-user-dir does), else
    /// `~/Videos/TouchDeck`.
    static func live(environment: HostEnvironment = .current) -> RecordingLibrary {
        let home = environment["HOME"] ?? NSHomeDirectory()
        let configHome = environment["XDG_CONFIG_HOME"] ?? home + "/.config"
        let videos = userDir("VIDEOS", in: configHome + "/user-dirs.dirs", home: home) ?? home + "/Videos"
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
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            value = value.replacingOccurrences(of: "$HOME", with: home)
            guard value.hasPrefix("/"), value != home, value != home + "/" else { return nil }
            return value
        }
        return nil
    }

    /// A new file's URL, named by date and monitor: `2026-12-01 14.03.22 HDMI-1.mp4` (" 2" added if taken).
    func newFile(monitor: Monitor, at date: Date) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
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
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue
        else { return nil }
        return url
    }

    /// Saves the picture shown in the list for `name`.
    func saveThumbnail(_ dataURL: String, for name: String) {
        try? FileManager.default.createDirectory(at: thumbnails, withIntermediateDirectories: true)
        try? Data(dataURL.utf8).write(to: thumbnails.appendingPathComponent(name + ".txt"))
    }

    /// Every recording, newest first. Reads each file's duration: run it off the actor.
    func list() -> [HostMessage.RecordingEntry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var entries: [(Date, HostMessage.RecordingEntry)] = []
        for name in names {
            guard let url = file(named: name),
                let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
            else { continue }
            let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
            let modified = attributes[.modificationDate] as? Date ?? .distantPast
            let duration = RecordingProbe.duration(of: url).map { Int($0 / 1000) } ?? 0
            let thumbnail = try? String(
                contentsOf: thumbnails.appendingPathComponent(name + ".txt"), encoding: .utf8)
            entries.append((modified, .init(name: name, size: size, durationMs: duration, thumbnail: thumbnail)))
        }
        return entries.sorted { $0.0 > $1.0 }.map(\.1)
    }

    /// One chunk of `name` from `offset`, with the whole file's size and SHA-256. Reads the file: off the actor.
    func chunk(of name: String, from offset: Int) throws -> HostMessage.RecordingChunk {
        guard let url = file(named: name) else { throw RecordingLibraryError.noSuchRecording(name) }
        guard offset >= 0 else { throw RecordingLibraryError.badOffset(offset) }
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let size = Int(try handle.seekToEnd())
        let digest = try Self.sha256(of: handle)
        try handle.seek(toOffset: UInt64(min(offset, size)))
        let bytes = offset < size ? try handle.read(upToCount: Self.chunkBytes) ?? Data() : Data()
        return .init(name: name, offset: offset, size: size, sha256: digest, data: bytes.base64EncodedString())
    }

    /// SHA-256 of the whole file, read in 1 MiB pieces, lowercase hex.
    static func sha256(of handle: FileHandle) throws -> String {
        try handle.seek(toOffset: 0)
        guard let context = EVP_MD_CTX_new() else { throw RecordingLibraryError.digest }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else { throw RecordingLibraryError.digest }
        while let piece = try handle.read(upToCount: 1 << 20), !piece.isEmpty {
            let ok = piece.withUnsafeBytes { EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
            guard ok == 1 else { throw RecordingLibraryError.digest }
        }
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1 else { throw RecordingLibraryError.digest }
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
