import CX11
import CXDamage
import DeckDesktop
import DeckKit
import Foundation
import Glibc
import Synchronization

/// The X11 clipboard (DESIGN.md#clipboard), one selection of it (CLIPBOARD; PRIMARY, the selected text, is a
/// second instance for devices whose user asked for it): one thread with its own X connection that owns the
/// selection for what a device pasted and answers other apps' requests for it itself (TARGETS, UTF8_STRING and
/// text/plain;charset=utf-8, or image/png; INCR above one request's size), and, only while someone follows,
/// hears XFixes' new-owner events and reads each copy (no polling). The thread sleeps in poll(2) on the X
/// socket and a wake-up pipe.
///
/// `@unchecked Sendable`: `commands` is behind its mutex and the pipe's descriptors never change; everything
/// else (the connection, the owned content, the read, the transfers, the followers) is touched only on the
/// clipboard's thread.
final class X11Clipboard: @unchecked Sendable {
    enum Command {
        case write(ClipboardContent, @Sendable (ActionResult) -> Void)
        /// Followers are told once the server reports new owners to us (`listening`).
        case follow(UInt64, AsyncStream<ClipboardCopy>.Continuation, listening: DispatchSemaphore)
        case unfollow(UInt64)
        case focused(@Sendable ([String]) -> Void)
    }

    private let displayName: String?
    /// The selection's atom name: CLIPBOARD or PRIMARY.
    private let selection: String
    private let commands = Mutex<(queue: [Command], started: Bool, serial: UInt64)>(([], false, 0))
    private let wake: (read: Int32, write: Int32)

    private var connection: XClipboardConnection?
    private var lastOpenAttempt = Date.distantPast
    private var followers: [UInt64: AsyncStream<ClipboardCopy>.Continuation] = [:]
    private var owned: ClipboardContent?
    private var reading: SelectionRead?
    private var transfers: [SelectionTransfer] = []

