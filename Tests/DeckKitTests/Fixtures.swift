import Foundation

/// Reads the shared fixture files (`Tests/Fixtures/`) that the JS tests and the Python client read too.
enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .appendingPathComponent("../Fixtures")
        .standardizedFileURL

    static func data(_ path: String) throws -> Data {
        try Data(contentsOf: root.appendingPathComponent(path))
    }

    static func json(_ path: String) throws -> Any {
        try JSONSerialization.jsonObject(with: try data(path))
    }
}
