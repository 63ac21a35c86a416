/// The `code` of an `error` message (PROTOCOL §6).
public enum WireErrorCode: String, Codable, Hashable, Sendable, CaseIterable {
    /// The message's `type` is not known.
    case unknownType
    /// Not JSON, a missing or wrong field, or an edit the layout refuses.
    case badMessage
    /// A plain message after authorization.
    case mustBeSealed
    /// A box that does not open, or a replayed seq.
    case badSeal
    /// The device may not do this.
    case notAllowed
    /// The host cannot do this now (no sound server, no display…).
    case unavailable
}

/// An error that knows how it is told to the device. Errors of other targets (DeckCrypto's seal
/// failures, the host's stage checks) conform too, so one function builds every `error` reply.
public protocol WireReportable: Error {
    /// The wire code.
    var wireCode: WireErrorCode { get }
    /// A short text for the device; never a secret, PIN or typed text.
    var wireMessage: String { get }
}

extension MessageError: WireReportable {
    public var wireCode: WireErrorCode {
        switch self {
        case .unknownType: .unknownType
        case .malformed: .badMessage
        }
    }

    public var wireMessage: String {
        switch self {
        // The type string is echoed only when short and plain, so a hostile peer cannot fill logs.
        case .unknownType(let type):
            type.count <= 32 && type.allSatisfy(\.isLetter) ? "unknown type \(type)" : "unknown type"
        case .malformed(let what): what
        }
    }
}

extension LayoutError: WireReportable {
    public var wireCode: WireErrorCode { .badMessage }

    public var wireMessage: String {
        switch self {
        case .pageOutOfRange(let page, let count): "page \(page) does not exist (\(count) pages)"
        case .indexOutOfRange(let index): "slot \(index) is outside 0…11"
        case .emptySlot(let page, let index): "no button at page \(page) slot \(index)"
        case .wrongPageSize(let page, let count): "page \(page) has \(count) slots, not 12"
        case .tooManyPages(let limit): "the deck is full (\(limit) pages)"
        case .fieldTooLong(let field, let limit): "the \(field) is too long (at most \(limit))"
        }
    }
}

extension HostMessage {
    /// `{"type":"error","code":…,"message":…}`; the connection stays open.
    public struct ErrorReply: MessageBody {
        public static let type = "error"
        public var code: WireErrorCode
        public var message: String

        public init(code: WireErrorCode, message: String) {
            self.code = code
            self.message = message
        }

        /// The reply for any error: reportable errors say what they are, anything else is `unavailable`.
        public init(for error: any Error) {
            if let reportable = error as? any WireReportable {
                self.init(code: reportable.wireCode, message: reportable.wireMessage)
            } else {
                self.init(code: .unavailable, message: "the host could not do that")
            }
        }

        private enum CodingKeys: String, CodingKey { case code, message }

        public init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            code = try fields.decode(WireErrorCode.self, forKey: .code)
            message = try fields.decode(.message, default: "")
        }
    }
}