    init(displayName: String?, selection: String = "CLIPBOARD") {
        self.displayName = displayName
        self.selection = selection
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        }
        wake = (fds[0], fds[1])
    }

    /// The seam's value over this clipboard.
    var access: ClipboardAccess {
        ClipboardAccess(
            write: { content in
                await withCheckedContinuation { done in self.send(.write(content) { done.resume(returning: $0) }) }
            },
            follow: { self.follow() },
            focusedWindowClass: {
                await withCheckedContinuation { done in self.send(.focused { done.resume(returning: $0) }) }
            })
    }

    private func follow() -> ClipboardFeed {
        let id = commands.withLock { state -> UInt64 in
            state.serial += 1
            return state.serial
        }
        let (feed, continuation) = ClipboardFeed.make { self.send(.unfollow(id)) }
        // Waits (a round trip, the display opened on first use) until the server reports owners to us, so a copy
        // made once the caller goes on (a viewer told `screenStarted`) is seen; a display that does not answer
        // costs a second at most.
        let listening = DispatchSemaphore(value: 0)
        send(.follow(id, continuation, listening: listening))
        _ = listening.wait(timeout: .now() + 1)
        return feed
    }

    /// Queues a command and wakes the thread (starting it on first use).
    private func send(_ command: Command) {
        let start = commands.withLock { state -> Bool in
            state.queue.append(command)
            defer { state.started = true }
            return !state.started
        }
        if start {
            let thread = Thread { self.run() }
            thread.name = selection == "PRIMARY" ? "touchdeck.primary" : "touchdeck.clipboard"
            thread.start()
        }
        var byte: UInt8 = 1
        _ = Glibc.write(wake.write, &byte, 1)
    }

    private func run() {
        while true {
            openIfNeeded()
            for command in commands.withLock({ state in
                defer { state.queue = [] }
                return state.queue
            }) {
                handle(command)
            }
            drainEvents()
            expire(now: Date())
            sleep()
        }
    }

    private func openIfNeeded() {
        if connection?.isBroken == true {
            connection = nil
            (owned, reading, transfers) = (nil, nil, [])
        }
        guard connection == nil, Date().timeIntervalSince(lastOpenAttempt) > 1 else { return }
        lastOpenAttempt = Date()
        connection = XDisplay(name: displayName).flatMap { XClipboardConnection($0, selection: selection) }
        if !followers.isEmpty { connection?.followOwners(true) }
    }

    private func handle(_ command: Command) {
        switch command {
        case .write(let content, let done):
            guard let connection else { return done(.failed("no display")) }
            owned = content
            let held = connection.own()
            if !held { owned = nil }
            done(held ? .ok : .failed("another app took the clipboard at once"))
        case .follow(let id, let continuation, let listening):
            followers[id] = continuation
            if followers.count == 1 { connection?.followOwners(true) }
            if let connection { XSync(connection.display, 0) }
            listening.signal()
        case .unfollow(let id):
            followers[id] = nil
            guard followers.isEmpty else { return }
            connection?.followOwners(false)
            reading = nil  // nothing read is kept once nobody follows
        case .focused(let done): done(connection?.focusedWindowClass() ?? [])
        }
    }

    private func drainEvents() {
        guard let connection, !connection.isBroken else { return }
        XFlush(connection.display)
        var event = XEvent()
        while !connection.isBroken, XPending(connection.display) > 0 {
            XNextEvent(connection.display, &event)
            dispatch(&event, on: connection)
        }
    }

    private func dispatch(_ event: inout XEvent, on connection: XClipboardConnection) {
        switch event.type {
        case connection.fixesBase + XFixesSelectionNotify:
            let notice = withUnsafePointer(to: &event) {
                $0.withMemoryRebound(to: XFixesSelectionNotifyEvent.self, capacity: 1) { $0.pointee }
            }
            ownerChanged(notice.owner, time: notice.selection_timestamp, on: connection)
        case SelectionNotify: converted(event.xselection, on: connection)
        case SelectionRequest: serve(event.xselectionrequest, on: connection)
        case SelectionClear:
            if event.xselectionclear.selection == connection.atoms.selection { owned = nil }
        case PropertyNotify: propertyChanged(event.xproperty, on: connection)
        default: break
        }
    }

    /// Sleeps until the X socket or the pipe has something, or the nearest deadline.
    private func sleep() {
        var fds = [pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
        if let connection { fds.append(pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0)) }
        let deadlines = [reading?.deadline].compactMap { $0 } + transfers.map(\.deadline)
        var timeout: Int32 = -1
        if let nearest = deadlines.min() {
            timeout = Int32(max(0, min(60_000, nearest.timeIntervalSinceNow * 1000))) + 1
        }
        if connection == nil, !followers.isEmpty { timeout = 1000 }  // try the display again
        _ = poll(&fds, nfds_t(fds.count), timeout)
        var drain = [UInt8](repeating: 0, count: 64)
        while read(wake.read, &drain, drain.count) > 0 {}
    }

    /// Reads past their deadline are given up; transfers whose requestor stopped taking chunks are dropped.
    private func expire(now: Date) {
        if let reading, reading.deadline < now {
            finish(.unreadable("the app that copied did not hand the data over"))
        }
        for transfer in transfers where transfer.deadline < now {
            connection?.watchProperties(of: transfer.requestor, false)
        }
        transfers.removeAll { $0.deadline < now }
    }

    /// Every follower reads `copy`; the read is over.
    private func finish(_ copy: ClipboardCopy) {
        reading = nil
        for follower in followers.values { follower.yield(copy) }
    }
}

// Reading another app's copy.
extension X11Clipboard {
    private func ownerChanged(_ owner: Window, time: Time, on connection: XClipboardConnection) {
        guard !followers.isEmpty, owner != 0, owner != connection.window else { return }
        // A newer copy replaces a read still under way: the newest is what a viewer wants.
        XDeleteProperty(connection.display, connection.window, connection.atoms.inbox)
        reading = SelectionRead(time: time, now: Date())
        connection.convert(to: connection.atoms.targets, time: time)
    }

    private func converted(_ event: XSelectionEvent, on connection: XClipboardConnection) {
        let atoms = connection.atoms
        guard var read = reading, event.requestor == connection.window, event.selection == atoms.selection else {
            return
        }
        read.deadline = Date().addingTimeInterval(SelectionRead.patience)
        switch read.stage {
        case .targets:
            let offered =
                event.property == 0 ? nil : connection.read(atoms.inbox, of: connection.window, delete: true)
            let targets = offered?.items.map { Atom($0) } ?? []
            guard let target = SelectionRead.choose(targets, refused: event.property == 0, atoms: atoms) else {
                return finish(.unreadable("the app offers neither text nor a PNG"))
            }
            read.stage = .data(target: target)
            reading = read
            connection.convert(to: target, time: read.time)
        case .data(let target):
            guard event.property != 0, let peek = connection.peek(atoms.inbox, of: connection.window) else {
                return finish(.unreadable("the app refused to hand the data over"))
            }
            receive(target, peek, read, on: connection)
        case .incremental: break
        }
    }

