import Foundation
import Testing

/// DeckKit must also build for Apple platforms later: it imports Foundation and nothing else.
@Test func deckKitImportsOnlyFoundation() throws {
    let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/DeckKit").standardizedFileURL
    let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    #expect(files.count > 10, "found the DeckKit sources at \(sources.path)")
    for file in files {
        let imports = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("import ") || $0.contains(" import ") && $0.hasPrefix("@") }
        for line in imports {
            #expect(line == "import Foundation", "\(file.lastPathComponent): \(line)")
        }
    }
}
