import CDeckShim
import CPipeWire
import DeckDesktop
import Foundation

/// Consumes one PipeWire video stream (a Mutter screen-cast node) on PipeWire's own thread (`pw_thread_loop`,
/// named `deck-pipewire`) and hands its frames to `CaptureHandlers` as lent `CapturedFrame`s: the compositor's
/// mapped buffer (MemFd), held until the next one arrives — or, while the cursor (`StreamCursor`, from the
/// buffers' metadata) is over the monitor, one pooled copy with the cursor drawn in; nothing is allocated per
/// frame. `FramePacing` decides when the held buffer goes out, a loop timer wakes it up.
///
/// A compositor sends a picture only when it paints: one when the stream starts, then on damage. When that first
/// one is lost (Mutter drops a paint that comes within its frame interval of a cursor-only buffer, which happens
/// on a loaded machine) a still screen would never be seen. So until the first picture arrives the stream asks
/// again (`askAgain`, 1 s after streaming starts, then backing off to 3 s: the first picture takes 0.3 s on a
/// loaded machine, and asking sooner would only push it back). A stream given a `still` source (a portal cast on
/// wlroots: xdg-desktop-portal-wlr copies only a damaged output) also shows that one picture when none has come
/// 0.25 s after streaming started, until the stream's first.
///
/// `@unchecked Sendable`: every mutable field is touched only with the thread loop's lock held (PipeWire calls
/// the stream events with it held, and the public methods take it), so they run one at a time.
final class PipeWireStream: @unchecked Sendable {
    private let handlers: CaptureHandlers
    private let threadLoop: OpaquePointer
    private let loop: UnsafeMutablePointer<pw_loop>
    private let context: OpaquePointer
    private var core: OpaquePointer?
    private var stream: OpaquePointer?
    private var timer: UnsafeMutablePointer<spa_source>?
    /// Wakes `askAgain` while no picture has arrived.
    private var firstPictureTimer: UnsafeMutablePointer<spa_source>?
    private var askAgainAfter = PipeWireStream.firstAsk
    /// Pictures to treat as lost (tests of asking again).
    private var losesPictures: Int
    /// Where a picture comes from while the stream has sent none (nil: wait for the stream's).
    private let still: (@Sendable () -> StillPicture?)?
    /// The still picture shown until the stream's first; taken once per stream.
    private var shownStill: StillPicture?
    private var stillAsked = false
    private let events = UnsafeMutablePointer<pw_stream_events>.allocate(capacity: 1)
    private let hook = UnsafeMutablePointer<spa_hook>.allocate(capacity: 1)
    private var pacing: FramePacing
    private var held: UnsafeMutablePointer<pw_buffer>?
    private var cursor = StreamCursor()
    /// The held frame with the cursor drawn in: one buffer, allocated again only when the frame's size changes.
    private var composite: UnsafeMutableRawPointer?
    private var compositeBytes = 0
    private var size = (width: 0, height: 0, format: PixelFormat.bgrx)
    private var finished = false
    /// Set once the loop and context are freed; guarded by `life`, not by the loop's lock (which is gone then).
    private var tornDown = false
    private let life = NSLock()

    private static let initialized: Void = pw_init(nil, nil)

    /// Connects to PipeWire — through `remote` when given (the ScreenCast portal's OpenPipeWireRemote, which this
    /// takes over and closes), else `$PIPEWIRE_REMOTE` or the user's default — and to `node`; frames follow on
    /// PipeWire's thread. Throws `noDisplay` when PipeWire cannot be reached. `size`: offer exactly that size (a
    /// producer that sizes itself by its consumer, Mutter's RecordVirtual); nil: any size. `still`: a picture of
    /// the same monitor taken another way, shown when the stream sends none at first.
    init(
        node: UInt32, fps: Int, handlers: CaptureHandlers, remote: Int32? = nil, losesPictures: Int = 0,
        size: (width: Int, height: Int)? = nil, still: (@Sendable () -> StillPicture?)? = nil
    ) throws(ScreenSourceError) {
        _ = Self.initialized
        self.losesPictures = losesPictures
        self.still = still
        var remote = remote
        defer { if let remote { close(remote) } }  // still ours only when connecting never took it
        self.handlers = handlers
        pacing = FramePacing(fps: fps)
        guard let threadLoop = pw_thread_loop_new(Self.threadName, nil) else {
            throw .captureFailed("pw_thread_loop_new failed")
        }
        self.threadLoop = threadLoop
        loop = pw_thread_loop_get_loop(threadLoop)
        guard let context = pw_context_new(loop, nil, 0) else {
            pw_thread_loop_destroy(threadLoop)
            throw .captureFailed("pw_context_new failed")
        }
        self.context = context
        hook.initialize(to: spa_hook())
        events.initialize(to: Self.streamEvents)
        guard pw_thread_loop_start(threadLoop) == 0 else {
            teardown(started: false)
            throw .captureFailed("the PipeWire thread did not start")
        }
        pw_thread_loop_lock(threadLoop)
        let failure = connect(node: node, fps: fps, remote: remote, size: size)
        remote = nil
        pw_thread_loop_unlock(threadLoop)
        if let failure {
            teardown(started: true)
            throw failure
        }
    }

