// Text input messages (PROTOCOL §6, DESIGN.md#typing; protocol 2).

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

    /// Presses one key, a named one or a character, with modifiers held around it (Ctrl+S, Alt+Tab).
    public struct PressKey: MessageBody {
        public static let type = "pressKey"
        /// The named keys of the keyboard row and panel.
        public enum Key: String, Codable, Hashable, Sendable, CaseIterable {
            case esc, tab, shiftTab, up, down, left, right, selectAll, backspace, ctrlC
            case returnKey = "return"
            case delete, insert, home, end, pageUp, pageDown, space
            case f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12
            case f13, f14, f15, f16, f17, f18, f19, f20, f21, f22, f23, f24
            case print
            case playPause, nextTrack, previousTrack, stopMedia, mute, volumeDown, volumeUp
            case brightnessUp, brightnessDown
        }
        /// A modifier held while the key is pressed, released after it whatever happened.
        public enum Modifier: String, Codable, Hashable, Sendable, CaseIterable {
            case ctrl, alt, shift
            case superKey = "super"
        }
        public var chord: KeyChord

        public init(key: Key, modifiers: [Modifier] = []) { chord = KeyChord(key, modifiers: modifiers) }
        public init(chord: KeyChord) { self.chord = chord }

        private enum CodingKeys: String, CodingKey { case key, modifiers }

        public init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            let name = try fields.decode(String.self, forKey: .key)
            let modifiers = try fields.decode(.modifiers, default: [Modifier]())
            guard modifiers.count <= Modifier.allCases.count, Set(modifiers).count == modifiers.count else {
                throw MessageError.malformed("invalid value for 'modifiers'")
            }
            if let key = Key(rawValue: name) {
                chord = KeyChord(key, modifiers: modifiers)
            } else if let scalar = KeyChord.character(in: name) {
                chord = KeyChord(character: scalar, modifiers: modifiers)
            } else {
                throw MessageError.malformed("invalid value for 'key'")
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var fields = encoder.container(keyedBy: CodingKeys.self)
            try fields.encode(chord.name, forKey: .key)
            if !chord.modifiers.isEmpty { try fields.encode(chord.modifiers, forKey: .modifiers) }
        }
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
