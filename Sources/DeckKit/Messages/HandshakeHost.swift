// Host → device messages of the connection stages (PROTOCOL §2–§4).

extension HostMessage {
    /// Reply to `hello` from a new or unknown device.
    public struct NeedPairing: HostIntroduction {
        public static let type = "needPairing"
        public var hostName: String
        public var protocolVersion: Int

        public init(hostName: String, protocolVersion: Int = ProtocolVersion.current) {
            self.hostName = hostName
            self.protocolVersion = protocolVersion
        }
    }

    /// Reply to `hello` from a known device: authenticate next.
    public struct AuthRequired: HostIntroduction {
        public static let type = "authRequired"
        public var hostName: String
        public var protocolVersion: Int

        public init(hostName: String, protocolVersion: Int = ProtocolVersion.current) {
            self.hostName = hostName
            self.protocolVersion = protocolVersion
        }
    }

    /// SPAKE2 host message: `pB = y·G + w·N` (base64, 65 bytes).
    public struct PairChallenge: MessageBody {
        public static let type = "pairChallenge"
        public var pB: String
        public init(pB: String) { self.pB = pB }
    }

    /// Pairing succeeded: the device's id, the host's confirmation and the sealed device secret.
    public struct Paired: MessageBody {
        public static let type = "paired"
        /// 16 random bytes as lowercase hex.
        public var deviceId: String
        /// Host key confirmation (base64, 32 bytes); checked before anything else here is trusted.
        public var cB: String
        /// base64 of nonce(12) + ciphertext(32) + tag(16) holding the device secret.
        public var box: String

        public init(deviceId: String, cB: String, box: String) {
            self.deviceId = deviceId
            self.cB = cB
            self.box = box
        }
    }

    /// Pairing refused.
    public struct PairingFailed: MessageBody {
        public static let type = "pairingFailed"
        /// Why pairing was refused.
        public enum Reason: String, Codable, Hashable, Sendable, CaseIterable {
            case wrongPin, noPin, expired, badMessage
        }
        public var reason: Reason
        /// Wrong PINs the live PIN still allows (absent → 0).
        public var remaining: Int
        /// Seconds until a new PIN may be issued, during the back-off.
        public var retryAfter: Int?

        public init(reason: Reason, remaining: Int = 0, retryAfter: Int? = nil) {
            self.reason = reason
            self.remaining = remaining
            self.retryAfter = retryAfter
        }

        private enum CodingKeys: String, CodingKey { case reason, remaining, retryAfter }

        public init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            reason = try fields.decode(Reason.self, forKey: .reason)
            remaining = try fields.decode(.remaining, default: 0)
            retryAfter = try fields.decodeIfPresent(Int.self, forKey: .retryAfter)
        }
    }

    /// The host's ephemeral key `eB` (base64, 65 bytes) and its proof of holding the device secret.
    public struct AuthChallenge: MessageBody {
        public static let type = "authChallenge"
        public var eB: String
        public var proof: String
        public init(eB: String, proof: String) {
            self.eB = eB
            self.proof = proof
        }
    }

    /// A request the connection's stage does not permit, or a failed authentication.
    public struct Unauthorized: MessageBody {
        public static let type = "unauthorized"
        /// Why the request was refused.
        public enum Reason: String, Codable, Hashable, Sendable, CaseIterable {
            case notAuthorized, unknownDevice, badProof
        }
        public var reason: Reason
        public init(reason: Reason) { self.reason = reason }
    }

    /// The host's first sealed message after a good device proof.
    public struct Authorized: HostIntroduction {
        public static let type = "authorized"
        public var hostName: String
        public var protocolVersion: Int

        public init(hostName: String, protocolVersion: Int = ProtocolVersion.current) {
            self.hostName = hostName
            self.protocolVersion = protocolVersion
        }
    }
}

/// The messages in which the host names itself and its protocol number (`needPairing`, `authRequired`,
/// `authorized`); an absent `protocol` reads as 1, an absent `hostName` as "".
public protocol HostIntroduction: MessageBody {
    var hostName: String { get }
    var protocolVersion: Int { get }
    init(hostName: String, protocolVersion: Int)
}

private enum HostIntroductionKeys: String, CodingKey {
    case hostName
    case protocolVersion = "protocol"
}

extension HostIntroduction {
    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: HostIntroductionKeys.self)
        self.init(
            hostName: try fields.decode(.hostName, default: ""),
            protocolVersion: try fields.decode(.protocolVersion, default: ProtocolVersion.legacy))
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: HostIntroductionKeys.self)
        try fields.encode(hostName, forKey: .hostName)
        try fields.encode(protocolVersion, forKey: .protocolVersion)
    }
}
