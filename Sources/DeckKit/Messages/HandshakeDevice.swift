// Device → host messages of the connection stages (PROTOCOL §2–§4). Byte fields stay standard
// base64 strings here; DeckCrypto decodes and checks them.

extension DeviceMessage {
    /// The device's first message.
    public struct Hello: MessageBody {
        public static let type = "hello"
        /// The device's protocol number (absent → 1).
        public var protocolVersion: Int
        /// Device name shown on the host (absent → `""`).
        public var name: String
        /// The id received when pairing; nil on a new device.
        public var deviceId: String?

        public init(protocolVersion: Int = ProtocolVersion.current, name: String, deviceId: String? = nil) {
            self.protocolVersion = protocolVersion
            self.name = name
            self.deviceId = deviceId
        }

        private enum CodingKeys: String, CodingKey {
            case protocolVersion = "protocol"
            case name, deviceId
        }

        public init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            protocolVersion = try fields.decode(.protocolVersion, default: ProtocolVersion.legacy)
            name = try fields.decode(.name, default: "")
            deviceId = try fields.decodeIfPresent(String.self, forKey: .deviceId)
        }
    }

    /// SPAKE2 first message: `pA = x·G + w·M` (base64, 65 bytes).
    public struct PairStart: MessageBody {
        public static let type = "pairStart"
        /// Device name to store with the pairing (absent → `""`).
        public var name: String
        public var pA: String

        public init(name: String, pA: String) {
            self.name = name
            self.pA = pA
        }

        private enum CodingKeys: String, CodingKey { case name, pA }

        public init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            name = try fields.decode(.name, default: "")
            pA = try fields.decode(String.self, forKey: .pA)
        }
    }

    /// The device's key confirmation `cA` (base64, 32 bytes), sent before the host's.
    public struct PairConfirm: MessageBody {
        public static let type = "pairConfirm"
        public var cA: String
        public init(cA: String) { self.cA = cA }
    }

    /// Starts authentication of a paired device with an ephemeral key `eA` (base64, 65 bytes).
    public struct AuthStart: MessageBody {
        public static let type = "authStart"
        public var deviceId: String
        public var eA: String
        public init(deviceId: String, eA: String) {
            self.deviceId = deviceId
            self.eA = eA
        }
    }

    /// The device's proof (base64 HMAC-SHA256).
    public struct AuthFinish: MessageBody {
        public static let type = "authFinish"
        public var proof: String
        public init(proof: String) { self.proof = proof }
    }
}

/// A sealed text message (PROTOCOL §5), sent both ways after authorization.
public struct SecureEnvelope: MessageBody {
    public static let type = "secure"
    /// Text counter of the sender, from 1.
    public var seq: UInt64
    /// base64 of nonce(12) + ciphertext + tag(16).
    public var box: String

    public init(seq: UInt64, box: String) {
        self.seq = seq
        self.box = box
    }
}
