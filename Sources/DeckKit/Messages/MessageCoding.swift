import Foundation

/// The fields of one message type, encoded flat beside `"type"`.
public protocol MessageBody: Codable, Hashable, Sendable {
    /// The wire `type` string of this message.
    static var type: String { get }
}

/// Why a text message could not be read.
public enum MessageError: Error, Hashable, Sendable {
    /// The `type` is not one this side accepts; answered with `error{code:"unknownType"}`.
    case unknownType(String)
    /// Not JSON, not an object, or a required field missing or of the wrong kind. The text names
    /// the field, never its value (typed text and secrets must not reach a log).
    case malformed(String)
}

/// A message family (device→host or host→device) read and written by one central codec.
public protocol WireMessage: Hashable, Sendable {
    /// The fields of the message.
    var body: any MessageBody { get }
    /// For each accepted `type`, how to read the fields.
    static var readers: [String: @Sendable (any Decoder) throws -> Self] { get }
}

extension WireMessage {
    /// The wire `type` string.
    public var type: String { Swift.type(of: body).type }

    /// Compact JSON, keys sorted, `type` beside the fields; the bytes the fixtures hold.
    public func encode() -> Data { MessageCodec.encode(body) }

    /// Reads one text message.
    public static func decode(_ data: Data) throws(MessageError) -> Self {
        do {
            return try MessageCodec.decoder.decode(Reading<Self>.self, from: data).message
        } catch let error as MessageError {
            throw error
        } catch let error as DecodingError {
            throw MessageError.malformed(MessageCodec.describe(error))
        } catch {
            throw MessageError.malformed("unreadable message")
        }
    }

    /// Reads one text message from a string.
    public static func decode(_ text: String) throws(MessageError) -> Self { try decode(Data(text.utf8)) }
}

/// Reads `type` first, then hands the same decoder to that type's reader, so fields stay flat.
private struct Reading<Message: WireMessage>: Decodable {
    let message: Message

    init(from decoder: any Decoder) throws {
        let type = try decoder.container(keyedBy: TypeKey.self).decode(String.self, forKey: .type)
        guard let read = Message.readers[type] else { throw MessageError.unknownType(type) }
        message = try read(decoder)
    }
}

private enum TypeKey: String, CodingKey { case type }

/// Writes the body, then `type` into the same JSON object.
private struct Writing: Encodable {
    let body: any MessageBody

    func encode(to encoder: any Encoder) throws {
        try body.encode(to: encoder)
        var c = encoder.container(keyedBy: TypeKey.self)
        try c.encode(Swift.type(of: body).type, forKey: .type)
    }
}

enum MessageCodec {
    static let decoder = JSONDecoder()

    static func encode(_ body: any MessageBody) -> Data {
        let encoder = JSONEncoder()
        // Sorted and unescaped so Swift, JS and Python fixtures compare byte for byte.
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(Writing(body: body))
        } catch {
            // Only non-finite numbers fail here, and every numeric field is made finite in its init.
            preconditionFailure("message \(Swift.type(of: body).type) holds a non-finite number")
        }
    }

    /// Names what is wrong without quoting any value.
    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            return "missing field \(path(context.codingPath + [key]))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "wrong kind of value for \(path(context.codingPath))"
        case .dataCorrupted(let context):
            // A rule's own reason (a hotkey's KeyChord.Problem), which never quotes the value.
            if let reportable = context.underlyingError as? any WireReportable { return reportable.wireMessage }
            return context.codingPath.isEmpty ? "not a JSON object" : "invalid value for \(path(context.codingPath))"
        @unknown default:
            return "unreadable message"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        let names = keys.map { $0.intValue.map(String.init) ?? $0.stringValue }
        return names.isEmpty ? "message" : "'" + names.joined(separator: ".") + "'"
    }
}

extension KeyedDecodingContainer {
    /// The value when present, else the protocol's default for an absent optional field.
    func decode<T: Decodable>(_ key: Key, default fallback: T) throws -> T {
        try decodeIfPresent(T.self, forKey: key) ?? fallback
    }
}

/// Keeps a number the protocol sends as a fraction inside 0…1 (NaN becomes 0).
func unitInterval(_ value: Double) -> Double { value.isNaN ? 0 : min(max(value, 0), 1) }

/// Keeps a number finite so encoding cannot fail.
func finite(_ value: Double) -> Double { value.isFinite ? value : 0 }
