// Screen viewing messages (PROTOCOL §6, DESIGN.md#viewing).

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
        /// `true`: a device that may not view asks the computer's user (a notification with Allow once, Always
        /// allow, Deny) instead of being refused at once; ignored for a device that may view. Absent → not asked.
        public var ask: Bool?
        /// Extend: view a new monitor made for this device instead of `displayId` (which is then not looked at).
        public var extend: ExtendRequest?

        public init(
            displayId: Int, maxSide: Int, fps: Int = 30, audio: Bool = false, ask: Bool? = nil,
            extend: ExtendRequest? = nil
        ) {
            self.displayId = displayId
            self.maxSide = maxSide
            self.fps = fps
            self.audio = audio
            self.ask = ask
            self.extend = extend
        }

        private enum CodingKeys: String, CodingKey { case displayId, maxSide, fps, audio, ask, extend }

        public init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            displayId = try fields.decode(Int.self, forKey: .displayId)
            maxSide = try fields.decode(Int.self, forKey: .maxSide)
            fps = try fields.decode(.fps, default: 30)
            audio = try fields.decode(.audio, default: false)
            ask = try fields.decodeIfPresent(Bool.self, forKey: .ask)
            extend = try fields.decodeIfPresent(ExtendRequest.self, forKey: .extend)
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
        /// Whether Extend is offered here (absent: not said, as from a host before it; also with `notAllowed`).
        public var extend: ExtendOffer?
        public init(displays: [DisplayEntry], status: Status, extend: ExtendOffer? = nil) {
            self.displays = displays
            self.status = status
            self.extend = extend
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
            /// Extend was asked for and this desktop cannot add a monitor, or adding it failed (`detail` says why).
            case cannotExtend
        }
        /// For a `notAllowed` that answers `startScreen{ask:true}`: what became of the question.
        public enum Asked: String, Codable, Hashable, Sendable, CaseIterable {
            /// The computer cannot ask (no notification server, or one without actions): the old refusal.
            case unavailable
            /// The computer's user chose Deny, or closed the question.
            case denied
            /// Nobody answered in time (60 s).
            case timedOut
        }
        public var reason: Reason
        public var viewer: String?
        public var asked: Asked?
        /// Why, in words, for `cannotExtend`.
        public var detail: String?
        public init(reason: Reason, viewer: String? = nil, asked: Asked? = nil, detail: String? = nil) {
            self.reason = reason
            self.viewer = viewer
            self.asked = asked
            self.detail = detail
        }
    }

    /// Whether this device may view the screen (and record), sent to its connections when the host's user
    /// changes it (`touchdeck devices allow-screen NAME on|off`), so a waiting Screen tab follows at once.
    /// Also sent to the one connection that asked when the computer's user chose "Allow once" (`once: true`): that
    /// device may view until this viewing ends.
    public struct ScreenPermission: MessageBody {
        public static let type = "screenPermission"
        public var allowed: Bool
        /// `true`: allowed for one viewing only (the answer "Allow once"); absent otherwise.
        public var once: Bool?
        public init(allowed: Bool, once: Bool? = nil) {
            self.allowed = allowed
            self.once = once
        }
    }

    /// Whether this device may change the deck, sent to its connections when the host's user changes it
    /// (`touchdeck devices allow-edit NAME on|off`).
    public struct EditPermission: MessageBody {
        public static let type = "editPermission"
        public var allowed: Bool
        public init(allowed: Bool) { self.allowed = allowed }
    }

    /// Viewing was accepted but waits: `screenStarted` or `screenDenied` follows.
    public struct ScreenPending: MessageBody {
        public static let type = "screenPending"
        /// What it waits for.
        public enum Reason: String, Codable, Hashable, Sendable, CaseIterable {
            /// The computer's user must approve screen sharing there (the ScreenCast portal's first use).
            case approval
            /// A device that may not view asked (`startScreen{ask:true}`): the computer's user has a notification
            /// with Allow once, Always allow and Deny; `screenPermission{allowed:true}` or `screenDenied` follows.
            case asking
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
