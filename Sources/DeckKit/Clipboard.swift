import Foundation

/// What a clipboard holds as the device and the computer trade it (DESIGN.md#clipboard): text, or a PNG image.
public enum ClipboardContent: Equatable, Sendable {
    case text(String)
    /// The PNG file's bytes.
    case png(Data)

    /// Which kind this is, as the wire names it.
    public var kind: ClipboardKind {
        switch self {
        case .text: .text
        case .png: .image
        }
    }

    /// The bytes that travel: the text's UTF-8, or the PNG.
    public var bytes: Data {
        switch self {
        case .text(let text): Data(text.utf8)
        case .png(let png): png
        }
    }
}

/// The two kinds the clipboard carries (`clipboardSet.kind`, `clipboardOffer.kind`).
public enum ClipboardKind: String, Codable, Sendable, CaseIterable {
    case text, image
}

/// One copy made on the computer, as the host's follower of its clipboard read it.
public enum ClipboardCopy: Equatable, Sendable {
    /// Text or a PNG within the limits (a PNG already checked with `ClipboardRules.inspectPNG`).
    case content(ClipboardContent)
    /// More than the host offers: the kind and its size in bytes; for an image too many pixels, its size.
    case tooLarge(ClipboardKind, size: Int, pixels: PNGSize? = nil)
    /// The app that copied did not hand its data over (it never answered, stalled, or sent what it promised
    /// not): why, for the log's count only; the viewer is told nothing.
    case unreadable(String)
}

/// A PNG's pixel size, from its IHDR chunk.
public struct PNGSize: Equatable, Sendable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// The clipboard's limits and checks, the same on both directions (DESIGN.md#clipboard).
public enum ClipboardRules {
    /// The most text the clipboard carries, in UTF-8 bytes: 1 MiB.
    public static let maxTextBytes = 1 << 20
    /// The largest PNG file: 8 MiB.
    public static let maxImageBytes = 8 << 20
    /// The most pixels a side of an image may have (an 8192×8192 RGBA image decodes to 256 MiB already).
    public static let maxImageSide = 8192

    /// The most a kind may weigh.
    public static func limit(of kind: ClipboardKind) -> Int {
        kind == .text ? maxTextBytes : maxImageBytes
    }

    /// Why the clipboard refuses to carry this, or nil; `bytes` are what `clipboardSet.data` carried.
    public static func content(kind: ClipboardKind, bytes: Data) -> Result<ClipboardContent, ClipboardRefusal> {
        guard bytes.count <= limit(of: kind) else { return .failure(.tooLarge(kind, size: bytes.count)) }
        switch kind {
        case .text:
            guard let text = String(validating: bytes, as: UTF8.self) else { return .failure(.notUTF8) }
            return .success(.text(text))
        case .image:
            switch inspectPNG(bytes) {
            case .failure(let refusal): return .failure(refusal)
            case .success: return .success(.png(bytes))
            }
        }
    }

    /// The PNG's pixel size when `bytes` are a whole PNG file (the signature, an IHDR chunk first with a
    /// valid CRC, chunks that fit, an IEND last) of at most `maxImageSide` pixels a side.
    public static func inspectPNG(_ bytes: Data) -> Result<PNGSize, ClipboardRefusal> {
        let data = [UInt8](bytes)
        guard data.count >= 8 + 25 + 12, data.starts(with: pngSignature) else { return .failure(.notPNG) }
        guard Array(data[12..<16]) == Array("IHDR".utf8), be32(data, 8) == 13,
            crc32(data[12..<29]) == be32(data, 29)
        else { return .failure(.notPNG) }
        let size = PNGSize(width: be32(data, 16), height: be32(data, 20))
        guard size.width > 0, size.height > 0 else { return .failure(.notPNG) }
        guard size.width <= maxImageSide, size.height <= maxImageSide else {
            return .failure(.tooManyPixels(size))
        }
        var at = 8
        while at + 12 <= data.count {
            let length = be32(data, at)
            let type = Array(data[(at + 4)..<(at + 8)])
            at += 12 + length
            if type == Array("IEND".utf8) { return at == data.count ? .success(size) : .failure(.notPNG) }
        }
        return .failure(.notPNG)
    }

    /// The paste chord for the focused window: Ctrl+Shift+V in a terminal (where Ctrl+V is a control
    /// character), Ctrl+V elsewhere. `windowClass` is the X11 WM_CLASS (instance or class) or a Wayland app id.
    public static func pasteChord(windowClass: [String]) -> KeyChord {
        let terminal = windowClass.contains { terminalClasses.contains($0.lowercased()) }
        return KeyChord(character: "v", modifiers: terminal ? [.ctrl, .shift] : [.ctrl])
    }

    /// Terminals' window classes and app ids, lowercased.
    public static let terminalClasses: Set<String> = [
        "xterm", "uxterm", "urxvt", "rxvt", "alacritty", "kitty", "foot", "footclient", "org.wezfurlong.wezterm",
        "wezterm", "gnome-terminal", "gnome-terminal-server", "org.gnome.terminal", "org.gnome.console", "kgx",
        "konsole", "org.kde.konsole", "xfce4-terminal", "terminator", "tilix", "com.gexperts.tilix", "st",
        "st-256color", "lxterminal", "mate-terminal", "qterminal", "terminology", "sakura", "guake", "tilda",
        "x-terminal-emulator", "ptyxis", "org.gnome.ptyxis", "blackbox", "com.raggesilver.blackbox",
    ]

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    private static func be32(_ data: [UInt8], _ at: Int) -> Int {
        Int(data[at]) << 24 | Int(data[at + 1]) << 16 | Int(data[at + 2]) << 8 | Int(data[at + 3])
    }

    /// CRC-32 as PNG (and zlib) define it.
    static func crc32(_ bytes: ArraySlice<UInt8>) -> Int {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return Int(crc ^ 0xFFFF_FFFF)
    }
}

/// Why the clipboard does not carry something; `description` is what the device is told.
public enum ClipboardRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// Over the kind's limit.
    case tooLarge(ClipboardKind, size: Int)
    /// Text whose bytes are not UTF-8.
    case notUTF8
    /// An image that is not a whole, well-formed PNG file.
    case notPNG
    /// A PNG with a side over `ClipboardRules.maxImageSide`.
    case tooManyPixels(PNGSize)

    public var description: String {
        switch self {
        case .tooLarge(let kind, let size):
            "the \(kind == .text ? "text" : "image") is too large to paste: \(size) bytes, at most "
                + "\(ClipboardRules.limit(of: kind)) (\(kind == .text ? "1 MiB" : "8 MiB"))"
        case .notUTF8: "the text is not valid UTF-8"
        case .notPNG: "the image is not a PNG file"
        case .tooManyPixels(let size):
            "the image is \(size.width)×\(size.height) pixels; at most \(ClipboardRules.maxImageSide)×"
                + "\(ClipboardRules.maxImageSide)"
        }
    }
}
