import DeckKit
import Foundation

/// A request from the CLI (`touchdeck pair`, `devices`, `status`…) to the running daemon, one JSON line.
public struct ControlRequest: Codable, Equatable, Sendable {
    /// What to do.
    public enum Command: String, Codable, Sendable {
        case pair, devices, allowScreen, allowEdit, allowClipboard, pasteChord, primarySelection, revoke, rename
        case status
        case disconnectViewer, record
        /// `touchdeck profile list|switch|export|import|delete|rename` (`name` is the profile's, `newName` a rename's
        /// new name, `file` an import's text).
        case profiles, switchProfile, exportProfile, importProfile, deleteProfile, renameProfile
        /// `touchdeck profile apps NAME [add|remove APP…]`: `name`, `action` (nil: list) and `apps`.
        case profileApps
        /// `touchdeck key set|get` and `touchdeck press` (issue 23): `page`, `slot`, `profile` (nil: the shared
        /// current one); for `keySet` a partial look as a state line (`look`) and `save`.
        case keySet, keyGet, press
    }

    public var command: Command
    /// The device a per-device command is about.
    public var name: String?
    /// For `allowScreen`, `allowEdit`, `allowClipboard`, `pasteChord` and `primarySelection`: on or off.
    public var on: Bool?
    /// For `rename` and `renameProfile`: the name wanted (the host cleans it).
    public var newName: String?
    /// For `record`: start, pause, resume, stop or list; and for start the monitor id (nil: the leftmost) and fps.
    public var action: String?
    public var display: Int?
    public var fps: Int?
    /// For `record start`: the longest the recording may run, in seconds (nil: 2 hours).
    public var maxSeconds: Int?
    /// With `status`: also check the daemon's own session (its desktop and sound server) and answer with it
    /// (`ControlResponse.session`), for `touchdeck doctor`.
    public var session: Bool?
    /// For `importProfile`: the profile file's text.
    public var file: String?
    /// For `keySet`, `keyGet` and `press`: the key's page and slot (0-based) and profile.
    public var page: Int?
    public var slot: Int?
    public var profile: String?
    /// For `keySet`: the live look, one JSON object as a state command prints it; `save` also writes its label,
    /// colour and icon to the key in the config.
    public var look: String?
    public var save: Bool?
    /// For `profileApps`: the apps to add or remove.
    public var apps: [String]?
    /// For `keySet`, `keyGet` and `press`: the folder keys from the deck down to the key's folder, each a page and a
    /// slot (nil or empty: the key is on the deck itself).
    public var folder: [[Int]]?

    public init(command: Command, name: String? = nil, on: Bool? = nil, newName: String? = nil) {
        self.command = command
        self.name = name
        self.on = on
        self.newName = newName
    }
}

/// One paired device as the CLI lists it.
public struct DeviceSummary: Codable, Equatable, Sendable {
    public var id: String
    public var name: String
    public var screenAllowed: Bool
    /// May change the deck (`touchdeck devices allow-edit`).
    public var editAllowed: Bool
    /// May trade the clipboard while viewing (`touchdeck devices allow-clipboard`).
    public var clipboardAllowed: Bool
    public var lastSeen: Date?
    /// Open authorized connections of this device right now.
    public var connections: Int
    /// The protocol number it announced last.
    public var protocolVersion: Int?
    /// "(app update needed)" and the like; empty when there is nothing to say.
    public var note: String

    public init(
        id: String, name: String, screenAllowed: Bool, editAllowed: Bool = true, lastSeen: Date?, connections: Int,
        protocolVersion: Int?, note: String, clipboardAllowed: Bool = false
    ) {
        self.id = id
        self.name = name
        self.screenAllowed = screenAllowed
        self.editAllowed = editAllowed
        self.clipboardAllowed = clipboardAllowed
        self.lastSeen = lastSeen
        self.connections = connections
        self.protocolVersion = protocolVersion
        self.note = note
    }
}

/// One profile as `touchdeck profile list` shows it.
public struct ProfileSummary: Codable, Equatable, Sendable {
    public var name: String
    /// The shared current profile: the one every device that follows shows.
    public var current: Bool
    /// The grid size and how many pages hold keys.
    public var grid: String
    public var pages: Int
    /// The paired devices that keep this profile as their own.
    public var keptBy: [String]
    /// The apps it is for (`ProfileApps`), and whether it shows now because one of them has the focus.
    public var apps: [String]? = nil
    public var focused: Bool? = nil

    public init(name: String, current: Bool, grid: String, pages: Int, keptBy: [String]) {
        self.name = name
        self.current = current
        self.grid = grid
        self.pages = pages
        self.keptBy = keptBy
    }
}

/// The daemon's answer, one JSON line.
public struct ControlResponse: Codable, Equatable, Sendable {
    public var ok: Bool
    /// What went wrong, for the user.
    public var error: String?
    /// `pair`: the PIN, the HTTPS address and seconds until the PIN expires.
    public var pin: String?
    public var url: String?
    public var expiresIn: Int?
    /// `devices` and `status`.
    public var devices: [DeviceSummary]?
    /// `status`: the name devices see, the port, connections not yet authorized, the viewer, load problems.
    public var hostName: String?
    public var port: Int?
    public var pendingConnections: Int?
    public var viewer: String?
    public var problems: [String]?
    /// `status`: the folder with one output log per command button.
    public var commandLogs: String?
    /// `pair` and `status`: the local CA's SHA-256 fingerprint, colon hex.
    public var caFingerprint: String?
    /// `status`: what the user must do about the CA (trust a replaced one; addresses it cannot cover).
    public var caNotices: [String]?
    /// `rename`: the name the device now has, as cleaned and stored.
    public var name: String?
    /// `record`: the state after the command, the file saved by `stop`, the saved files for `list`, the folder.
    public var recordState: HostMessage.RecordState?
    public var saved: HostMessage.RecordingEntry?
    public var recordings: [HostMessage.RecordingEntry]?
    public var recordFolder: String?
    /// `status` asked with `session`: the desktop and sound server checks as the daemon's process sees them.
    public var session: [Doctor.Check]?
    /// `profiles`, `switchProfile` and `importProfile`: every profile after the command.
    public var profiles: [ProfileSummary]?
    /// `exportProfile`: the profile file's text.
    public var file: String?
    /// `keySet` and `keyGet`: the key as JSON (`profile`, `page`, `slot`, `button`, `live`, `error`); `press`: what
    /// the press did (`ok`, or why not).
    public var key: String?
    public var pressed: String?

    public init(ok: Bool = true, error: String? = nil) {
        self.ok = ok
        self.error = error
    }

    /// A refusal with a reason.
    public static func failure(_ text: String) -> ControlResponse { ControlResponse(ok: false, error: text) }
}
