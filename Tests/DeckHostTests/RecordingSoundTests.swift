import DeckDesktop
import DeckSound
import DeckTesting
import Testing

@testable import DeckHost

/// A recording's place in the shared sound capture: it knows whether sound runs before the file opens, and it
/// leaves the capture exactly once, also when there was no sound to join.
@Suite struct RecordingSoundTests {
    @Test func aRunningCaptureIsJoinedAndLeftOnce() async {
        let fake = FakeSound()
        let (sound, error) = await RecordingSound.join(.fake(fake))
        #expect(error == nil)
        #expect(fake.subscribers == 1)
        // Packets before a recorder is attached go nowhere (and do not trap).
        fake.push([1, 2, 3, 4])
        sound.leave()
        sound.leave()
        #expect(fake.subscribers == 0)
    }

    @Test func noSoundServerGivesTheReasonAndLeavesNothingJoined() async {
        let fake = FakeSound(failure: .noServer)
        let (sound, error) = await RecordingSound.join(.fake(fake))
        #expect(error == .noServer)
        #expect(fake.subscribers == 0)
        sound.leave()
    }

    @Test func theHostWithoutSoundRecordsWithoutIt() async {
        let (_, error) = await RecordingSound.join(.none)
        #expect(error == .noServer)
    }
}
