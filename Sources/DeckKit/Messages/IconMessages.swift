import Foundation

// Stored icons (PROTOCOL §6 "Stored icons", issue 22): a picture chosen on a device becomes a PNG in the host's
// config dir, named by its digest; a layout carries only that name, and a device asks for the picture once.

extension DeviceMessage {
    /// Stores a picture as a key icon (an edit: it needs edit permission): a PNG, JPEG or WebP file of at most
    /// 1 MiB, which the host fits within 144×144 and keeps as a PNG. Answered by `iconStored` or an error.
    public struct StoreIcon: MessageBody {
        public static let type = "storeIcon"
        /// The file's bytes (base64 on the wire).
        public var data: Data

        public init(data: Data) { self.data = data }
    }

    /// Asks for a stored icon's PNG by its name (`{"image":NAME}` in a key's look). Answered by `icon`.
    public struct GetIcon: MessageBody {
        public static let type = "getIcon"
        public var name: String

        public init(name: String) { self.name = name }
    }
}

extension HostMessage {
    /// A `storeIcon` worked: the stored icon's name, for a key's `{"image":NAME}`.
    public struct IconStored: MessageBody {
        public static let type = "iconStored"
        public var name: String

        public init(name: String) { self.name = name }
    }

    /// A stored icon's PNG (base64 on the wire); `data` is absent when this host has no icon of that name.
    public struct Icon: MessageBody {
        public static let type = "icon"
        public var name: String
        public var data: Data?

        public init(name: String, data: Data?) {
            self.name = name
            self.data = data
        }
    }
}
