import CWaylandProtocols
import DeckDesktop
import DeckKit
import Foundation
import Glibc
import Synchronization

/// The clipboard on wlroots compositors (sway, Hyprland, river…) through `zwlr_data_control_manager_v1`, the
/// protocol wl-clipboard speaks (DESIGN.md#clipboard): one thread with a Wayland connection of its own and a data
/// device for the seat. It makes a source for what a device pasted and writes the data to each app that asks for
/// it (`send`), and, only while someone follows, reads each new selection another app makes (`receive` into a pipe,
/// within `ClipboardRules`' limits). The thread sleeps in poll(2) on the Wayland socket, a wake-up pipe and the
/// transfers' pipes; no call waits on it but `write` (until the compositor has the new selection).
///
/// `@unchecked Sendable`: `shared` is behind its mutex and the wake-up pipe's descriptors never change; everything
/// else (the connection, the owned content, the read, the transfers) is touched only on the clipboard's thread.
public final class WlrClipboard: @unchecked Sendable {
    enum Command {
        case write(ClipboardContent, @Sendable (ActionResult) -> Void)
        /// A follower left: with none left, a read under way is dropped.
        case unfollowed
    }

    /// Offered beside our own types so the thread knows its own selection when the compositor reports it (another
    /// app never offers it): what a device pasted is not offered back to it. Other apps see it in the type list;
    /// the protocol gives no other sure sign (ARCHITECTURE.md "wlroots clipboard" says why).
    static let ownMarker = "application/x-touchdeck-host"
    /// The MIME types text is offered as (what wl-copy offers, less X's Latin-1 STRING) and read as, best first.
    static let textTypes = ["text/plain;charset=utf-8", "UTF8_STRING", "text/plain", "TEXT"]
    static let imageType = "image/png"
    /// How long an app has to hand over (or take) the next bytes of a transfer, and a read as a whole.
    static let patience: TimeInterval = 3
    static let longestRead: TimeInterval = 30

    private let displayName: String?
    private let shared = Mutex<
        (queue: [Command], followers: [UInt64: AsyncStream<ClipboardCopy>.Continuation], serial: UInt64)
    >(([], [:], 0))
    private let wake: (read: Int32, write: Int32)

    private var handle: OpaquePointer?
    private var lastOpenAttempt = Date()
    /// The selection serial last looked at: a change is a new selection.
    private var seenSerial: UInt64 = 0
    private var owned: ClipboardContent?
    private var reading: PipeRead?
    private var sends: [PipeSend] = []

    /// The clipboard of the compositor at `display` (nil: `$WAYLAND_DISPLAY`), its thread started; nil when the
    /// compositor offers no data control (or no seat).
    public static func open(display: String? = nil) -> WlrClipboard? {
        guard let handle = openHandle(display) else { return nil }
        return WlrClipboard(display: display, handle: handle)
    }

    /// Whether the compositor offers data control for a seat now.
    public static func isAvailable(display: String? = nil) -> Bool {
        guard let handle = openHandle(display) else { return false }
        deck_wlr_clipboard_close(handle)
        return true
    }

    private static func openHandle(_ display: String?) -> OpaquePointer? {
        var missing: Int32 = 0
        guard let handle = deck_wlr_clipboard_open(display, &missing) else { return nil }
        guard missing == 0 else {
            deck_wlr_clipboard_close(handle)
            return nil
        }
        return handle
    }

