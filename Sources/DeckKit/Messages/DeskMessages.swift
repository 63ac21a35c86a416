// App catalog, volume and keypad messages (PROTOCOL §6, DESIGN.md#deck, #search).

extension DeviceMessage {
    /// Asks for the app catalog.
    public struct ListApps: MessageBody {
        public static let type = "listApps"
        public init() {}
    }

    /// Sets the default sink's volume.
    public struct SetVolume: MessageBody {
        public static let type = "setVolume"
        /// 0…1; values outside are clamped.
        public var level: Double

        public init(level: Double) { self.level = unitInterval(level) }

        private enum CodingKeys: String, CodingKey { case level }

        public init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            self.init(level: try fields.decode(Double.self, forKey: .level))
        }
    }

    /// Toggles the default sink's mute.
    public struct ToggleMute: MessageBody {
        public static let type = "toggleMute"
        public init() {}
    }

    /// Types one keypad key on the host.
    public struct Keypad: MessageBody {
        public static let type = "keypad"
        /// The keys of the keypad tab.
        public enum Key: String, Codable, Hashable, Sendable, CaseIterable {
            case digit0 = "0"
            case digit1 = "1"
            case digit2 = "2"
            case digit3 = "3"
            case digit4 = "4"
            case digit5 = "5"
            case digit6 = "6"
            case digit7 = "7"
            case digit8 = "8"
            case digit9 = "9"
            case point = "."
            case plus = "+"
            case minus = "-"
            case multiply = "*"
            case divide = "/"
            case equals = "="
            case enter, backspace
        }
        public var key: Key
        public init(key: Key) { self.key = key }
    }
}

extension HostMessage {
    /// One launchable desktop entry.
    public struct AppEntry: Codable, Hashable, Sendable {
        /// Desktop entry id, e.g. `org.gnome.Nautilus.desktop`.
        public var id: String
        /// Name in the host's locale.
        public var name: String
        /// A `data:` URL (PNG or SVG, at most 64 px), or nil.
        public var icon: String?

        public init(id: String, name: String, icon: String? = nil) {
            self.id = id
            self.name = name
            self.icon = icon
        }
    }

    /// The app catalog.
    public struct Apps: MessageBody {
        public static let type = "apps"
        public var apps: [AppEntry]
        public init(apps: [AppEntry]) { self.apps = apps }
    }

    /// The default sink's state; sent on every change, wherever it was made.
    public struct Volume: MessageBody {
        public static let type = "volume"
        /// False when there is no sound server.
        public var available: Bool
        /// 0…1.
        public var level: Double
        public var muted: Bool

        public init(available: Bool, level: Double, muted: Bool) {
            self.available = available
            self.level = unitInterval(level)
            self.muted = muted
        }
    }

    /// The outcome of a `keypad` key; `reason` only when not ok.
    public struct KeypadResult: MessageBody {
        public static let type = "keypadResult"
        public var ok: Bool
        public var reason: String?
        public init(ok: Bool, reason: String? = nil) {
            self.ok = ok
            self.reason = reason
        }
    }
}
