import CPulse
import Foundation

/// One libpulse threaded mainloop, for every libpulse user of the host (the sound capture's `PulseConnection`,
/// the volume gauge's `PulseVolume`): its lock, and its end.
///
/// libpulse aborts when its loop is locked or stopped from the loop's own thread, and an owner's last
/// reference can go exactly there (a callback lets go of a recorder, a volume control). So `locked` takes the
/// lock only off the loop's thread (on it, the caller holds it already), and `end` called on the loop's
/// thread disconnects the context at once (no callback into the owner after that) and leaves stopping the loop
/// and freeing it to another thread, once the callback has returned.
///
/// `@unchecked Sendable`: the loop pointer never changes; libpulse's own lock guards what it points at.
final class PulseLoop: @unchecked Sendable {
    let mainloop: OpaquePointer

    /// A new loop, running its thread.
    init() {
        guard let mainloop = pa_threaded_mainloop_new() else {
            preconditionFailure("pa_threaded_mainloop_new: no memory")
        }
        self.mainloop = mainloop
        pa_threaded_mainloop_start(mainloop)
    }

    var api: UnsafeMutablePointer<pa_mainloop_api> { pa_threaded_mainloop_get_api(mainloop) }

    /// Whether the caller runs on the loop's thread (inside one of its callbacks).
    var onItsThread: Bool { pa_threaded_mainloop_in_thread(mainloop) != 0 }

    /// Runs `body` holding the loop's lock.
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        if onItsThread { return try body() }
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        return try body()
    }

    /// Wakes whoever waits in `wait` (loop's thread or lock held).
    func signal() { pa_threaded_mainloop_signal(mainloop, 0) }

    /// Waits for a `signal` with the lock held (never on the loop's thread).
    func wait() { pa_threaded_mainloop_wait(mainloop) }

    /// Ends the loop and `context` (nil: none), once; the owner's callbacks are never called after it returns.
    /// `cancel` runs first, with the lock held, for what else the owner set on the loop (a timer).
    func end(context: OpaquePointer?, cancel: @escaping () -> Void = {}) {
        let handles = PulseHandles(mainloop: mainloop, context: context)
        if onItsThread {
            cancel()
            handles.disconnect()
            DispatchQueue.global().async {
                pa_threaded_mainloop_stop(handles.mainloop)
                handles.free()
            }
        } else {
            locked {
                cancel()
                handles.disconnect()
            }
            pa_threaded_mainloop_stop(mainloop)
            handles.free()
        }
    }
}

/// A loop and its context on their way out. `@unchecked Sendable`: used by one thread at a time, once the owner
/// is gone.
private struct PulseHandles: @unchecked Sendable {
    let mainloop: OpaquePointer
    let context: OpaquePointer?

    /// No more callbacks into the owner: its own are cleared, and disconnecting cancels every operation still
    /// running (libpulse calls no callback of a cancelled one). Loop's thread or lock held.
    func disconnect() {
        guard let context else { return }
        pa_context_set_state_callback(context, nil, nil)
        pa_context_set_subscribe_callback(context, nil, nil)
        pa_context_disconnect(context)
    }

    /// Frees the context and the loop (stopped before).
    func free() {
        if let context { pa_context_unref(context) }
        pa_threaded_mainloop_free(mainloop)
    }
}
