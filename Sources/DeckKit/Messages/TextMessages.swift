// Text input messages (PROTOCOL §6, SPEC §8; protocol 2).

extension DeviceMessage {
    /// Types text into the focused window; `enter` presses Return after the text has landed.
    public struct TypeText: MessageBody {
        public static let type = "typeText"
        /// Already cleaned by the device; the host cleans again.
        public var text: String
        /// Press Return afterwards (absent → false).
        public var enter: Bool

        public init(text: String, enter: Bool = false) {
            self.text = text
            self.enter = enter
        }

        private enum CodingKeys: String, CodingKey { case text, enter }

        public init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            text = try fields.decode(String.self, forKey: .text)
            enter = try fields.decode(.enter, default: false)
        }
    }

    /// Presses one special key.
    public struct PressKey: MessageBody {
        public static let type = "pressKey"
        /// The special keys of the keyboard row.
        public enum Key: String, Codable, Hashable, Sendable, CaseIterable {
            case esc, tab, shiftTab, up, down, left, right, selectAll, backspace, ctrlC
            case returnKey = "return"
        }
        public var key: Key
        public init(key: Key) { self.key = key }
    }
}

extension HostMessage {
    /// The outcome of `typeText` or `pressKey`; `reason` only when not ok.
    public struct Typed: MessageBody {
        public static let type = "typed"
        public var ok: Bool
        public var reason: String?
        public init(ok: Bool, reason: String? = nil) {
            self.ok = ok
            self.reason = reason
        }
    }
}
