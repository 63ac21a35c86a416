// Profile messages (PROTOCOL §6 "Profiles"): which named deck a device shows, switching it, and importing one.

extension DeviceMessage {
    /// Shows another profile: on every device that follows the shared profile when this one does, else on this
    /// device alone.
    public struct SwitchProfile: MessageBody {
        public static let type = "switchProfile"
        public var name: String

        public init(name: String) { self.name = name }
    }

    /// Follows the shared current profile (`follow`), or keeps the profile this device shows now as its own.
    public struct FollowProfile: MessageBody {
        public static let type = "followProfile"
        public var follow: Bool

        public init(follow: Bool) { self.follow = follow }
    }

    /// Adds an empty profile (an edit: it needs edit permission).
    public struct AddProfile: MessageBody {
        public static let type = "addProfile"
        public var name: String

        public init(name: String) { self.name = name }
    }

    /// Deletes a profile (an edit); the devices that showed it show the shared one.
    public struct DeleteProfile: MessageBody {
        public static let type = "deleteProfile"
        public var name: String

        public init(name: String) { self.name = name }
    }

    /// Renames a profile (an edit); the devices that keep it as their own keep it under its new name, and profile
    /// keys that show it show it under its new name.
    public struct RenameProfile: MessageBody {
        public static let type = "renameProfile"
        public var name: String
        public var newName: String

        public init(name: String, newName: String) {
            self.name = name
            self.newName = newName
        }
    }

    /// Imports a profile file (`ProfileFile`), its whole text in `file` (an edit).
    public struct ImportProfile: MessageBody {
        public static let type = "importProfile"
        public var file: String

        public init(file: String) { self.file = file }
    }

    /// Sets the apps a profile is for (an edit): while one has the focus, the devices that follow the shared
    /// profile show it (`ProfileApps`). An empty list: none.
    public struct SetProfileApps: MessageBody {
        public static let type = "setProfileApps"
        public var name: String
        public var apps: [String]

        public init(name: String, apps: [String]) {
            self.name = name
            self.apps = apps
        }
    }
}

extension HostMessage {
    /// The profiles there are and which one this device shows; after `authorized` and whenever that changes.
    public struct Profiles: MessageBody {
        public static let type = "profiles"
        /// Every profile's name, in order.
        public var names: [String]
        /// The shared current profile.
        public var current: String
        /// The profile this device shows: `current` when it follows it, else its own.
        public var shown: String
        /// Whether this device follows the shared current profile.
        public var follows: Bool
        /// The apps each profile is for, by profile name (only profiles that name some; absent: none does).
        public var apps: [String: [String]]?
        /// The profile shown for the app that has the focus instead of `current` (absent: none); devices that
        /// follow the shared profile show it, and `current` again when the focus leaves.
        public var focusProfile: String?

        public init(
            names: [String], current: String, shown: String, follows: Bool, apps: [String: [String]]? = nil,
            focusProfile: String? = nil
        ) {
            self.names = names
            self.current = current
            self.shown = shown
            self.follows = follows
            self.apps = apps
            self.focusProfile = focusProfile
        }
    }

    /// An `importProfile` worked: the name the profile got (`Phone (2)` when `Phone` was taken).
    public struct ProfileImported: MessageBody {
        public static let type = "profileImported"
        public var name: String

        public init(name: String) { self.name = name }
    }
}