    private init(display: String?, handle: OpaquePointer) {
        displayName = display
        self.handle = handle
        seenSerial = deck_wlr_clipboard_selection_serial(handle)
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        }
        wake = (fds[0], fds[1])
        let thread = Thread { self.run() }
        thread.name = "touchdeck.wlr-clipboard"
        thread.start()
    }

    /// The seam's value over this clipboard; the focused window's app id comes from sway's IPC (`SwayFocus`).
    public var access: ClipboardAccess {
        ClipboardAccess(
            write: { content in
                await withCheckedContinuation { done in self.send(.write(content) { done.resume(returning: $0) }) }
            },
            follow: { self.follow() },
            focusedWindowClass: { await SwayFocus.focusedAppID() })
    }

    /// Registers the follower at once (no wait on the thread): any selection the thread takes up from now on is
    /// read for it. The device, made when the connection opened, reported the clipboard as it was then; that one
    /// is never read.
    private func follow() -> ClipboardFeed {
        let id = shared.withLock { state -> UInt64 in
            state.serial += 1
            return state.serial
        }
        let (feed, continuation) = ClipboardFeed.make {
            self.shared.withLock { _ = $0.followers.removeValue(forKey: id) }
            self.send(.unfollowed)
        }
        shared.withLock { $0.followers[id] = continuation }
        wakeUp()
        return feed
    }

    private func send(_ command: Command) {
        shared.withLock { $0.queue.append(command) }
        wakeUp()
    }

    private func wakeUp() {
        var byte: UInt8 = 1
        _ = Glibc.write(wake.write, &byte, 1)
    }

    private var hasFollowers: Bool { shared.withLock { !$0.followers.isEmpty } }

    private func run() {
        // A reader that closed its end makes write(2) raise SIGPIPE in this thread: blocked here, the write fails
        // with EPIPE instead (the pending signal is taken back in `PipeSend.step`).
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
        while true {
            reopenIfNeeded()
            for command in shared.withLock({ state in
                defer { state.queue = [] }
                return state.queue
            }) {
                handle(command)
            }
            guard let handle else {
                sleep(wayland: nil)
                continue
            }
            guard deck_wlr_clipboard_prepare(handle) >= 0 else {
                broken()
                continue
            }
            react(handle)
            _ = deck_wlr_clipboard_flush(handle)
            let readable = sleep(wayland: deck_wlr_clipboard_fd(handle))
            guard deck_wlr_clipboard_read(handle, readable ? 1 : 0) >= 0 else {
                broken()
                continue
            }
            react(handle)
            _ = deck_wlr_clipboard_flush(handle)
            serviceTransfers()
            expire(now: Date())
        }
    }

    /// Opens the connection again after it broke, at most once a second, when someone follows or writes.
    private func reopenIfNeeded(force: Bool = false) {
        guard handle == nil, force || hasFollowers, Date().timeIntervalSince(lastOpenAttempt) > 1 else { return }
        lastOpenAttempt = Date()
        handle = Self.openHandle(displayName)
        if let handle { seenSerial = deck_wlr_clipboard_selection_serial(handle) }
    }

    private func broken() {
        if let handle { deck_wlr_clipboard_close(handle) }
        handle = nil
        owned = nil
        reading?.close()
        reading = nil
        for transfer in sends { transfer.close() }
        sends = []
        lastOpenAttempt = Date()
    }

    private func handle(_ command: Command) {
        switch command {
        case .write(let content, let done):
            reopenIfNeeded(force: true)
            guard let handle else { return done(.failed("no Wayland display")) }
            owned = content
            let types = Self.offeredTypes(content.kind) + [Self.ownMarker]
            let status = withCStrings(types) { deck_wlr_clipboard_set(handle, $0, Int32(types.count)) }
            guard status >= 0 else {
                broken()
                return done(.failed("the compositor closed the connection"))
            }
            guard deck_wlr_clipboard_owns(handle) != 0 else {
                owned = nil
                return done(.failed("another app took the clipboard at once"))
            }
            done(.ok)
        case .unfollowed:
            guard !hasFollowers else { return }
            reading?.close()
            reading = nil  // nothing read is kept once nobody follows
        }
    }

    /// What the last dispatch brought: apps asking for our data (first: they came before any cancel), whether
    /// the selection is still ours, and a new selection.
    private func react(_ handle: OpaquePointer) {
        var mime: UnsafeMutablePointer<CChar>?
        while case let fd = deck_wlr_clipboard_take_send(handle, &mime), fd >= 0 {
            let type = mime.map { String(cString: $0) } ?? ""
            free(mime)
            if let owned, Self.offeredTypes(owned.kind).contains(type) {
                sends.append(PipeSend(fd: fd, data: owned.bytes))
            } else {
                Glibc.close(fd)  // the marker, or a type we never offered: nothing
            }
        }
        if deck_wlr_clipboard_owns(handle) == 0 { owned = nil }
        let serial = deck_wlr_clipboard_selection_serial(handle)
        guard serial != seenSerial else { return }
        seenSerial = serial
        selectionChanged(handle)
    }

    /// A new selection replaces a read still under way (the newest is what a viewer wants); ours, an empty one,
    /// or one nobody follows is not read.
    private func selectionChanged(_ handle: OpaquePointer) {
        reading?.close()
        reading = nil
        let types = (0..<deck_wlr_clipboard_offer_count(handle)).compactMap {
            deck_wlr_clipboard_offer_mime(handle, $0).map { String(cString: $0) }
        }
        guard !types.contains(Self.ownMarker), !types.isEmpty, hasFollowers else { return }
        guard let chosen = Self.choose(types) else {
            return finish(.unreadable("the app offers neither text nor a PNG"))
        }
        let fd = chosen.withCString { deck_wlr_clipboard_receive(handle, $0) }
        guard fd >= 0 else { return finish(.unreadable("no pipe for the copy")) }
        reading = PipeRead(fd: fd, kind: chosen == Self.imageType ? .image : .text, now: Date())
    }

    /// Moves the bytes of the read and of every send as far as their pipes take them now.
    private func serviceTransfers() {
        if var read = reading {
            switch read.step() {
            case .more: reading = read
            case .done(let copy): finish(copy)
            }
        }
        sends = sends.compactMap { transfer in
            var transfer = transfer
            return transfer.step() ? transfer : nil
        }
    }

    /// Reads and sends past their deadlines are given up.
    private func expire(now: Date) {
        if let read = reading, read.deadline < now || read.started.addingTimeInterval(Self.longestRead) < now {
            read.close()
            finish(
                read.size > ClipboardRules.limit(of: read.kind)
                    ? .tooLarge(read.kind, size: read.size)
                    : .unreadable("the app that copied did not hand the data over"))
        }
        sends = sends.filter { transfer in
            if transfer.deadline >= now { return true }
            transfer.close()
            return false
        }
    }

    /// Every follower reads `copy`; the read is over.
    private func finish(_ copy: ClipboardCopy) {
        reading = nil
        for follower in shared.withLock({ Array($0.followers.values) }) { follower.yield(copy) }
    }

    /// Sleeps until the Wayland socket (when given), the wake-up pipe or a transfer's pipe is ready, or the nearest
    /// deadline; whether the Wayland socket has something to read.
    @discardableResult
    private func sleep(wayland: Int32?) -> Bool {
        var fds = [pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
        if let wayland { fds.append(pollfd(fd: wayland, events: Int16(POLLIN), revents: 0)) }
        if let reading { fds.append(pollfd(fd: reading.fd, events: Int16(POLLIN), revents: 0)) }
        for transfer in sends { fds.append(pollfd(fd: transfer.fd, events: Int16(POLLOUT), revents: 0)) }
        let deadlines = [reading?.deadline].compactMap { $0 } + sends.map(\.deadline)
        var timeout: Int32 = -1
        if let nearest = deadlines.min() {
            timeout = Int32(max(0, min(60_000, nearest.timeIntervalSinceNow * 1000))) + 1
        }
        if handle == nil, hasFollowers { timeout = 1000 }  // try the compositor again
        _ = poll(&fds, nfds_t(fds.count), timeout)
        var drain = [UInt8](repeating: 0, count: 64)
        while Glibc.read(wake.read, &drain, drain.count) > 0 {}
        return wayland != nil && fds[1].revents != 0
    }

    /// The types content of `kind` is offered as.
    static func offeredTypes(_ kind: ClipboardKind) -> [String] {
        kind == .text ? textTypes : [imageType]
    }

    /// The type to ask for among those offered: text first (an office suite offers a picture of cells beside
    /// their text), then a PNG.
    static func choose(_ offered: [String]) -> String? {
        (textTypes + [imageType]).first { offered.contains($0) }
    }
}

