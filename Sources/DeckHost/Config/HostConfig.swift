import DeckKit
import Foundation

/// What `config.json` holds: the profiles (named decks; the host is their single source), the shared current one,
/// and host settings.
///
/// On disk: `{"profiles":[{"name":"Default","layout":{…}},…],"currentProfile":"Default","hostName":…}`. A file
/// written before profiles holds one `layout`: it is read as one profile called "Default" holding that deck, and
/// written in the new form at the next save.
public struct HostConfig: Codable, Equatable, Sendable {
    /// Every deck, and the one devices that follow the shared profile show.
    public var profiles: ProfileSet
    /// The name devices see; absent → the computer's host name.
    public var hostName: String?

    /// One empty profile with default settings.
    public init(layout: DeckLayout = .empty, hostName: String? = nil) {
        profiles = ProfileSet(layout: layout)
        self.hostName = hostName
    }

    public init(profiles: ProfileSet, hostName: String? = nil) {
        self.profiles = profiles
        self.hostName = hostName
    }

    /// The shared current profile's deck.
    public var layout: DeckLayout { profiles.currentLayout }

    private enum CodingKeys: String, CodingKey { case profiles, currentProfile, layout, hostName }

    /// Every field may be missing: a file written by an older host still loads, its one deck as "Default".
    public init(from decoder: Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        hostName = try fields.decodeIfPresent(String.self, forKey: .hostName)
        if let list = try fields.decodeIfPresent([Profile].self, forKey: .profiles) {
            profiles = ProfileSet(
                profiles: list, current: try fields.decodeIfPresent(String.self, forKey: .currentProfile))
        } else {
            profiles = ProfileSet(layout: try fields.decodeIfPresent(DeckLayout.self, forKey: .layout) ?? .empty)
        }
    }

    public func encode(to encoder: Encoder) throws {
        var fields = encoder.container(keyedBy: CodingKeys.self)
        try fields.encode(profiles.profiles, forKey: .profiles)
        try fields.encode(profiles.current, forKey: .currentProfile)
        try fields.encodeIfPresent(hostName, forKey: .hostName)
    }
}
