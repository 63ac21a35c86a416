import DeckDesktop
import Glibc
import Synchronization

/// What callers of an `X11Capture` ask of its thread (rate, a refresh, the stop), behind one lock, and the
/// pipe that wakes the thread from `poll` to read it.
final class CaptureControl: Sendable {
    struct Requests {
        var fps: Int
        var refresh = false
        var stop = false
    }

    private let requests: Mutex<Requests>
    /// The capture thread's `pthread_t` once it runs (0 before): `stop()` from a handler must not wait for it.
    let thread = Atomic<UInt>(0)
    /// The self-pipe: written to wake the thread, read (drained) by it. Both ends non-blocking.
    let wakeReader: Int32
    private let wakeWriter: Int32

    init(fps: Int) throws(ScreenSourceError) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw .captureFailed("no pipe for the capture thread (errno \(errno))") }
        for end in ends {
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        wakeReader = ends[0]
        wakeWriter = ends[1]
        requests = Mutex(Requests(fps: fps))
    }

    deinit {
        close(wakeReader)
        close(wakeWriter)
    }

    /// Changes the requests and wakes the thread to see them.
    func ask(_ change: (inout Requests) -> Void) {
        requests.withLock { change(&$0) }
        var byte: UInt8 = 1
        // A full pipe already holds a wake-up; losing this byte loses nothing.
        _ = write(wakeWriter, &byte, 1)
    }

    /// The requests now; a refresh is handed out once.
    func take() -> Requests {
        requests.withLock { requests in
            defer { requests.refresh = false }
            return requests
        }
    }

    /// Whether `stop()` was asked for (the thread checks before reporting an end).
    var isStopping: Bool { requests.withLock { $0.stop } }

    /// Empties the pipe after a wake-up.
    func drainWakeUps() {
        var bytes = (UInt64(0), UInt64(0))
        while withUnsafeMutableBytes(of: &bytes, { read(wakeReader, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// Whether the caller is the capture thread itself.
    var isCaptureThread: Bool { pthread_equal(thread.load(ordering: .acquiring), pthread_self()) != 0 }
}
