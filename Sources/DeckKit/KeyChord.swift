/// One key pressed with modifiers held around it: what `pressKey` asks for (a named key such as F5 or Home, or
/// the key that types a character on the current layout, so Ctrl+Z presses the key that types z whatever the
/// layout). The modifiers go down in order before the key and come up in reverse after it.
public struct KeyChord: Hashable, Sendable {
    public typealias Named = DeviceMessage.PressKey.Key
    public typealias Modifier = DeviceMessage.PressKey.Modifier

    public enum Key: Hashable, Sendable {
        case named(Named)
        /// A printable character (one Unicode scalar, not a control or a space: `space` is a named key).
        case character(Unicode.Scalar)
    }

    public var key: Key
    public var modifiers: [Modifier]

    public init(_ named: Named, modifiers: [Modifier] = []) {
        key = .named(named)
        self.modifiers = modifiers
    }

    public init(character: Unicode.Scalar, modifiers: [Modifier] = []) {
        key = .character(character)
        self.modifiers = modifiers
    }

    /// A chord from the wire's `key` and `modifiers` (each at most once); nil when `key` names no key.
    public init?(name: String, modifiers: [Modifier]) {
        guard case .success(let chord) = Self.read(key: name, modifiers: modifiers.map(\.rawValue)) else { return nil }
        self = chord
    }

    /// Why the wire's `key` and `modifiers` name no chord. The web client's `chordProblem` (Web/core/hotkeys.js)
    /// gives the same names, both checked against `Tests/Fixtures/rules/chords.json`.
    public enum Problem: String, Error, Hashable, Sendable, CaseIterable, WireReportable {
        /// No key, an empty one, or a modifier's name as the key: modifiers alone press nothing.
        case noKey
        /// Neither a named key nor one printable character (`F25`, `ab`, a control character).
        case unknownKey
        /// A modifier other than ctrl, alt, shift and super.
        case unknownModifier
        /// A modifier named twice.
        case repeatedModifier

        public var wireCode: WireErrorCode { .badMessage }

        /// The reason told to the device; it never quotes the value.
        public var wireMessage: String {
            switch self {
            case .noKey: "a hotkey needs a key besides its modifiers"
            case .unknownKey: "a hotkey's key is a named key (f1…f24, home, playPause…) or one printable character"
            case .unknownModifier: "a hotkey's modifiers are ctrl, alt, shift and super"
            case .repeatedModifier: "a hotkey names each modifier at most once"
            }
        }
    }

    /// The chord the wire's `key` (absent: nil) and `modifiers` name, or why they name none. The key is looked at
    /// first, then the modifiers.
    public static func read(key: String?, modifiers: [String]) -> Result<KeyChord, Problem> {
        guard let key, !key.isEmpty, Modifier(rawValue: key) == nil else { return .failure(.noKey) }
        let named = Named(rawValue: key)
        let scalar = named == nil ? character(in: key) : nil
        guard named != nil || scalar != nil else { return .failure(.unknownKey) }
        let held = modifiers.compactMap(Modifier.init(rawValue:))
        guard held.count == modifiers.count else { return .failure(.unknownModifier) }
        guard Set(held).count == held.count else { return .failure(.repeatedModifier) }
        if let named { return .success(KeyChord(named, modifiers: held)) }
        return .success(KeyChord(character: scalar!, modifiers: held))
    }

    /// The wire's `key`: the named key's name, or the character itself.
    public var name: String {
        switch key {
        case .named(let named): named.rawValue
        case .character(let scalar): String(Character(scalar))
        }
    }

    /// The one printable scalar `text` holds, if that is all it holds.
    public static func character(in text: String) -> Unicode.Scalar? {
        let scalars = text.unicodeScalars
        guard scalars.count == 1, let scalar = scalars.first else { return nil }
        switch scalar.properties.generalCategory {
        case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned,
            .privateUse:
            return nil
        default: return scalar
        }
    }
}

extension KeyChord.Named {
    /// The key's keysym: the numbers X11 and xkbcommon share (`XK_Escape`, `XKB_KEY_Escape`).
    public var keysym: UInt32 {
        switch self {
        case .esc: 0xff1b
        case .tab, .shiftTab: 0xff09
        case .up: 0xff52
        case .down: 0xff54
        case .left: 0xff51
        case .right: 0xff53
        case .selectAll: 0x61  // a
        case .backspace: 0xff08
        case .ctrlC: 0x63  // c
        case .returnKey: 0xff0d
        case .delete: 0xffff
        case .insert: 0xff63
        case .home: 0xff50
        case .end: 0xff57
        case .pageUp: 0xff55
        case .pageDown: 0xff56
        case .space: 0x20
        case .f1, .f2, .f3, .f4, .f5, .f6, .f7, .f8, .f9, .f10, .f11, .f12, .f13, .f14, .f15, .f16, .f17, .f18,
            .f19, .f20, .f21, .f22, .f23, .f24:
            0xffbe + UInt32(Self.functionKeys.firstIndex(of: self)!)
        case .print: 0xff61
        // The XF86 keysyms of keyboards' media, volume and brightness keys.
        case .playPause: 0x1008_ff14  // XF86AudioPlay
        case .stopMedia: 0x1008_ff15  // XF86AudioStop
        case .previousTrack: 0x1008_ff16  // XF86AudioPrev
        case .nextTrack: 0x1008_ff17  // XF86AudioNext
        case .mute: 0x1008_ff12  // XF86AudioMute
        case .volumeDown: 0x1008_ff11  // XF86AudioLowerVolume
        case .volumeUp: 0x1008_ff13  // XF86AudioRaiseVolume
        case .brightnessUp: 0x1008_ff02  // XF86MonBrightnessUp
        case .brightnessDown: 0x1008_ff03  // XF86MonBrightnessDown
        }
    }

    /// The modifiers the key itself stands for: Shift-Tab, select all (Ctrl+A) and copy (Ctrl+C).
    public var impliedModifiers: [KeyChord.Modifier] {
        switch self {
        case .shiftTab: [.shift]
        case .selectAll, .ctrlC: [.ctrl]
        default: []
        }
    }

    static let functionKeys: [Self] = [
        .f1, .f2, .f3, .f4, .f5, .f6, .f7, .f8, .f9, .f10, .f11, .f12, .f13, .f14, .f15, .f16, .f17, .f18, .f19, .f20,
        .f21, .f22, .f23, .f24,
    ]
}

extension KeyChord {
    /// The keysym of the key: a named key's, or the character's (Latin-1 keysyms equal the code point, every
    /// other character is 0x01000000 + its code point, as Xlib and xkbcommon read them).
    public var keysym: UInt32 {
        switch key {
        case .named(let named): named.keysym
        case .character(let scalar):
            (0x20...0x7e).contains(scalar.value) || (0xa0...0xff).contains(scalar.value)
                ? scalar.value : 0x0100_0000 | scalar.value
        }
    }

    /// Every modifier held: the named key's own first, then those asked for, each once.
    public var heldModifiers: [Modifier] {
        var held: [Modifier] = []
        if case .named(let named) = key { held = named.impliedModifiers }
        for modifier in modifiers where !held.contains(modifier) { held.append(modifier) }
        return held
    }
}
