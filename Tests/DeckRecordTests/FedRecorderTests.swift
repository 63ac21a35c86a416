import DeckDesktop
import DeckKit
import DeckLog
import DeckMedia
import DeckRecord
import Foundation
import Testing

/// A viewer's stream as the share sees it: an x264 encoder of the rig's monitor that asks the attached recording
/// for its keyframes and hands it every frame (what `ScreenStream.frame` does on the capture thread).
private final class ViewerEncode {
    let outlet: EncodeOutlet
    private let encoder: VideoEncoder
    private let pattern = TestPattern(width: 320, height: 240)
    private(set) var keyframes = 0

    init(_ rig: RecordingRig, share: EncodeShare) throws {
        encoder = try VideoEncoder(
            sourceWidth: 320, sourceHeight: 240,
            configuration: VideoEncoder.Configuration(choice: .x264, maxSide: 320, fps: 30), log: .silent)
        outlet = share.offer(
            EncodeShare.Key(monitor: rig.monitor, size: PixelSize(width: 320, height: 240), fps: 30))
    }

    /// The picture the rig just delivered (`index`), captured at `micros`.
    func frame(_ index: Int, capturedAt micros: UInt64) throws {
        let tap = outlet.tap
        if tap?.wantsKeyframe(at: micros) == true { encoder.requestKeyframe() }
        let encoded = try pattern.withFrame(index) { image in try encoder.encode(image, at: micros) }
        guard let encoded else { return }
        if encoded.keyframe { keyframes += 1 }
        tap?.take(encoded, capturedAt: micros)
    }
}

/// DESIGN.md#recording, one encode: while a viewer's encoder of the same picture feeds it, the recording writes
/// that encoder's frames (its own capture's frames are not encoded again), asks it for a keyframe every second,
/// and goes back to its own encoder when the viewer leaves, with no hole in the file.
@Test func aRecordingFedByAViewersEncoderKeepsEveryFrameAndAKeyframeEachSecond() async throws {
    let rig = try RecordingRig()
    defer { rig.scratch.remove() }
    let share = EncodeShare()
    let (summary, viewerKeyframes) = try await offThePool {
        let recorder = try rig.start(sound: false, share: share)
        rig.play(seconds: 1, to: recorder)  // alone: its own encoder
        let viewer = try ViewerEncode(rig, share: share)
        #expect(viewer.outlet.tap != nil)
        rig.play(seconds: 3, to: recorder) { index, micros in try? viewer.frame(index, capturedAt: micros) }
        viewer.outlet.withdraw()
        rig.play(seconds: 1.5, to: recorder)  // alone again
        return (recorder.stop(), viewer.keyframes)
    }
    #expect(summary.error == nil)
    #expect(rig.failed.isEmpty)
    // Its first frame a keyframe, then one for each second of the three it fed.
    #expect(viewerKeyframes >= 3, "the viewer's encoder made \(viewerKeyframes) keyframes in 3 s")
    let frames = try Probe.packetTimes(summary.url, kind: "v")
    // 5.5 s at 30 fps is 165 pictures: each at most once (twice while fed would be 255), and the fed 3 s not
    // lost (75 without them); a loaded machine may drop a few when a queue is full.
    #expect((100...165).contains(frames.count), "\(frames.count) frames in 5.5 s")
    let keys = try Probe.keyframeTimes(summary.url)
    let gaps = zip(keys, keys.dropFirst() + [frames.last ?? 0]).map { $1 - $0 }
    // A keyframe lost at a switch would leave 2 s; a frame or two the pool dropped under load only delays one.
    #expect((gaps.max() ?? 9) <= 1.2, "keyframes at \(keys)")
    let duration = try #require(try Probe.read(summary.url).duration)
    #expect(abs(duration - 5.5) < 0.3, "ffprobe says \(duration) s")
}
