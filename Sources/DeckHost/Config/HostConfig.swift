import DeckKit
import Foundation

/// What `config.json` holds: the one layout (the host is its single source) and host settings.
public struct HostConfig: Codable, Equatable, Sendable {
    /// The deck every authorized device shows.
    public var layout: DeckLayout
    /// The name devices see; absent → the computer's host name.
    public var hostName: String?

    /// An empty deck with default settings.
    public init(layout: DeckLayout = .empty, hostName: String? = nil) {
        self.layout = layout
        self.hostName = hostName
    }

    private enum CodingKeys: String, CodingKey { case layout, hostName }

    /// Every field may be missing: a file written by an older host still loads.
    public init(from decoder: Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        layout = try fields.decodeIfPresent(DeckLayout.self, forKey: .layout) ?? .empty
        hostName = try fields.decodeIfPresent(String.self, forKey: .hostName)
    }
}
