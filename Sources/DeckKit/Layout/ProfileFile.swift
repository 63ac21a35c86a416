import Foundation

/// One profile as a file (PROTOCOL §6 "Profile files"): what `touchdeck profile export` writes and an import reads,
/// from the CLI or from a device. The stored icons its keys show travel inside it, so it can go to another host.
///
/// ```json
/// {"format":"touchdeck-profile","version":1,"name":"Phone","layout":{"pages":[…],"grid":"3x2"},
///  "icons":{"0123abcd….png":"iVBORw0…"}}
/// ```
///
/// Reading is all-or-nothing: a file too large, cut short, of a later version, with a key an edit would refuse, or
/// showing an icon it does not carry is refused whole, with the reason (`ProfileFileError`).
public struct ProfileFile: Hashable, Sendable {
    /// `format`: says what the file is.
    public static let format = "touchdeck-profile"
    /// The version this host writes, and the latest it reads.
    public static let version = 1
    /// The largest file read, in bytes (a full 100-page deck with its icons fits with room to spare).
    public static let maxBytes = 2 << 20
    /// The largest icon, in bytes of PNG: the host re-encodes icons to 144 px, far below this.
    public static let maxIconBytes = 256 << 10

    public var profile: Profile
    /// The PNG bytes of each stored icon the profile's keys show, by file name (`KeyLook.isImageName`).
    public var icons: [String: Data]

    public init(profile: Profile, icons: [String: Data] = [:]) {
        self.profile = profile
        self.icons = icons
    }

    /// The file's bytes: pretty-printed, keys sorted.
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let wire = Wire(
            format: Self.format, version: Self.version, name: profile.name, layout: profile.layout,
            icons: icons.mapValues { $0.base64EncodedString() })
        return (try? encoder.encode(wire)) ?? Data()
    }

    /// Reads and checks a file. The profile's labels are cleaned as `setButton` cleans them; icons no key shows are
    /// left out.
    public static func read(_ data: Data) throws(ProfileFileError) -> ProfileFile {
        guard data.count <= maxBytes else { throw .tooLarge(limit: maxBytes) }
        guard let object = try? JSONSerialization.jsonObject(with: data), let fields = object as? [String: Any] else {
            throw .notJSON
        }
        guard fields["format"] as? String == format else { throw .notAProfile }
        guard let version = fields["version"] as? Int, version >= 1 else { throw .notAProfile }
        guard version <= Self.version else { throw .laterVersion(version) }
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: data)
        } catch let error as DecodingError {
            throw .badField(MessageCodec.describe(error))
        } catch {
            throw .notJSON
        }
        guard let name = ProfileSet.cleanName(wire.name) else { throw .badName }
        let layout: DeckLayout
        do {
            let pages = wire.layout.pages.map { $0.map { $0.map(DeviceMessage.SetButton.cleaned) } }
            layout = try DeckLayout(pages: pages, grid: wire.layout.grid)
            try layout.checkEveryKey()
        } catch let error as LayoutError {
            throw .badKey(error)
        } catch {
            throw .notJSON
        }
        var icons: [String: Data] = [:]
        for name in layout.imageNames.sorted() {
            guard let text = wire.icons?[name] else { throw .missingIcon(name) }
            guard let png = Data(base64Encoded: text), png.count <= maxIconBytes, png.starts(with: pngSignature) else {
                throw .badIcon(name)
            }
            icons[name] = png
        }
        return ProfileFile(profile: Profile(name: name, layout: layout), icons: icons)
    }

    /// The first bytes of every PNG file.
    public static let pngSignature = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])

    private struct Wire: Codable {
        var format: String
        var version: Int
        var name: String
        var layout: DeckLayout
        var icons: [String: String]?
    }
}

/// Why a profile file was refused; the config is not touched.
public enum ProfileFileError: Error, Hashable, Sendable, CustomStringConvertible {
    case tooLarge(limit: Int)
    /// Not a JSON object: cut short, or not JSON at all.
    case notJSON
    /// JSON, but without `"format":"touchdeck-profile"` and a version.
    case notAProfile
    /// Written by a later TouchDeck, in a version this host does not read.
    case laterVersion(Int)
    /// A field missing or of the wrong kind (the text names the field).
    case badField(String)
    /// The profile's name is empty or too long.
    case badName
    /// A key an edit would refuse.
    case badKey(LayoutError)
    /// A key shows a stored icon the file does not carry.
    case missingIcon(String)
    /// An icon that is not a PNG, or too large.
    case badIcon(String)

    /// A short name for the case, the one the shared fixture table uses.
    public var name: String {
        switch self {
        case .tooLarge: "tooLarge"
        case .notJSON: "notJSON"
        case .notAProfile: "notAProfile"
        case .laterVersion: "laterVersion"
        case .badField: "badField"
        case .badName: "badName"
        case .badKey: "badKey"
        case .missingIcon: "missingIcon"
        case .badIcon: "badIcon"
        }
    }

    public var description: String {
        switch self {
        case .tooLarge(let limit): "the profile file is larger than \(limit >> 20) MiB"
        case .notJSON: "the profile file is not complete JSON (cut short?)"
        case .notAProfile: "this is not a TouchDeck profile file"
        case .laterVersion(let version):
            "the profile file is version \(version), made by a later TouchDeck; this host reads version "
                + "\(ProfileFile.version) (update the TouchDeck host)"
        case .badField(let what): "the profile file is not readable: \(what)"
        case .badName: "the profile's name is empty or longer than \(ProfileSet.maxName) characters"
        case .badKey(let error): "a key in the profile file is refused: \(error.wireMessage)"
        case .missingIcon(let name): "a key shows the icon \(name), which the profile file does not carry"
        case .badIcon(let name): "the icon \(name) in the profile file is not a PNG of at most 256 KiB"
        }
    }
}

extension ProfileFileError: WireReportable {
    public var wireCode: WireErrorCode { .badMessage }
    public var wireMessage: String { description }
}

extension ProfileError: WireReportable {
    public var wireCode: WireErrorCode { .badMessage }

    public var wireMessage: String {
        switch self {
        case .noSuchProfile(let name): "no profile is called \(name.prefix(ProfileSet.maxName))"
        case .badName: "a profile's name is 1 to \(ProfileSet.maxName) visible characters"
        case .nameTaken(let name): "a profile is already called \(name)"
        case .lastProfile: "the last profile cannot be deleted"
        case .tooManyProfiles(let limit): "there are \(limit) profiles already, the most a host keeps"
        }
    }
}
