/// What a slider moves and shows (PROTOCOL §6 "Tiles and sliders").
///
/// Wire form, beside the key's other fields: `"bind":"speakers"`, `"bind":"microphone"`,
/// `"bind":"app","app":"Firefox"` (the app's `application.name`), `"bind":"script","command":"light {value}"`.
public enum SliderBinding: Hashable, Sendable {
    /// The default output's volume (the gauge's).
    case speakers
    /// The default input's volume.
    case microphone
    /// One app's own volume: its sink inputs, by `application.name`.
    case app(String)
    /// A line for the user's shell with `{value}` (0…100) in it, run when the slider moves.
    case script(String)

    /// The word a script's command must hold, replaced by the value.
    public static let placeholder = "{value}"
    /// The most a script slider's command runs in a second (the last value always runs).
    public static let scriptRate = 20.0

    /// The wire name of the binding.
    public var name: String {
        switch self {
        case .speakers: "speakers"
        case .microphone: "microphone"
        case .app: "app"
        case .script: "script"
        }
    }

    /// The command for `value` (0…1): `{value}` becomes a whole number 0…100.
    public func command(for value: Double) -> String? {
        guard case .script(let line) = self else { return nil }
        let percent = Int((min(max(value, 0), 1) * 100).rounded())
        return line.replacingOccurrences(of: Self.placeholder, with: String(percent))
    }

    /// Why the binding cannot be stored; nil when it can.
    var problem: String? {
        switch self {
        case .speakers, .microphone: nil
        case .app(let name):
            name.isEmpty || name.utf8.count > DeckLayout.maxLabel * 4 ? "a slider's app is its application.name" : nil
        case .script(let line):
            !line.contains(Self.placeholder) || line.utf8.count > DeckLayout.maxField
                ? "a script slider's command holds {value} (0…100) and is at most 4096 bytes" : nil
        }
    }
}

/// What a slider's value is worth: at most `SliderBinding.scriptRate` script runs a second, the latest value
/// always run last. Pure, with the time passed in, like `LookCoalescer`.
public struct SliderThrottle<Key: Hashable & Sendable>: Sendable {
    public enum Decision: Equatable, Sendable {
        case now
        /// Hold the value; run the latest at this time (a run already planned when `alreadyPlanned`).
        case later(at: Double, alreadyPlanned: Bool)
    }

    private var coalescer: LookCoalescer<Key>

    public init(rate: Double = SliderBinding.scriptRate) { coalescer = LookCoalescer(gap: 1 / rate) }

    public mutating func offer(_ key: Key, now: Double) -> Decision {
        switch coalescer.offer(key, now: now) {
        case .now: .now
        case .later(let at, let planned): .later(at: at, alreadyPlanned: planned)
        }
    }

    public mutating func ran(_ key: Key, now: Double) { coalescer.flushed(key, now: now) }
}
