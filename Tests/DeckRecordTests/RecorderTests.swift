import DeckDesktop
import DeckMedia
import DeckRecord
import DeckTesting
import Foundation
import Testing

/// Drives a `Recorder` through a `FakeCapture` on a manual clock: frames of the test pattern and a 1 kHz tone.
final class RecordingRig: @unchecked Sendable {
    let monitor = Monitor(id: 7, name: "TEST-1", frame: PixelRect(x: 0, y: 0, width: 320, height: 240))
    let clock = ManualClock()
    let scratch: Scratch
    let pattern = TestPattern(width: 320, height: 240)
    private let lock = NSLock()
    private var captures: [FakeCapture] = []
    private var failures: [RecordingError] = []
    private var frameIndex = 0
    private var samplesSent = 0

    init() throws { scratch = try Scratch() }

    var source: ScreenSource {
        ScreenSource.fake(
            monitors: [monitor], pictures: { _ in nil },
            started: { capture in
                self.lock.withLock { self.captures.append(capture) }
            })
    }
    var capture: FakeCapture? { lock.withLock { captures.last } }
    var failed: [RecordingError] { lock.withLock { failures } }

    func start(
        sound: Bool, reserveBytes: Int64 = 0, source: ScreenSource? = nil, share: EncodeShare? = nil
    ) throws -> Recorder {
        let options = Recorder.Options(
            monitor: monitor, fps: 30, sound: sound, url: scratch.url.appendingPathComponent("take.mp4"),
            reserveBytes: reserveBytes)
        let clock = self.clock
        return try Recorder(
            options, capture: (source ?? self.source).capture, log: .silent, share: share, clock: { clock.now },
            failed: { error in self.lock.withLock { self.failures.append(error) } })
    }

    /// `seconds` of frames at 30 fps, each followed by its 1/30 s of tone; `alsoTo` sees each picture's index and
    /// capture time after the recorder's capture did (a viewer's encoder of the same capture).
    func play(seconds: Double, to recorder: Recorder, alsoTo viewer: ((Int, UInt64) -> Void)? = nil) {
        for _ in 0..<Int(seconds * 30) {
            let captured = clock.now
            clock.advance(33_333)
            let image = pattern.withFrame(frameIndex) { image in
                ScreenImage(
                    width: image.width, height: image.height, stride: image.bytesPerRow, format: .bgrx,
                    pixels: Array(UnsafeRawBufferPointer(start: image.pixels, count: image.bytesPerRow * image.height)))
            }
            capture?.deliver(image, capturedAt: clock.now)
            viewer?(frameIndex, clock.now)
            frameIndex += 1
            let tone = Self.tone(count: 1600, from: samplesSent)
            samplesSent += 1600
            tone.withUnsafeBufferPointer { recorder.append(samples: $0, captureMicros: captured) }
            // Let the recording's queue keep up: its pool drops frames when it falls behind.
            usleep(3000)
        }
    }

    /// `seconds` of tone with no picture (a capture whose first frame is late).
    func sound(seconds: Double, to recorder: Recorder) {
        for _ in 0..<Int(seconds * 30) {
            let captured = clock.now
            clock.advance(33_333)
            let tone = Self.tone(count: 1600, from: samplesSent)
            samplesSent += 1600
            tone.withUnsafeBufferPointer { recorder.append(samples: $0, captureMicros: captured) }
            usleep(1000)
        }
    }

    /// `count` stereo frames of a 1 kHz sine at half scale, interleaved.
    static func tone(count: Int, from start: Int) -> [Int16] {
        (0..<count).flatMap { index -> [Int16] in
            let value = Int16(16_000 * sin(2 * Double.pi * 1000 * Double(start + index) / 48_000))
            return [value, value]
        }
    }
}