/// One copy being read from the app that made it, through the pipe `receive` gave: past the kind's limit the bytes
/// are only counted, so a copy too large is offered with its real size.
struct PipeRead {
    enum Step {
        case more
        case done(ClipboardCopy)
    }

    let fd: Int32
    let kind: ClipboardKind
    let started: Date
    var received = Data()
    var size = 0
    var deadline: Date

    init(fd: Int32, kind: ClipboardKind, now: Date) {
        self.fd = fd
        self.kind = kind
        started = now
        deadline = now.addingTimeInterval(WlrClipboard.patience)
    }

    /// Reads what the pipe holds now; at EOF the copy, checked by `ClipboardRules`.
    mutating func step() -> Step {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let limit = ClipboardRules.limit(of: kind)
        while true {
            let count = Glibc.read(fd, &chunk, chunk.count)
            if count > 0 {
                size += count
                if size <= limit { received.append(contentsOf: chunk[..<count]) } else { received = Data() }
                deadline = Date().addingTimeInterval(WlrClipboard.patience)
                continue
            }
            if count < 0, errno == EAGAIN || errno == EINTR { return .more }
            close()
            if count < 0 { return .done(.unreadable("the copy's pipe failed")) }
            return .done(Self.copy(kind: kind, bytes: received, size: size))
        }
    }

