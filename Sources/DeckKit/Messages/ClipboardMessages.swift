import Foundation

// Clipboard messages (PROTOCOL §6 "Clipboard", DESIGN.md#clipboard).

extension DeviceMessage {
    /// Sets the computer's clipboard to the device's text or PNG image and, when `paste`, presses the paste
    /// chord in the focused window.
    public struct ClipboardSet: MessageBody {
        public static let type = "clipboardSet"
        public var kind: ClipboardKind
        /// The text's UTF-8 bytes, or the PNG file (base64 on the wire).
        public var data: Data
        /// Press the paste chord after the clipboard is set (absent → true).
        public var paste: Bool
        /// `true`: a device whose clipboard permission is off asks the computer's user (a notification with Allow
        /// once, Always allow, Deny) instead of being refused at once; ignored for a device that may paste.
        /// Absent → not asked.
        public var ask: Bool?

        public init(kind: ClipboardKind, data: Data, paste: Bool = true, ask: Bool? = nil) {
            self.kind = kind
            self.data = data
            self.paste = paste
            self.ask = ask
        }

        private enum CodingKeys: String, CodingKey { case kind, data, paste, ask }

        public init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            kind = try fields.decode(ClipboardKind.self, forKey: .kind)
            data = try fields.decode(Data.self, forKey: .data)
            paste = try fields.decode(.paste, default: true)
            ask = try fields.decodeIfPresent(Bool.self, forKey: .ask)
        }
    }
}

extension HostMessage {
    /// The outcome of one `clipboardSet`; `reason` only when not ok.
    public struct ClipboardResult: MessageBody {
        public static let type = "clipboardResult"
        public var ok: Bool
        public var reason: String?
        /// `true` when refused because the device's clipboard permission is off (it may ask: `clipboardSet{ask}`).
        public var notAllowed: Bool?
        /// For a `notAllowed` that answers `clipboardSet{ask:true}`: what became of the question (as the screen's).
        public var asked: ScreenDenied.Asked?

        public init(ok: Bool, reason: String? = nil, notAllowed: Bool? = nil, asked: ScreenDenied.Asked? = nil) {
            self.ok = ok
            self.reason = reason
            self.notAllowed = notAllowed
            self.asked = asked
        }
    }

    /// What was copied on the computer, offered to the device viewing the screen: the text or the PNG, or
    /// only its kind and size when it is over the limits (`tooLarge`).
    public struct ClipboardOffer: MessageBody {
        public static let type = "clipboardOffer"
        public var kind: ClipboardKind
        /// Bytes of the text (UTF-8) or of the PNG file.
        public var size: Int
        /// The text's UTF-8 or the PNG; absent when `tooLarge`.
        public var data: Data?
        /// An image's pixel size.
        public var width: Int?
        public var height: Int?
        /// Over the limits: nothing but the kind and size (and an image's pixels) is sent.
        public var tooLarge: Bool

        public init(
            kind: ClipboardKind, size: Int, data: Data? = nil, width: Int? = nil, height: Int? = nil,
            tooLarge: Bool = false
        ) {
            self.kind = kind
            self.size = size
            self.data = data
            self.width = width
            self.height = height
            self.tooLarge = tooLarge
        }

        /// The offer of one copy, nil for a copy that could not be read (nothing to offer).
        public init?(_ copy: ClipboardCopy) {
            switch copy {
            case .content(.text(let text)):
                let bytes = Data(text.utf8)
                self.init(kind: .text, size: bytes.count, data: bytes)
            case .content(.png(let png)):
                let pixels = try? ClipboardRules.inspectPNG(png).get()
                self.init(kind: .image, size: png.count, data: png, width: pixels?.width, height: pixels?.height)
            case .tooLarge(let kind, let size, let pixels):
                self.init(kind: kind, size: size, width: pixels?.width, height: pixels?.height, tooLarge: true)
            case .unreadable: return nil
            }
        }

        private enum CodingKeys: String, CodingKey { case kind, size, data, width, height, tooLarge }

        public init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            kind = try fields.decode(ClipboardKind.self, forKey: .kind)
            size = try fields.decode(Int.self, forKey: .size)
            data = try fields.decodeIfPresent(Data.self, forKey: .data)
            width = try fields.decodeIfPresent(Int.self, forKey: .width)
            height = try fields.decodeIfPresent(Int.self, forKey: .height)
            tooLarge = try fields.decode(.tooLarge, default: false)
        }
    }
}
