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
        case .indexOutOfRange(let index, let slots): "slot \(index) is outside 0…\(slots - 1)"
        case .emptySlot(let page, let index): "no button at page \(page) slot \(index)"
        case .wrongPageSize(let page, let count): "page \(page) has \(count) slots, not as many as the grid"
        case .tooManyPages(let limit): "the deck is full (\(limit) pages)"
        case .fieldTooLong(let field, let limit): "the \(field) is too long (at most \(limit))"
        case .badTarget: "an open key opens an http, https or mailto address, or a file or folder (/… or ~/…)"
        case .stepCount(let limit): "a multi-action has 1 to \(limit) steps"
        case .delayOutOfRange: "a delay is 10 ms to 10 s (10…10000)"
        case .nestedKey: "a multi-action's steps and a toggle's actions cannot be multi-actions or toggles"
        case .badColor(let name):
            "unknown colour “\(name.prefix(32))”: a key's colour is one of \(KeyLook.palette.joined(separator: ", "))"
        case .badIcon(let why): why
        case .folderTooDeep(let limit): "folders nest at most \(limit) deep"
        case .notAFolder(let page, let index): "no folder at page \(page) slot \(index)"
        case .backSlot: "slot 0 of a folder's first page is its back key"
        case .badPageTurn: "a page key goes to a page 0…\(DeckLayout.maxPages - 1)"
        case .badProfileName: "a profile key names a profile: 1 to \(ProfileSet.maxName) visible characters"
        case .spanOutside(let index, let slots, let along):
            "a control in slot \(index) spanning \(slots) slots along its \(along) would leave the page"
        case .slotCovered(let index, let owner): "slot \(index) is covered by the control in slot \(owner)"
        case .badSpan(let why), .badSlider(let why): why
        }
    }
}

extension HostMessage {
    /// `{"type":"error","code":…,"message":…}`; the connection stays open.
    public struct ErrorReply: MessageBody {
        public static let type = "error"
        public var code: WireErrorCode
        public var message: String
        /// The `type` of the device message this error answers, so the device can tell the part of its UI
        /// waiting for that answer; nil when it answers no message the host could read.
        public var request: String?

        public init(code: WireErrorCode, message: String, request: String? = nil) {
            self.code = code
            self.message = message
            self.request = request
        }

        /// The reply for any error: reportable errors say what they are, anything else is `unavailable`.
        public init(for error: any Error, request: String? = nil) {
            if let reportable = error as? any WireReportable {
                self.init(code: reportable.wireCode, message: reportable.wireMessage, request: request)
            } else {
                self.init(code: .unavailable, message: "the host could not do that", request: request)
            }
        }

        private enum CodingKeys: String, CodingKey { case code, message, request }

        public init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            code = try fields.decode(WireErrorCode.self, forKey: .code)
            message = try fields.decode(.message, default: "")
            request = try fields.decodeIfPresent(String.self, forKey: .request)
        }
    }
}
