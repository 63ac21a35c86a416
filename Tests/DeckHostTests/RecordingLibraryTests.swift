import DeckDesktop
import DeckKit
import Foundation
import Testing

@testable import DeckHost

/// Fetching a recording in chunks: the SHA-256 is read once per version of the file, not once per chunk, and it
/// is the file's real digest (checked against `sha256sum`).
@Suite struct RecordingLibraryTests {
    let dir = TempDir()
    var library: RecordingLibrary { RecordingLibrary(folder: dir.url, thumbnails: dir.url.appendingPathComponent("t")) }

    func write(_ bytes: Int, to name: String, seed: UInt8) throws {
        let data = Data((0..<bytes).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
        try data.write(to: dir.url.appendingPathComponent(name))
    }

    func sha256sum(_ name: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [dir.url.appendingPathComponent(name).path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
    }

    @Test func everyChunkOfOneFileSharesOneDigestComputation() throws {
        let library = self.library
        try write(RecordingLibrary.chunkBytes * 3 + 17, to: "a.mp4", seed: 1)
        var offset = 0
        var assembled = Data()
        while true {
            let chunk = try library.chunk(of: "a.mp4", from: offset)
            let data = try #require(Data(base64Encoded: chunk.data))
            #expect(chunk.sha256 == (try sha256sum("a.mp4")))
            if data.isEmpty { break }
            assembled += data
            offset += data.count
        }
        #expect(assembled == (try Data(contentsOf: dir.url.appendingPathComponent("a.mp4"))))
        #expect(library.digests.computedCount == 1)
    }

    @Test func aFileThatGrowsIsDigestedAgain() throws {
        let library = self.library
        try write(1000, to: "b.mp4", seed: 2)
        let first = try library.chunk(of: "b.mp4", from: 0).sha256
        let handle = try FileHandle(forWritingTo: dir.url.appendingPathComponent("b.mp4"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([1, 2, 3]))
        try handle.close()
        let second = try library.chunk(of: "b.mp4", from: 0)
        #expect(second.size == 1003)
        #expect(second.sha256 != first)
        #expect(second.sha256 == (try sha256sum("b.mp4")))
        #expect(library.digests.computedCount == 2)
    }

    @Test func twoFilesKeepTheirOwnDigests() throws {
        let library = self.library
        try write(500, to: "c.mp4", seed: 3)
        try write(500, to: "d.mp4", seed: 4)
        let c = try library.chunk(of: "c.mp4", from: 0).sha256
        let d = try library.chunk(of: "d.mp4", from: 0).sha256
        #expect(c != d)
        #expect(try library.chunk(of: "c.mp4", from: 100).sha256 == c)
        #expect(library.digests.computedCount == 2)
    }

    @Test func aNameOutsideTheFolderOrANegativeOffsetIsRefused() throws {
        try write(10, to: "e.mp4", seed: 5)
        #expect(throws: RecordingLibraryError.noSuchRecording("../e.mp4")) {
            try library.chunk(of: "../e.mp4", from: 0)
        }
        #expect(throws: RecordingLibraryError.badOffset(-1)) { try library.chunk(of: "e.mp4", from: -1) }
    }
}

@Test func aRecordingStopsAtItsLimitAndAnUnattendedOneIsToldOnce() {
    var watch = RecordingWatch(limitSeconds: 7200)
    let minute: UInt64 = 60_000_000
    #expect(watch.look(elapsedMicros: 9 * minute, devicesConnected: 0) == .none)
    #expect(watch.look(elapsedMicros: 10 * minute, devicesConnected: 0) == .tellUnattended(minutes: 10))
    #expect(watch.look(elapsedMicros: 11 * minute, devicesConnected: 0) == .none)
    // A device came and left again: the next stretch without one is told again.
    #expect(watch.look(elapsedMicros: 12 * minute, devicesConnected: 1) == .none)
    #expect(watch.look(elapsedMicros: 13 * minute, devicesConnected: 0) == .tellUnattended(minutes: 13))
    #expect(watch.look(elapsedMicros: 120 * minute, devicesConnected: 2) == .stop)
    #expect(watch.wait(elapsedMicros: 120 * minute - 300_000) == .milliseconds(300))
    #expect(watch.wait(elapsedMicros: 0) == .seconds(1))
    #expect(DeviceMessage.RecordStart.limit(nil) == 7200)
    #expect(DeviceMessage.RecordStart.limit(0) == 1)
    #expect(DeviceMessage.RecordStart.limit(10_000_000) == 86400)
}