    func close() { _ = Glibc.close(fd) }

    /// What a whole transfer is, by the rules a device's paste is held to.
    static func copy(kind: ClipboardKind, bytes: Data, size: Int) -> ClipboardCopy {
        if size > ClipboardRules.limit(of: kind) { return .tooLarge(kind, size: size) }
        switch ClipboardRules.content(kind: kind, bytes: bytes) {
        case .success(let content): return .content(content)
        case .failure(.tooLarge(let kind, let size)): return .tooLarge(kind, size: size)
        case .failure(.tooManyPixels(let pixels)): return .tooLarge(.image, size: size, pixels: pixels)
        case .failure(.notPNG): return .unreadable("the copied image is not a PNG file")
        case .failure(.notUTF8): return .unreadable("the copied text is not UTF-8")
        }
    }
}

/// What a device pasted, written to one app that asked for it, as fast as it reads.
struct PipeSend {
    let fd: Int32
    let data: Data
    var offset = 0
    var deadline = Date().addingTimeInterval(WlrClipboard.patience)

    init(fd: Int32, data: Data) {
        self.fd = fd
        self.data = data
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// Writes what the pipe takes now; false once it is over (all written, or the reader gone), the pipe closed.
    mutating func step() -> Bool {
        while offset < data.count {
            let count = data.withUnsafeBytes { raw in
                Glibc.write(fd, raw.baseAddress! + offset, min(data.count - offset, 64 * 1024))
            }
            if count > 0 {
                offset += count
                deadline = Date().addingTimeInterval(WlrClipboard.patience)
                continue
            }
            if count < 0, errno == EAGAIN || errno == EINTR { return true }
            if count < 0, errno == EPIPE { Self.takeBackPipeSignal() }
            break
        }
        close()
        return false
    }

    func close() { _ = Glibc.close(fd) }

    /// Takes the SIGPIPE the failed write left pending on this thread (where it is blocked).
    private static func takeBackPipeSignal() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGPIPE)
        var now = timespec(tv_sec: 0, tv_nsec: 0)
        _ = sigtimedwait(&signals, nil, &now)
    }
}

/// Calls `body` with `strings` as a C array of C strings, valid for the call.
private func withCStrings<Result>(
    _ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result
) -> Result {
    let copies = strings.map { strdup($0) }
    defer { for copy in copies { free(copy) } }
    let pointers = copies.map { UnsafePointer($0) }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}

extension PortalDesktop {
    /// The clipboard of a portal desktop: wlroots' data control when the compositor offers it (its connection
    /// opened now and kept for the host's life), else `.unavailable(noClipboardReason)`.
    public static func clipboard() -> ClipboardAccess {
        WlrClipboard.open()?.access ?? .unavailable(noClipboardReason)
    }

    /// Why this desktop's clipboard is not served (for `doctor`), or nil when the compositor offers data control.
    public static func clipboardUnavailable() -> String? {
        WlrClipboard.isAvailable() ? nil : noClipboardReason
    }
}
