import Foundation
import Testing

@testable import DeckHost

/// `FileWork` gives up on work that makes no progress for its timeout, not on work that is merely long: the first
/// fetch of a 16 GB recording digests for more than a minute, beating at each MiB, and a folder that hangs says
/// nothing.
@Suite struct FileWorkTests {
    @Test func longWorkThatBeatsRunsPastTheTimeout() async throws {
        // 2.5 times the timeout in all, a beat every 20 ms.
        let answer = try await FileWork.run(timeout: .seconds(1)) { heartbeat in
            for _ in 0..<125 {
                usleep(20_000)
                heartbeat.beat()
            }
            return 42
        }
        #expect(answer == 42)
    }

    @Test func workThatStopsBeatingIsGivenUp() async throws {
        // The work beats, then hangs until the test lets it go, which it does only once the wait was given up.
        let hang = DispatchSemaphore(value: 0)
        await #expect(throws: FileWork.TimedOut.self) {
            try await FileWork.run(timeout: .milliseconds(200)) { heartbeat in
                heartbeat.beat()
                usleep(50_000)
                heartbeat.beat()
                hang.wait()
                return 0
            }
        }
        hang.signal()
    }

    @Test func workWithoutAHeartbeatHasTheTimeoutFromItsStart() async throws {
        let hang = DispatchSemaphore(value: 0)
        await #expect(throws: FileWork.TimedOut.self) {
            try await FileWork.run(timeout: .milliseconds(100)) {
                hang.wait()
                return 0
            }
        }
        hang.signal()
    }
}
