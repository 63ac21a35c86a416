// Screen viewing messages (PROTOCOL §6, SPEC §7).

extension DeviceMessage {
    /// Asks for the monitors, with thumbnails.
    public struct ListDisplays: MessageBody {
        public static let type = "listDisplays"
        public init() {}
    }

    /// Starts viewing one monitor.
    public struct StartScreen: MessageBody {
        public static let type = "startScreen"
        public var displayId: Int
        /// The device's real pixel long side; the host clamps and fits it.
        public var maxSide: Int
        /// Frames per second (absent → 30, what older devices meant).
        public var fps: Int
        /// Send system sound too (absent → false).
        public var audio: Bool

        public init(displayId: Int, maxSide: Int, fps: Int = 30, audio: Bool = false) {
            self.displayId = displayId
            self.maxSide = maxSide
            self.fps = fps
            self.audio = audio
        }

        private enum CodingKeys: String, CodingKey { case displayId, maxSide, fps, audio }

        public init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            displayId = try fields.decode(Int.self, forKey: .displayId)
            maxSide = try fields.decode(Int.self, forKey: .maxSide)
            fps = try fields.decode(.fps, default: 30)
            audio = try fields.decode(.audio, default: false)
        }
    }

    /// Changes fps and sound while streaming, without restarting the capture.
    public struct ScreenOptions: MessageBody {
        public static let type = "screenOptions"
        public var fps: Int
        public var audio: Bool
        public init(fps: Int, audio: Bool) {
            self.fps = fps
            self.audio = audio
        }
    }

    /// The device could not decode: send a keyframe soon.
    public struct RequestKeyframe: MessageBody {
        public static let type = "requestKeyframe"
        public init() {}
    }

    /// A touch on the viewed screen, normalized to the video (0…1).
    public struct Pointer: MessageBody {
        public static let type = "pointer"
        /// What the touch means.
        public enum Kind: String, Codable, Hashable, Sendable, CaseIterable {
            case click, rightClick, scroll, down, move, up
        }
        public var kind: Kind
        public var x: Double
        public var y: Double
        /// Scroll amounts (absent → 0).
        public var dx: Double
        public var dy: Double

        public init(kind: Kind, x: Double, y: Double, dx: Double = 0, dy: Double = 0) {
            self.kind = kind
            self.x = unitInterval(x)
            self.y = unitInterval(y)
            self.dx = finite(dx)
            self.dy = finite(dy)
        }

        private enum CodingKeys: String, CodingKey { case kind, x, y, dx, dy }

        public init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                kind: try fields.decode(Kind.self, forKey: .kind),
                x: try fields.decode(Double.self, forKey: .x), y: try fields.decode(Double.self, forKey: .y),
                dx: try fields.decode(.dx, default: 0), dy: try fields.decode(.dy, default: 0))
        }
    }

    /// Ends viewing.
    public struct StopScreen: MessageBody {
        public static let type = "stopScreen"
        public init() {}
    }
}

extension HostMessage {
    /// One monitor, listed left to right.
    public struct DisplayEntry: Codable, Hashable, Sendable {
        public var id: Int
        /// XRandR output name.
        public var name: String
        /// Pixel size.
        public var width: Int
        public var height: Int
        /// A `data:` URL of a 320 px JPEG, or nil.
        public var thumbnail: String?

        public init(id: Int, name: String, width: Int, height: Int, thumbnail: String? = nil) {
            self.id = id
            self.name = name
            self.width = width
            self.height = height
            self.thumbnail = thumbnail
        }
    }

    /// The monitors, or why none can be shown.
    public struct Displays: MessageBody {
        public static let type = "displays"
        /// Whether the list could be made.
        public enum Status: String, Codable, Hashable, Sendable, CaseIterable {
            case ok, noPermission, notAllowed
        }
        public var displays: [DisplayEntry]
        public var status: Status
        public init(displays: [DisplayEntry], status: Status) {
            self.displays = displays
            self.status = status
        }
    }

    /// Streaming began at this size and rate.
    public struct ScreenStarted: MessageBody {
        public static let type = "screenStarted"
        public var displayId: Int
        public var width: Int
        public var height: Int
        public var fps: Int
        public var audio: Bool
        /// Why the pointer and the keys do not reach the computer during this viewing (e.g. the computer's user
        /// shared the screen but not remote control); absent when they do.
        public var viewOnly: String?

        public init(displayId: Int, width: Int, height: Int, fps: Int, audio: Bool, viewOnly: String? = nil) {
            self.displayId = displayId
            self.width = width
            self.height = height
            self.fps = fps
            self.audio = audio
            self.viewOnly = viewOnly
        }
    }

    /// Viewing refused; `viewer` names the current viewer only for `busy`.
    public struct ScreenDenied: MessageBody {
        public static let type = "screenDenied"
        /// Why viewing was refused (checked in this order).
        public enum Reason: String, Codable, Hashable, Sendable, CaseIterable {
            case notAllowed, noPermission, locked, busy
        }
        public var reason: Reason
        public var viewer: String?
        public init(reason: Reason, viewer: String? = nil) {
            self.reason = reason
            self.viewer = viewer
        }
    }

    /// Viewing was accepted but waits: `screenStarted` or `screenDenied` follows.
    public struct ScreenPending: MessageBody {
        public static let type = "screenPending"
        /// What it waits for.
        public enum Reason: String, Codable, Hashable, Sendable, CaseIterable {
            /// The computer's user must approve screen sharing there (the ScreenCast portal's first use).
            case approval
        }
        public var reason: Reason
        public init(reason: Reason) { self.reason = reason }
    }

    /// Viewing ended.
    public struct ScreenStopped: MessageBody {
        public static let type = "screenStopped"
        /// Why viewing ended.
        public enum Reason: String, Codable, Hashable, Sendable, CaseIterable {
            /// The device sent `stopScreen`.
            case requested
            /// The desktop was locked or its screensaver came on.
            case locked
            /// Another connection of the same device started viewing.
            case replaced
            /// Capture or encoding failed (the display went away, the monitor was unplugged).
            case error
            /// The host's user turned "screen allowed" off for this device.
            case notAllowed
            /// The host's user ended viewing (`touchdeck disconnect-viewer`), or the host is stopping.
            case ended
        }
        public var reason: Reason
        public init(reason: Reason) { self.reason = reason }
    }
}
