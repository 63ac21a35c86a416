import Foundation
import Testing

@testable import DeckHost

/// `FileWork` gives up on work that makes no progress for its timeout, not on work that is merely long: the first
/// fetch of a 16 GB recording digests for more than a minute, beating at each MiB, and a folder that hangs says
/// nothing.
@Suite struct FileWorkTests {
    @Test func longWorkThatBeatsRunsPastTheTimeout() async throws {
        let answer = try await FileWork.run(timeout: .milliseconds(200)) { heartbeat in
            for _ in 0..<12 {
                usleep(50_000)
                heartbeat.beat()
            }
            return 42
        }
        #expect(answer == 42)
    }

    @Test func workThatStopsBeatingIsGivenUp() async throws {
        let started = ContinuousClock.now
        await #expect(throws: FileWork.TimedOut.self) {
            try await FileWork.run(timeout: .milliseconds(200)) { heartbeat in
                heartbeat.beat()
                usleep(50_000)
                heartbeat.beat()
                usleep(5_000_000)
                return 0
            }
        }
        // Given up once 200 ms passed after the last beat, not at the end of the work.
        #expect(ContinuousClock.now - started < .seconds(4))
    }

    @Test func workWithoutAHeartbeatHasTheTimeoutFromItsStart() async throws {
        await #expect(throws: FileWork.TimedOut.self) {
            try await FileWork.run(timeout: .milliseconds(100)) {
                usleep(800_000)
                return 0
            }
        }
    }
}