@Test func pauseAndResumeLeaveEightSecondsOfVideoAndSound() async throws {
    let rig = try RecordingRig()
    defer { rig.scratch.remove() }
    let summary = try await offThePool {
        let recorder = try rig.start(sound: true)
        rig.play(seconds: 5, to: recorder)
        #expect(recorder.pause())
        rig.play(seconds: 2, to: recorder)
        #expect(recorder.resume())
        rig.play(seconds: 3, to: recorder)
        return recorder.stop()
    }
    #expect(summary.error == nil)
    #expect(abs(Double(summary.durationMicros) / 1e6 - 8) < 0.05)
    let probe = try Probe.read(summary.url)
    #expect(probe.codecs.sorted() == ["aac", "h264"])
    let duration = try #require(probe.duration)
    #expect(abs(duration - 8) < 0.3, "ffprobe says \(duration) s")
    #expect(rig.capture?.isStopped == true)
    #expect(rig.failed.isEmpty)
}

/// Mutter sends its first picture a moment after the session starts (1.5 s once on a loaded machine): the file
/// still covers the whole recording, that picture shown from its start, with the sound where it was.
@Test func aFirstPictureThatComesLateIsShownFromTheStart() async throws {
    let rig = try RecordingRig()
    defer { rig.scratch.remove() }
    let summary = try await offThePool {
        let recorder = try rig.start(sound: false)
        rig.clock.advance(1_500_000)
        rig.play(seconds: 1.5, to: recorder)
        return recorder.stop()
    }
    #expect(summary.error == nil)
    let duration = try #require(try Probe.read(summary.url).duration)
    #expect(abs(duration - 3) < 0.3, "ffprobe says \(duration) s for 3 s recorded")
}

/// The sound of that wait is not lost: it is held until the first picture opens the file, so the sound track
/// starts at the file's start (the first second of a first recording was silent once).
@Test func soundBeforeTheFirstPictureStartsTheFilesSoundTrack() async throws {
    let rig = try RecordingRig()
    defer { rig.scratch.remove() }
    let summary = try await offThePool {
        let recorder = try rig.start(sound: true)
        rig.sound(seconds: 1.5, to: recorder)
        rig.play(seconds: 1.5, to: recorder)
        return recorder.stop()
    }
    #expect(summary.error == nil)
    let sound = try Probe.packetTimes(summary.url, kind: "a")
    // AAC packets of 1,024 samples: 47 a second; the tone played for the whole 3 s.
    #expect((sound.first ?? 9) < 0.1, "the sound track starts at \(sound.first ?? -1) s")
    #expect(sound.filter { $0 < 1.4 }.count > 60, "\(sound.filter { $0 < 1.4 }.count) packets in the first 1.4 s")
}

@Test func aCaptureErrorEndsItWithAPlayableFile() async throws {
    let rig = try RecordingRig()
    defer { rig.scratch.remove() }
    let summary = try await offThePool {
        let recorder = try rig.start(sound: false)
        rig.play(seconds: 2.5, to: recorder)
        rig.capture?.end(.captureFailed("monitor unplugged"))
        return recorder.stop()
    }
    #expect(rig.failed == [.capture("\(ScreenSourceError.captureFailed("monitor unplugged"))")])
    #expect(summary.error == rig.failed.first)
    let probe = try Probe.read(summary.url)
    #expect(probe.codecs == ["h264"])
    #expect((probe.duration ?? 0) > 2)
}

@Test func noRoomLeftStopsItAtTheSecondFragment() async throws {
    let rig = try RecordingRig()
    defer { rig.scratch.remove() }
    let summary = try await offThePool {
        // More room than any disk has: the first fragment is written, the check before the next one fails.
        let recorder = try rig.start(sound: false, reserveBytes: Int64.max)
        rig.play(seconds: 3, to: recorder)
        return recorder.stop()
    }
    #expect(rig.failed == [.diskFull])
    #expect(summary.error == .diskFull)
    let probe = try Probe.read(summary.url)
    #expect(probe.codecs == ["h264"])
    #expect((probe.duration ?? 0) > 0.5)
}

@Test func aCaptureThatCannotStartLeavesNoFile() throws {
    let rig = try RecordingRig()
    defer { rig.scratch.remove() }
    #expect(throws: ScreenSourceError.noDisplay) { try rig.start(sound: true, source: .noDisplay) }
    #expect(try FileManager.default.contentsOfDirectory(atPath: rig.scratch.url.path).isEmpty)
}
