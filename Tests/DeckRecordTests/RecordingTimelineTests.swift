import DeckDesktop
import DeckRecord
import Testing

@Test func timelineLeavesNoGapForAPause() {
    var timeline = RecordingTimeline(start: 1_000_000)
    #expect(timeline.fileTime(of: 999_999) == nil)
    #expect(timeline.fileTime(of: 3_000_000) == 2_000_000)
    let paused = timeline.pause(at: 6_000_000)
    #expect(paused)
    let pausedAgain = timeline.pause(at: 6_500_000)
    #expect(!pausedAgain)
    #expect(timeline.fileTime(of: 7_000_000) == nil)
    #expect(timeline.elapsed(at: 7_900_000) == 5_000_000)
    let resumed = timeline.resume(at: 8_000_000)
    #expect(resumed)
    let resumedAgain = timeline.resume(at: 8_100_000)
    #expect(!resumedAgain)
    // Captured during the pause but handed over after it: still left out.
    #expect(timeline.fileTime(of: 7_999_000) == nil)
    #expect(timeline.fileTime(of: 8_000_000) == 5_000_000)
    #expect(timeline.fileTime(of: 11_000_000) == 8_000_000)
    #expect(timeline.elapsed(at: 11_000_000) == 8_000_000)
}

@Test func timelineBeforeTheStartIsEmpty() {
    let timeline = RecordingTimeline(start: 5_000_000)
    #expect(timeline.elapsed(at: 4_000_000) == 0)
    #expect(!timeline.isPaused)
}
