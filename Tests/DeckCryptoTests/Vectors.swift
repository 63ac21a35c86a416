import Foundation
import Testing

@testable import DeckCrypto

/// Loads a known-answer file from `Tests/Fixtures/vectors/` (shared with the JS and Python tests).
enum Vectors {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/vectors")

    static func cases(_ file: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: directory.appendingPathComponent(file))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(object["cases"] as? [[String: Any]])
    }

    /// The hex field `key` of `entry` as bytes.
    static func bytes(_ entry: [String: Any], _ key: String) throws -> Data {
        let text = try #require(entry[key] as? String, "missing \(key)")
        return try #require(Bytes.fromHex(text), "bad hex in \(key)")
    }
}