    deinit {
        stop()
        events.deallocate()
        hook.deallocate()
        composite?.deallocate()
    }

    /// With the loop locked: the core, the stream and the timer.
    private func connect(node: UInt32, fps: Int, remote: Int32?, size: (width: Int, height: Int)?)
        -> ScreenSourceError?
    {
        // pw_context_connect_fd owns the descriptor from here, even when it fails.
        let core = remote.map { pw_context_connect_fd(context, $0, nil, 0) } ?? pw_context_connect(context, nil, 0)
        guard let core else { return .noDisplay }
        self.core = core
        let properties = pw_properties_new_string("media.type=Video media.category=Capture media.role=Screen")
        guard let stream = pw_stream_new(core, "touchdeck", properties) else {
            return .captureFailed("pw_stream_new failed")
        }
        self.stream = stream
        // passUnretained: the stream, the timer and their callbacks are destroyed in `teardown`, before `self` is.
        let me = Unmanaged.passUnretained(self).toOpaque()
        pw_stream_add_listener(stream, hook, events, me)
        timer = deck_pw_timer_new(loop, { data, _ in PipeWireStream.from(data).act() }, me)
        firstPictureTimer = deck_pw_timer_new(loop, { data, _ in PipeWireStream.from(data).askAgain() }, me)
        var buffer = [UInt8](repeating: 0, count: 1024)
        let status = buffer.withUnsafeMutableBufferPointer { bytes -> Int32 in
            var format: UnsafePointer<spa_pod>? = deck_pw_video_format_sized(
                bytes.baseAddress, UInt32(bytes.count), UInt32(60), UInt32(size?.width ?? 0),
                UInt32(size?.height ?? 0))
            return pw_stream_connect(
                stream, SPA_DIRECTION_INPUT, node,
                pw_stream_flags(
                    PW_STREAM_FLAG_AUTOCONNECT.rawValue | PW_STREAM_FLAG_MAP_BUFFERS.rawValue
                        | PW_STREAM_FLAG_DONT_RECONNECT.rawValue), &format, 1)
        }
        return status < 0 ? .captureFailed("pw_stream_connect: \(String(cString: strerror(-status)))") : nil
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> PipeWireStream {
        Unmanaged<PipeWireStream>.fromOpaque(data!).takeUnretainedValue()
    }

    private static let streamEvents: pw_stream_events = {
        var events = pw_stream_events()
        events.version = UInt32(PW_VERSION_STREAM_EVENTS)
        events.state_changed = { data, _, state, error in
            PipeWireStream.from(data).stateChanged(state, error.map { String(cString: $0) })
        }
        events.param_changed = { data, id, param in PipeWireStream.from(data).paramChanged(id, param) }
        events.process = { data in PipeWireStream.from(data).process() }
        events.remove_buffer = { data, buffer in PipeWireStream.from(data).removed(buffer) }
        return events
    }()

    // MARK: On PipeWire's thread, loop locked

    private func stateChanged(_ state: pw_stream_state, _ error: String?) {
        switch state {
        case PW_STREAM_STATE_ERROR: end(.captureFailed("PipeWire: \(error ?? "stream error")"))
        // Mutter removes the node when its session ends (monitor gone, compositor leaving).
        case PW_STREAM_STATE_UNCONNECTED: end(.noSuchMonitor)
        case PW_STREAM_STATE_STREAMING where held == nil:
            deck_pw_timer_arm(loop, firstPictureTimer, askAgainAfter)
            takeStillSoon()
        default: break
        }
    }

    private static let firstAsk: UInt64 = 1_000_000_000
    private static let lastAsk: UInt64 = 3_000_000_000

    /// No picture yet: pausing and resuming the stream makes the compositor paint one (Mutter's stream source
    /// queues a redraw whenever it starts streaming).
    private func askAgain() {
        guard held == nil, !finished, let stream else { return }
        _ = pw_stream_set_active(stream, false)
        _ = pw_stream_set_active(stream, true)
        askAgainAfter = min(askAgainAfter * 2, Self.lastAsk)
        deck_pw_timer_arm(loop, firstPictureTimer, askAgainAfter)
    }

    /// A still picture 0.25 s from now unless the stream has sent one by then, taken on a thread of its own (the
    /// copy waits on the compositor, up to 1 s) and handed to PipeWire's thread (its timer, as `refresh` does) if the
    /// stream still has sent none: the handlers run on PipeWire's thread only, where a handler that stops the
    /// stream takes the asynchronous path (on this thread it would wait for the lock this thread holds).
    private func takeStillSoon() {
        guard let still, !stillAsked else { return }
        stillAsked = true
        Thread.detachNewThread { [weak self] in
            Thread.sleep(forTimeInterval: 0.25)
            guard let self, self.waitsForAPicture else { return }
            let picture = still()
            self.lockedWhileAlive { me in
                guard let picture, me.held == nil, !me.finished, picture.width == me.size.width,
                    picture.height == me.size.height
                else { return }
                me.shownStill = picture
                me.pacing.frameWaiting()
                deck_pw_timer_arm(me.loop, me.timer, 1)
            }
        }
    }

    /// Whether the stream has sent no picture yet (from any thread).
    private var waitsForAPicture: Bool {
        var waits = false
        lockedWhileAlive { waits = $0.held == nil && !$0.finished }
        return waits
    }

    /// `body` with the loop locked, unless `stop` has freed the loop (from a thread of the stream's own).
    private func lockedWhileAlive(_ body: (PipeWireStream) -> Void) {
        life.lock()
        defer { life.unlock() }
        guard !tornDown else { return }
        locked(body)
    }

    /// PipeWire takes its buffers back when the stream leaves (or renegotiates): the held one must not be used
    /// or queued again.
    private func removed(_ buffer: UnsafeMutablePointer<pw_buffer>?) {
        if buffer == held { held = nil }
    }

    private func paramChanged(_ id: UInt32, _ param: UnsafePointer<spa_pod>?) {
        guard id == SPA_PARAM_Format.rawValue, let param, let stream else { return }
        var width: UInt32 = 0
        var height: UInt32 = 0
        var format: Int32 = 0
        guard deck_pw_parse_format(param, &width, &height, &format) == 0, width > 0, height > 0,
            format != Int32(DECK_PW_FORMAT_OTHER)
        else {
            end(.captureFailed("the compositor offers no BGRx/BGRA stream"))
            return
        }
        size = (Int(width), Int(height), format == Int32(DECK_PW_FORMAT_BGRA) ? .bgra : .bgrx)
        var buffer = [UInt8](repeating: 0, count: 1024)
        buffer.withUnsafeMutableBufferPointer { bytes in
            var params = [UnsafePointer<spa_pod>?](repeating: nil, count: 3)
            let count = deck_pw_buffer_params(bytes.baseAddress, UInt32(bytes.count), &params)
            _ = pw_stream_update_params(stream, &params, count)
        }
    }

    private func process() {
        guard let stream else { return }
        var newest: UnsafeMutablePointer<pw_buffer>?
        var cursorChanged = false
        // Only the newest picture matters; older buffers go straight back to the compositor once their cursor
        // news (which comes only when something changed) is read.
        while let buffer = pw_stream_dequeue_buffer(stream) {
            var meta = deck_cursor()
            let news = deck_pw_cursor(buffer.pointee.buffer, &meta)
            if news != 0 && cursor.update(news, meta) { cursorChanged = true }
            guard Self.hasPicture(buffer), losesPictures == 0 else {
                if Self.hasPicture(buffer) { losesPictures -= 1 }
                pw_stream_queue_buffer(stream, buffer)
                continue
            }
            if let older = newest { pw_stream_queue_buffer(stream, older) }
            newest = buffer
        }
        guard !finished else {
            if let newest { pw_stream_queue_buffer(stream, newest) }
            return
        }
        guard let newest else {
            // Only the pointer moved: the held picture again, with the cursor where it is now.
            if cursorChanged && held != nil {
                pacing.frameWaiting()
                act()
            }
            return
        }
        if let held { pw_stream_queue_buffer(stream, held) }
        held = newest
        shownStill = nil
        pacing.frameWaiting()
        act()
    }

    private static func hasPicture(_ buffer: UnsafeMutablePointer<pw_buffer>) -> Bool {
        let spa = buffer.pointee.buffer.pointee
        guard spa.n_datas > 0, let data = spa.datas, data.pointee.data != nil else { return false }
        let chunk = data.pointee.chunk.pointee
        return chunk.size > 0 && (chunk.flags & Int32(SPA_CHUNK_FLAG_CORRUPTED)) == 0
    }

    /// Hands the held frame on when the pacing says so, or sets the timer for when it will.
    private func act() {
        guard !finished else { return }
        switch pacing.step(now: deck_monotonic_ns()) {
        case .deliver: deliver()
        case .wait(let nanoseconds): deck_pw_timer_arm(loop, timer, max(1, nanoseconds))
        case .idle: break
        }
    }

    private func deliver() {
        guard let held else {
            if let shownStill { handlers.frame(shownStill.frame) }
            return
        }
        let data = held.pointee.buffer.pointee.datas.pointee
        let chunk = data.chunk.pointee
        let (width, height, format) = size
        let stride = chunk.stride > 0 ? Int(chunk.stride) : width * 4
        let bytes = stride * (height - 1) + width * 4
        guard width > 0, Int(chunk.offset) + bytes <= Int(data.maxsize) else { return }
        var pixels = UnsafeRawPointer(data.data!.advanced(by: Int(chunk.offset)))
        if !cursor.area(width: width, height: height).isEmpty {
            if compositeBytes != bytes {
                composite?.deallocate()
                composite = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
                compositeBytes = bytes
            }
            composite!.copyMemory(from: pixels, byteCount: bytes)
            cursor.draw(into: composite!, stride: stride, width: width, height: height)
            pixels = UnsafeRawPointer(composite!)
        }
        handlers.frame(
            CapturedFrame(
                width: width, height: height, stride: stride, format: format, pixels: pixels,
                damage: [PixelRect(x: 0, y: 0, width: width, height: height)], capturedAt: CapturedFrame.now()))
    }

    private func end(_ error: ScreenSourceError) {
        guard !finished else { return }
        finished = true
        handlers.ended(error)
    }

    // MARK: From any thread

    func setFPS(_ fps: Int) { locked { $0.pacing.setFPS(fps) } }

    /// Hands the held frame on again (on PipeWire's thread, as soon as the pacing allows).
    func refresh() {
        locked { me in
            // No picture yet: the first-picture timer asks (asking on every keep-alive would push it back).
            guard me.held != nil || me.shownStill != nil, !me.finished else { return }
            me.pacing.frameWaiting()
            deck_pw_timer_arm(me.loop, me.timer, 1)
        }
    }

    /// Disconnects; when it returns no handler runs or will. From a handler (PipeWire's thread) it only marks the
    /// stream finished and leaves the teardown to another thread, since the loop cannot join itself.
    func stop() {
        // Told by the thread's name, not by asking the loop, which another thread may be freeing. Any stream's
        // PipeWire thread takes the asynchronous path; that is safe, only not waited for.
        if Self.onPipeWireThread {
            finished = true
            DispatchQueue.global().async { self.stop() }
            return
        }
        life.lock()
        defer { life.unlock() }
        guard !tornDown else { return }
        teardown(started: true)
    }

    private static let threadName = "deck-pipewire"

    private static var onPipeWireThread: Bool { deck_thread_is_named(threadName) != 0 }

    private func locked(_ body: (PipeWireStream) -> Void) {
        pw_thread_loop_lock(threadLoop)
        body(self)
        pw_thread_loop_unlock(threadLoop)
    }

    /// Gives the held buffer back, destroys the stream, the timer and the core under the lock, then stops the
    /// thread and frees the loop.
    private func teardown(started: Bool) {
        if started { pw_thread_loop_lock(threadLoop) }
        finished = true
        if let stream {
            if let held { pw_stream_queue_buffer(stream, held) }
            pw_stream_disconnect(stream)
            pw_stream_destroy(stream)
        }
        held = nil
        stream = nil
        if let timer { deck_pw_timer_free(loop, timer) }
        if let firstPictureTimer { deck_pw_timer_free(loop, firstPictureTimer) }
        timer = nil
        firstPictureTimer = nil
        if let core { pw_core_disconnect(core) }
        core = nil
        if started {
            pw_thread_loop_unlock(threadLoop)
            pw_thread_loop_stop(threadLoop)
        }
        pw_context_destroy(context)
        pw_thread_loop_destroy(threadLoop)
        tornDown = true
    }
}
