import Foundation

/// A key's state command (issue 23, PROTOCOL §6 "Live looks"): a line for the user's shell whose output, one JSON
/// object a line, is the key's live look. With `every` it runs every that many seconds (at least 1) and is killed
/// when it runs longer; without, it keeps running and each line counts as it comes.
///
/// Wire form, beside the button's other fields: `"stateCommand":{"command":"mic-state","every":5}`.
public struct StateSource: Codable, Hashable, Sendable {
    public var command: String
    /// Seconds between runs; nil: one long-running command.
    public var every: Int?

    public init(command: String, every: Int? = nil) {
        self.command = command
        self.every = every
    }

    private enum CodingKeys: String, CodingKey { case command, every }

    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        command = try fields.decode(String.self, forKey: .command)
        every = try fields.decodeIfPresent(Int.self, forKey: .every)
        guard !command.isEmpty, command.utf8.count <= DeckLayout.maxField else {
            throw DecodingError.dataCorruptedError(
                forKey: .command, in: fields, debugDescription: "a state command is 1 to 4096 bytes")
        }
        if let every, every < 1 {
            throw DecodingError.dataCorruptedError(
                forKey: .every, in: fields, debugDescription: "every is at least 1 second")
        }
    }
}

/// What a key shows live over its configured look: from its state command's lines or `touchdeck key set`. Every
/// field is optional; absent ones leave the configured look as it is.
///
/// Wire form (in `keyState`): `{"label":"42%","color":"red","icon":{"emoji":"🎙"},"badge":"3","state":"on",
/// "value":0.42}`, the icon as in a key's look.
public struct LiveLook: Codable, Hashable, Sendable {
    public var label: String?
    public var color: String?
    public var icon: KeyLook.Icon?
    /// A number or up to 4 characters.
    public var badge: String?
    /// On or off (drawn like a toggle's).
    public var state: Bool?
    /// 0…1, drawn as a thin bar.
    public var value: Double?

    public init(
        label: String? = nil, color: String? = nil, icon: KeyLook.Icon? = nil, badge: String? = nil,
        state: Bool? = nil, value: Double? = nil
    ) {
        self.label = label
        self.color = color
        self.icon = icon
        self.badge = badge
        self.state = state
        self.value = value
    }

    public var isEmpty: Bool { self == LiveLook() }

    /// The longest line a state command may print, and the most it may print in one run.
    public static let maxLineBytes = 64 * 1024
    public static let maxRunBytes = 10 * 1024 * 1024
    /// The most characters a badge has.
    public static let maxBadge = 4

