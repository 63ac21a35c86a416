import Foundation

/// Reads the shared rule fixtures in `Tests/Fixtures/rules/` (the web client's tests read the same files).
enum RuleFixture {
    static func load<Value: Decodable>(_ name: String, as type: Value.Type = Value.self) throws -> Value {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Fixtures/rules/\(name)")
        return try JSONDecoder().decode(Value.self, from: Data(contentsOf: url))
    }

    /// Fixture numbers are compared with this tolerance, on both the Swift and the JS side.
    static let tolerance = 1e-9

    static func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= tolerance }
}
