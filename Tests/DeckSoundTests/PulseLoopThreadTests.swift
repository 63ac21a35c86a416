import DeckDesktop
import Foundation
import Testing

@testable import DeckSound

/// libpulse aborts the process when its threaded mainloop is locked from the loop's own thread. A recorder whose
/// last reference goes inside one of the loop's callbacks stops there (its `stop` takes the lock), and the
/// connection it held may go with it; a full run aborted that way once, when the sound server restarted while
/// someone listened. Here both go inside a callback on purpose, against a private PulseAudio (not skipped); and so
/// does a volume control, whose loop is the same `PulseLoop`.
extension SoundLiveTests {
    @Suite struct PulseLoopThreadTests {
        /// What the callback reaches; only the callback and the test touch it, one after the other.
        final class Held: @unchecked Sendable {
            var connection: PulseConnection?
            var recorder: PulseRecorder?
            var readyOnTheLoop: Bool?
            let done = DispatchSemaphore(value: 0)
        }

        @Test func aRecorderAndItsConnectionReleasedInsideACallbackStopThereWithoutAborting() throws {
            let pulse = try PrivatePulse()
            #expect(pulse.start(), "pulseaudio did not start")
            defer { pulse.kill() }
            let held = Held()
            weak var gone: PulseConnection?
            try {
                // Only `held` keeps them: the callback lets go of the last references.
                let connection = try PulseConnection(server: pulse.server) { [held] _ in
                    guard held.recorder != nil else { return }
                    held.readyOnTheLoop = held.connection?.isReady  // the lock, taken on the loop's thread
                    held.connection = nil
                    held.recorder = nil  // stop() on the loop's thread, then the connection's deinit there
                    held.done.signal()
                }
                held.connection = connection
                held.recorder = try PulseRecorder(
                    connection, source: "speakers.monitor", deliver: { _, _ in }, ended: {})
                gone = connection
            }()
            // A new stream is an event: the callback runs on the loop's thread.
            let player = pulse.play()
            defer { PrivatePulse.end(player) }
            #expect(held.done.wait(timeout: .now() + 10) == .success, "no event came")
            #expect(held.readyOnTheLoop == true)
            #expect(waitUntil { gone == nil }, "the connection was not freed")
        }

        /// The volume control the callback lets go of.
        final class HeldControl: @unchecked Sendable {
            private let lock = NSLock()
            private var held: VolumeControl?
            let released = DispatchSemaphore(value: 0)

            func hold(_ control: VolumeControl) { lock.withLock { held = control } }

            /// Drops the control (the last reference) once one is held; whether it did.
            func release() -> Bool {
                let control = lock.withLock { () -> VolumeControl? in
                    defer { held = nil }
                    return held
                }
                return control != nil
            }
        }

        @Test func aVolumeControlReleasedInsideItsOwnCallbackEndsThereWithoutAborting() throws {
            let pulse = try PrivatePulse()
            #expect(pulse.start(), "pulseaudio did not start")
            defer { pulse.kill() }
            let held = HeldControl()
            held.hold(
                VolumeControl.live(server: pulse.server) { [held] state in
                    // On libpulse's thread: the control's last reference goes here.
                    if state.available && held.release() { held.released.signal() }
                })
            // The first state may come before the control is held: a change brings another.
            _ = pulse.pactl("set-sink-volume", "@DEFAULT_SINK@", "40%")
            #expect(held.released.wait(timeout: .now() + 10) == .success, "no state came")
            // The process is still here, and another control on the same server still works.
            let again = VolumeControl.live(server: pulse.server) { _ in }
            #expect(waitUntil { again.current().available })
        }
    }
}