    /// Why a state line is refused; shown on the key's edit sheet.
    public struct LineError: Error, Equatable, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    /// This look with the fields `line` (one JSON object) names put over it; `null` clears a field. Refuses a line
    /// that is not an object, a field of the wrong type, a colour outside the palette, a badge longer than 4
    /// characters, a value outside 0…1 and fields it does not know.
    public func applying(line: some StringProtocol) throws(LineError) -> LiveLook {
        let object: [String: Any]
        do {
            guard let parsed = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw LineError("a state line is one JSON object")
            }
            object = parsed
        } catch let error as LineError {
            throw error
        } catch {
            throw LineError("invalid JSON: \(String(line.prefix(60)))")
        }
        var look = self
        for (name, raw) in object.sorted(by: { $0.key < $1.key }) {
            let value: Any? = raw is NSNull ? nil : raw
            try look.set(name, value)
        }
        return look
    }

    private mutating func set(_ name: String, _ value: Any?) throws(LineError) {
        switch name {
        case "label":
            let text = try Self.text(value, name)
            if let text, text.utf8.count > DeckLayout.maxField { throw LineError("label is too long") }
            label = text.map(DisplayName.strip)
        case "color":
            let text = try Self.text(value, name)
            if let text, !KeyLook.palette.contains(text) {
                throw LineError("color is one of \(KeyLook.palette.joined(separator: ", "))")
            }
            color = text
        case "icon":
            let candidate = try Self.text(value, name).map(Self.icon(named:))
            do {
                try KeyLook(icon: candidate).check()
            } catch {
                throw LineError("icon: \(error)")
            }
            icon = candidate
        case "badge":
            if let number = value as? NSNumber, !(value is Bool) {
                badge = number.stringValue
            } else {
                badge = try Self.text(value, name)
            }
            if let text = badge, text.isEmpty { badge = nil }
            if let text = badge, text.count > Self.maxBadge { throw LineError("badge is a number or ≤ 4 characters") }
        case "state":
            let text = try Self.text(value, name)
            if let text, text != "on" && text != "off" { throw LineError("state is on or off") }
            state = text.map { $0 == "on" }
        case "value":
            if let value {
                guard let number = value as? NSNumber, !(value is Bool), (0...1).contains(number.doubleValue) else {
                    throw LineError("value is a number from 0 to 1")
                }
                self.value = number.doubleValue
            } else {
                self.value = nil
            }
        default:
            throw LineError("unknown field \(name) (label, color, icon, badge, state, value)")
        }
    }

    private static func text(_ value: Any?, _ name: String) throws(LineError) -> String? {
        guard let value else { return nil }
        guard let text = value as? String else { throw LineError("\(name) is a string") }
        return text
    }

    /// A stored icon's file name, one character (an emoji) or else an app's desktop-file id.
    public static func icon(named name: String) -> KeyLook.Icon {
        if KeyLook.isImageName(name) { return .image(name) }
        if name.count == 1 { return .emoji(name) }
        return .app(appId: name)
    }

    private enum CodingKeys: String, CodingKey { case label, color, icon, badge, state, value }

    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        label = try fields.decodeIfPresent(String.self, forKey: .label)
        badge = try fields.decodeIfPresent(String.self, forKey: .badge)
        value = try fields.decodeIfPresent(Double.self, forKey: .value)
        state = try fields.decodeIfPresent(String.self, forKey: .state).map { $0 == "on" }
        let look = try KeyLook(from: decoder)
        color = look.color
        icon = look.icon
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: CodingKeys.self)
        try fields.encodeIfPresent(label, forKey: .label)
        try KeyLook(color: color, icon: icon).encode(to: encoder)
        try fields.encodeIfPresent(badge, forKey: .badge)
        try fields.encodeIfPresent(state.map { $0 ? "on" : "off" }, forKey: .state)
        try fields.encodeIfPresent(value, forKey: .value)
    }
}

/// At most one live look per key every `gap` (10 a second), the latest winning: a look offered sooner than `gap`
/// after the last one sent waits until then, and a newer one replaces it. Pure, with the time passed in.
public struct LookCoalescer<Key: Hashable & Sendable>: Sendable {
    public enum Decision: Equatable, Sendable {
        /// Send it now.
        case now
        /// Keep it; send the latest at this time (a flush already planned when `alreadyPlanned`).
        case later(at: Double, alreadyPlanned: Bool)
    }

    public let gap: Double
    private var lastSent: [Key: Double] = [:]
    private var planned: Set<Key> = []

    public init(gap: Double = 0.1) { self.gap = gap }

    /// A new look for `key` at `now` (seconds on a monotonic clock).
    public mutating func offer(_ key: Key, now: Double) -> Decision {
        if let last = lastSent[key], now - last < gap {
            let already = !planned.insert(key).inserted
            return .later(at: last + gap, alreadyPlanned: already)
        }
        if planned.contains(key) { return .later(at: (lastSent[key] ?? now) + gap, alreadyPlanned: true) }
        lastSent[key] = now
        return .now
    }

    /// The planned flush for `key` ran at `now`: the latest look goes out.
    public mutating func flushed(_ key: Key, now: Double) {
        planned.remove(key)
        lastSent[key] = now
    }

    /// Forgets `key` (its command stopped).
    public mutating func forget(_ key: Key) {
        lastSent[key] = nil
        planned.remove(key)
    }
}

/// How long a failing state command waits before it runs again: 1 s, then twice as long each failure in a row, at
/// most 60 s; a run that works starts over.
public struct RestartBackoff: Equatable, Sendable {
    public static let first = 1.0
    public static let longest = 60.0
    public private(set) var failures = 0

    public init() {}

    /// One more failure; returns the seconds to wait before the next run.
    public mutating func failed() -> Double {
        failures += 1
        return min(Self.longest, Self.first * pow(2, Double(min(failures - 1, 10))))
    }

    /// A run worked (or ran long enough to count as healthy).
    public mutating func succeeded() { failures = 0 }
}