    private func receive(
        _ target: Atom, _ peek: (type: Atom, format: Int32, bytes: Int), _ read: SelectionRead,
        on connection: XClipboardConnection
    ) {
        let (atoms, kind) = (connection.atoms, SelectionRead.kind(of: target, atoms: connection.atoms))
        if peek.type == atoms.incr {
            // Deleting the INCR property asks for the first chunk.
            XDeleteProperty(connection.display, connection.window, atoms.inbox)
            var next = read
            next.stage = .incremental(target: target, received: Data(), size: 0)
            reading = next
            return
        }
        guard peek.bytes <= ClipboardRules.limit(of: kind) else {
            XDeleteProperty(connection.display, connection.window, atoms.inbox)
            return finish(.tooLarge(kind, size: peek.bytes))
        }
        let value = connection.read(atoms.inbox, of: connection.window, delete: true)?.bytes ?? Data()
        finish(SelectionRead.copy(of: value, target: target, atoms: atoms))
    }

    private func propertyChanged(_ event: XPropertyEvent, on connection: XClipboardConnection) {
        let atoms = connection.atoms
        if event.window == connection.window, event.atom == atoms.inbox,
            event.state == XClipboardConnection.propertyNewValue, var read = reading,
            case .incremental(let target, var received, var size) = read.stage
        {
            let chunk = connection.read(atoms.inbox, of: connection.window, delete: true)?.bytes ?? Data()
            let kind = SelectionRead.kind(of: target, atoms: atoms)
            let limit = ClipboardRules.limit(of: kind)
            guard !chunk.isEmpty else {
                if size > limit { return finish(.tooLarge(kind, size: size)) }
                return finish(SelectionRead.copy(of: received, target: target, atoms: atoms))
            }
            size += chunk.count
            // Past the limit the bytes are only counted, and dropped at once.
            received = size > limit ? Data() : received + chunk
            read.stage = .incremental(target: target, received: received, size: size)
            read.deadline = Date().addingTimeInterval(SelectionRead.patience)
            reading = read
        } else if event.state == XClipboardConnection.propertyDelete {
            nextChunk(to: event.window, property: event.atom, on: connection)
        }
    }
}

// Serving what a device pasted.
extension X11Clipboard {
    private func serve(_ request: XSelectionRequestEvent, on connection: XClipboardConnection) {
        let atoms = connection.atoms
        // A requestor from before ICCCM 2 names no property: the target is the property then.
        let property = request.property == 0 ? request.target : request.property
        guard request.selection == atoms.selection, request.owner == connection.window, let owned else {
            return connection.notify(request, property: 0)
        }
        let offered = atoms.offered(owned.kind)
        if request.target == atoms.targets {
            connection.write(items: offered.map { UInt($0) }, type: atoms.atom, to: property, of: request.requestor)
        } else if offered.dropFirst().contains(request.target) {
            let bytes = owned.bytes
            if bytes.count <= connection.chunkBytes {
                connection.write(bytes, type: request.target, to: property, of: request.requestor)
            } else {
                connection.watchProperties(of: request.requestor, true)
                connection.write(items: [UInt(bytes.count)], type: atoms.incr, to: property, of: request.requestor)
                transfers.append(
                    SelectionTransfer(
                        requestor: request.requestor, property: property, type: request.target, data: bytes,
                        deadline: Date().addingTimeInterval(SelectionRead.patience)))
            }
        } else {
            return connection.notify(request, property: 0)
        }
        connection.notify(request, property: property)
    }

    /// The requestor took the last chunk (deleted the property): the next one, or the empty one that ends it.
    private func nextChunk(to requestor: Window, property: Atom, on connection: XClipboardConnection) {
        guard let index = transfers.firstIndex(where: { $0.requestor == requestor && $0.property == property })
        else { return }
        var transfer = transfers[index]
        let end = min(transfer.offset + connection.chunkBytes, transfer.data.count)
        let chunk = transfer.data.subdata(in: transfer.offset..<end)
        connection.write(chunk, type: transfer.type, to: property, of: requestor)
        if chunk.isEmpty {
            connection.watchProperties(of: requestor, false)
            transfers.remove(at: index)
            return
        }
        transfer.offset = end
        transfer.deadline = Date().addingTimeInterval(SelectionRead.patience)
        transfers[index] = transfer
    }
}
