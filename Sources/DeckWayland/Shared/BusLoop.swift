import CGio
import Foundation

/// One thread running a GLib main loop over a private context, for what the session bus delivers by itself: the
/// signals `DesktopNotifications` waits for and the method calls on the objects `StatusNotifier` exports. Started
/// once, for the life of the process.
final class BusLoop: @unchecked Sendable {
    static let shared = BusLoop()

    private let context: OpaquePointer

    private init() {
        context = g_main_context_new()!
        let ready = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            g_main_context_push_thread_default(context)
            let loop = g_main_loop_new(context, 0)
            ready.signal()
            g_main_loop_run(loop)
        }
        thread.name = "touchdeck.bus"
        thread.start()
        ready.wait()
    }

    /// Runs `work` on the loop's thread (its context the thread's default, so what it subscribes or exports is
    /// served there) and returns its result.
    func run<T>(_ work: @escaping () -> T) -> T {
        var result: T?
        let job = BusJob { result = work() }
        let pointer = Unmanaged.passRetained(job).toOpaque()
        g_main_context_invoke(
            context,
            { data in
                let job = Unmanaged<BusJob>.fromOpaque(data!).takeRetainedValue()
                job.work()
                job.done.signal()
                return 0  // G_SOURCE_REMOVE
            }, pointer)
        job.done.wait()
        return result!
    }
}

/// One `BusLoop.run`: the work and the wait for it.
private final class BusJob {
    let work: () -> Void
    let done = DispatchSemaphore(value: 0)
    init(_ work: @escaping () -> Void) { self.work = work }
}
