import DeckKit
import Foundation

/// The MIME types GNOME's clipboard carries for the host (Mutter names every format by its MIME type; X11 apps'
/// targets come through Xwayland as UTF8_STRING and STRING): what the host offers for what a device pasted, which
/// of another app's types it reads, and what the bytes read are, by the shared `ClipboardRules`.
enum MutterClipboardFormats {
    /// How the bytes of a type read are text or an image.
    enum Encoding: Equatable {
        case utf8, latin1, png

        var kind: ClipboardKind { self == .png ? .image : .text }
    }

    /// The types the host offers for content of `kind`: UTF-8 text under its MIME type and the X11 name
    /// (text/plain is read as UTF-8 by GTK 4 and Qt), or the PNG.
    static func offered(_ kind: ClipboardKind) -> [String] {
        kind == .text ? ["text/plain;charset=utf-8", "UTF8_STRING", "text/plain"] : ["image/png"]
    }

    /// The type to read among those another app offers: text first (an office suite offers a picture of cells
    /// beside their text), then a PNG; nil when it offers neither.
    static func choose(_ offered: [String]) -> (mime: String, encoding: Encoding)? {
        let preference: [(String, Encoding)] = [
            ("text/plain;charset=utf-8", .utf8), ("utf8_string", .utf8), ("text/plain", .utf8),
            ("string", .latin1), ("image/png", .png),
        ]
        for (wanted, encoding) in preference {
            if let mime = offered.first(where: { normalized($0) == wanted }) { return (mime, encoding) }
        }
        return nil
    }

    /// "text/plain; charset=UTF-8" and "text/plain;charset=utf-8" are one type.
    private static func normalized(_ mime: String) -> String {
        mime.lowercased().replacingOccurrences(of: " ", with: "")
    }

    /// The most bytes a read keeps, and where it stops counting a copy too large (its size is then "at least").
    static func limits(_ encoding: Encoding) -> (keep: Int, count: Int) {
        let limit = ClipboardRules.limit(of: encoding.kind)
        return (limit, limit * 32)
    }

    /// What a read of a type of `encoding` is as a copy; nil when it was cancelled (a newer copy replaced it).
    static func copy(_ outcome: DescriptorTransfer.ReadOutcome, _ encoding: Encoding) -> ClipboardCopy? {
        switch outcome {
        case .cancelled: return nil
        case .stalled: return .unreadable("the app that copied did not hand the data over")
        case .failed(let why): return .unreadable("the copy could not be read: \(why)")
        case .tooLarge(let size): return .tooLarge(encoding.kind, size: size)
        case .received(var bytes):
            if encoding == .latin1 { bytes = Data(String(decoding: bytes.map { UInt16($0) }, as: UTF16.self).utf8) }
            switch ClipboardRules.content(kind: encoding.kind, bytes: bytes) {
            case .success(let content): return .content(content)
            case .failure(.tooLarge(let kind, let size)): return .tooLarge(kind, size: size)
            case .failure(.tooManyPixels(let pixels)): return .tooLarge(.image, size: bytes.count, pixels: pixels)
            case .failure(.notUTF8): return .unreadable("the copied text is not UTF-8")
            case .failure(.notPNG): return .unreadable("the copied image is not a PNG file")
            }
        }
    }
}
