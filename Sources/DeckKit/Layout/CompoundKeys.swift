// Keys made of other keys (PROTOCOL §6 "Layout", issue 22): a multi-action runs up to 16 steps in order, a
// toggle runs one of two actions and the host keeps which one is next. Kept out of Button.swift so the kinds of
// one key stay apart from the keys that hold keys; the wire fields sit flat beside `kind` like every kind's.

/// One step of a multi-action: a key of another kind, or a pause before the next step.
public enum MultiStep: Codable, Hashable, Sendable {
    /// A key run as if pressed; never a multi-action or a toggle (`CompoundRule.check`).
    case key(Button)
    /// A pause of `milliseconds` (10…10000) before the next step.
    case delay(milliseconds: Int)

    /// Wire form: a button object (its `label` is not shown; `""` will do), or `{"kind":"delay","ms":N}`.
    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: DelayKeys.self)
        if try fields.decode(String.self, forKey: .kind) == "delay" {
            self = .delay(milliseconds: try fields.decode(Int.self, forKey: .ms))
        } else {
            self = .key(try Button(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .key(let button): try button.encode(to: encoder)
        case .delay(let milliseconds):
            var fields = encoder.container(keyedBy: DelayKeys.self)
            try fields.encode("delay", forKey: .kind)
            try fields.encode(milliseconds, forKey: .ms)
        }
    }

    private enum DelayKeys: String, CodingKey { case kind, ms }
}

/// A toggle key: `on` runs when it is off (and turns it on once that action worked), `off` when it is on. The host
/// keeps `isOn`, saved in the layout like the rest of the deck, so it survives a restart and every device sees it.
public struct Toggle: Hashable, Sendable {
    /// Run to turn the key on; a key of another kind (not a multi-action or a toggle).
    public var on: Button
    /// Run to turn the key off.
    public var off: Button
    /// The label shown while on (`""`: the key's own label).
    public var onLabel: String
    /// The label shown while off (`""`: the key's own label).
    public var offLabel: String
    /// The state the host keeps: true once `on` worked, false again once `off` worked.
    public var isOn: Bool

    public init(on: Button, off: Button, onLabel: String = "", offLabel: String = "", isOn: Bool = false) {
        self.on = on
        self.off = off
        self.onLabel = onLabel
        self.offLabel = offLabel
        self.isOn = isOn
    }

    /// The action the next press runs.
    public var next: Button { isOn ? off : on }

    /// The same toggle in another state: what the host stores once an action worked.
    public func with(isOn: Bool) -> Toggle {
        var copy = self
        copy.isOn = isOn
        return copy
    }
}

extension Toggle: Codable {
    private enum CodingKeys: String, CodingKey { case on, off, onLabel, offLabel, state }

    /// `state` is `"on"` or `"off"` (absent: off); labels absent are `""`.
    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        on = try fields.decode(Button.self, forKey: .on)
        off = try fields.decode(Button.self, forKey: .off)
        onLabel = try fields.decodeIfPresent(String.self, forKey: .onLabel) ?? ""
        offLabel = try fields.decodeIfPresent(String.self, forKey: .offLabel) ?? ""
        switch try fields.decodeIfPresent(String.self, forKey: .state) ?? "off" {
        case "on": isOn = true
        case "off": isOn = false
        default: throw DecodingError.dataCorruptedError(forKey: .state, in: fields, debugDescription: "on or off")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: CodingKeys.self)
        try fields.encode(on, forKey: .on)
        try fields.encode(off, forKey: .off)
        try fields.encode(onLabel, forKey: .onLabel)
        try fields.encode(offLabel, forKey: .offLabel)
        try fields.encode(isOn ? "on" : "off", forKey: .state)
    }
}

/// A multi-action's steps as they sit beside `kind` (`"steps":[…]`).
struct MultiSteps: Codable {
    var steps: [MultiStep]
}

/// The limits of keys that hold keys; the web editor mirrors them in `Web/core/compound-keys.js`, both checked
/// against `Tests/Fixtures/rules/compound-keys.json`.
public enum CompoundRule {
    /// Steps a multi-action has at most (and at least 1).
    public static let maxSteps = 16
    /// The shortest and longest delay step, in milliseconds.
    public static let delayRange = 10...10_000

    /// Refuses a multi-action with no steps or too many, a delay out of range, and a multi-action or toggle inside
    /// either (a press could then run without end). `inner` checks each held key as a key of its own.
    static func check(_ kind: Button.Kind, inner: (Button) throws -> Void) throws {
        switch kind {
        case .multi(let steps):
            guard (1...maxSteps).contains(steps.count) else { throw LayoutError.stepCount(limit: maxSteps) }
            for step in steps {
                switch step {
                case .delay(let milliseconds):
                    guard delayRange.contains(milliseconds) else { throw LayoutError.delayOutOfRange }
                case .key(let button): try checkHeld(button, inner: inner)
                }
            }
        case .toggle(let toggle):
            try checkHeld(toggle.on, inner: inner)
            try checkHeld(toggle.off, inner: inner)
            for label in [toggle.onLabel, toggle.offLabel] where label.count > DeckLayout.maxLabel {
                throw LayoutError.fieldTooLong(field: "label", limit: DeckLayout.maxLabel)
            }
        default: return
        }
    }

    private static func checkHeld(_ button: Button, inner: (Button) throws -> Void) throws {
        guard !button.kind.holdsKeys else { throw LayoutError.nestedKey }
        try inner(button)
    }
}

extension Button.Kind {
    /// A multi-action or a toggle: a key that holds other keys.
    public var holdsKeys: Bool {
        switch self {
        case .multi, .toggle: true
        default: false
        }
    }
}

extension DeckLayout {
    /// The host keeps a toggle's state: a toggle set into a slot takes the state of the toggle it replaces
    /// (editing its actions or labels does not flip it), else starts off; the device's `state` is not taken.
    func keepingToggleState(_ button: Button, page: Int, index: Int) -> Button {
        guard case .toggle(let toggle) = button.kind else { return button }
        var kept = button
        var wasOn = false
        if case .toggle(let old) = pages[page][index]?.kind { wasOn = old.isOn }
        kept.kind = .toggle(toggle.with(isOn: wasOn))
        return kept
    }
}
