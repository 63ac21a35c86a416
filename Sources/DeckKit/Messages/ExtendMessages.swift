// Extend: the device as an extra monitor (PROTOCOL §6 "Extend").

/// What `startScreen.extend` asks for: a monitor the size of the device's screen in device pixels, at its scale,
/// beside the computer's monitors. Checked when read: a size or scale outside the limits is a `badMessage`.
public struct ExtendRequest: Codable, Hashable, Sendable {
    /// Where the new monitor goes, seen from the monitors the computer has.
    public enum Placement: String, Codable, Hashable, Sendable, CaseIterable {
        case right, left, above, below
    }

    /// The smallest and the largest side a device may ask for, in device pixels.
    public static let sides = 240...8192
    /// The scales a device may ask for (device pixels per layout pixel).
    public static let scales = 1.0...4.0

    /// Device pixels, even (an odd size is rounded down when read: the encoder needs even sides).
    public var width: Int
    public var height: Int
    public var scale: Double
    public var placement: Placement

    /// A request from its parts, rounded and checked as one read from the wire is.
    public init(width: Int, height: Int, scale: Double = 1, placement: Placement = .right) {
        self.width = width & ~1
        self.height = height & ~1
        self.scale = scale
        self.placement = placement
    }

    /// Why these values cannot make a monitor; nil when they can.
    public var problem: String? {
        if !Self.sides.contains(width) || !Self.sides.contains(height) {
            return "extend: width and height must be \(Self.sides.lowerBound)…\(Self.sides.upperBound) pixels"
        }
        if !scale.isFinite || !Self.scales.contains(scale) {
            return "extend: scale must be \(Self.scales.lowerBound)…\(Self.scales.upperBound)"
        }
        return nil
    }

    /// The monitor's size in layout pixels (what the desktop places beside the others).
    public var layoutSize: (width: Int, height: Int) {
        (Int((Double(width) / scale).rounded()), Int((Double(height) / scale).rounded()))
    }

    private enum CodingKeys: String, CodingKey { case width, height, scale, placement }

    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            width: try fields.decode(Int.self, forKey: .width), height: try fields.decode(Int.self, forKey: .height),
            scale: try fields.decode(.scale, default: 1), placement: try fields.decode(.placement, default: .right))
        if let problem {
            throw DecodingError.dataCorrupted(
                .init(codingPath: fields.codingPath, debugDescription: problem, underlyingError: Refusal(problem)))
        }
    }

    /// A request the host cannot make a monitor of, with the limits in words (`badMessage`).
    public struct Refusal: WireReportable {
        public let wireMessage: String
        public var wireCode: WireErrorCode { .badMessage }
        init(_ text: String) { wireMessage = text }
    }
}

/// `displays.extend`: whether this desktop can add a monitor for the device, and why not when it cannot.
public struct ExtendOffer: Codable, Hashable, Sendable {
    public var offered: Bool
    /// Why Extend is not offered here (absent when it is), e.g. "Xvfb has no output that takes a new mode".
    public var reason: String?

    public init(offered: Bool, reason: String? = nil) {
        self.offered = offered
        self.reason = reason
    }

    /// Offered, or not with `reason` (nil: offered).
    public static func from(unavailable reason: String?) -> ExtendOffer {
        ExtendOffer(offered: reason == nil, reason: reason)
    }
}
