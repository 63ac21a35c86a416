import CDeckShim
import CGio
import DeckDesktop
import DeckKit
import Foundation
import Glibc
import Synchronization

/// GNOME's clipboard through Mutter's RemoteDesktop sessions (DESIGN.md#clipboard; no dialog): each session
/// input goes through (a viewing's capture, else the input-only one) has the clipboard enabled
/// (`EnableClipboard`) and its signals heard on `BusLoop`'s thread. What a device pasted is offered with
/// `SetSelection` on the newest such session and handed over when an app asks (`SelectionTransfer` →
/// `SelectionWrite`, the bytes into the descriptor, `SelectionWriteDone`); while someone follows, another app's
/// copy (`SelectionOwnerChanged`, the session not the owner) is read with `SelectionRead`. When a session ends,
/// Mutter's clipboard manager keeps a copy of what the host offered through it, so apps can still paste it.
///
/// Threads: D-Bus calls and the state on `state` (a queue of its own); descriptors are read on `reads` (one
/// read at a time: Mutter refuses parallel ones) and written on `writes`; signals only hop to `state`.
/// `@unchecked Sendable`: the state is touched only on `state`, the followers behind their mutex, each
/// attachment's `settling` only on `BusLoop`'s thread.
final class MutterClipboard: @unchecked Sendable {
    static let interface = "org.gnome.Mutter.RemoteDesktop.Session"
    /// How long the other side of a descriptor may stay silent.
    static let patience = 3.0

    /// A session the clipboard is enabled on, and its signal subscription.
    final class Attachment: @unchecked Sendable {
        let session: MutterSession
        var subscription: guint = 0
        /// Until `EnableClipboard`'s own report of the current owner has passed (touched on `BusLoop`'s thread).
        var settling = true
        init(_ session: MutterSession) { self.session = session }
    }

    /// One read of another app's copy, cancelled when a newer copy comes or nobody follows any more.
    final class Read: Sendable {
        let cancel = CancelPipe()
    }

    private let state = DispatchQueue(label: "touchdeck.mutter-clipboard")
    private let reads = DispatchQueue(label: "touchdeck.mutter-clipboard.read")
    private let writes = DispatchQueue(label: "touchdeck.mutter-clipboard.write", attributes: .concurrent)
    private let followers = Mutex<(serial: UInt64, all: [UInt64: AsyncStream<ClipboardCopy>.Continuation])>(
        (0, [:]))
    /// Whose input session the clipboard uses when no viewing's session is attached; set once, before use.
    weak var desktop: MutterDesktop?

    private var bus: SessionBus?
    private var attached: [Attachment] = []
    /// What a device pasted last: served to every app that asks while the host owns the clipboard.
    private var owned: ClipboardContent?
    /// The clipboard was just emptied (its owner went away). Mutter's clipboard manager then puts back the copy
    /// it kept of the last owner's data, in one type: that is not a new copy, and is not read. It comes when an
    /// app that copied quits, when GTK replaces its own copy (it empties the clipboard first), and when a
    /// session that offered what a device pasted ends (the host's own content handed back).
    private var emptied = false
    private var reading: Read?

    /// The input session now (a viewing's capture, else the input-only one, opened when missing), from the
    /// desktop's queue.
    private func inputSession() -> MutterSession? {
        guard let desktop else { return nil }
        return desktop.sessions.queue.sync { desktop.inputSession() }
    }

    /// The seam's value. The focused window cannot be asked for: Mutter shows it only to GNOME Shell's
    /// extensions, so the paste chord is Ctrl+V (a terminal pastes with Ctrl+Shift+V).
    var access: ClipboardAccess {
        ClipboardAccess(
            write: { content in
                await withCheckedContinuation { done in
                    self.state.async { done.resume(returning: self.write(content)) }
                }
            },
            follow: { self.follow() },
            focusedWindowClass: { [] })
    }

    // MARK: Sessions

    /// A session input goes through started (a viewing's capture): the clipboard is enabled on it before the
    /// viewer hears `screenStarted`, so a follow needs no call. Blocks for two round trips to Mutter.
    func attach(_ session: MutterSession) {
        state.sync { _ = attachNow(session) }
    }

    /// A session ended: its subscription goes.
    func detach(_ session: MutterSession) {
        state.async { self.prune(also: session) }
    }

    /// On `state`: enables the clipboard on `session` unless it is already; false when Mutter refuses.
    private func attachNow(_ session: MutterSession) -> Bool {
        prune()
        if attached.contains(where: { $0.session === session }) { return true }
        guard let bus = openBus() else { return false }
        let attachment = Attachment(session)
        let target = Unmanaged.passRetained(SignalTarget(clipboard: self, attachment: attachment)).toOpaque()
        attachment.subscription = BusLoop.shared.run {
            g_dbus_connection_signal_subscribe(
                bus.raw, MutterSession.remoteDesktop, Self.interface, nil, session.path, nil,
                G_DBUS_SIGNAL_FLAGS_NONE,
                { _, _, _, _, signal, parameters, userData in
                    guard let signal, let parameters, let userData else { return }
                    Unmanaged<SignalTarget>.fromOpaque(userData).takeUnretainedValue()
                        .received(String(cString: signal), Variant(owning: g_variant_ref(parameters)))
                }, target, { Unmanaged<SignalTarget>.fromOpaque($0!).release() })
        }
        do {
            try bus.call(
                MutterSession.remoteDesktop, session.path, Self.interface, "EnableClipboard",
                deck_gv_no_options(), timeout: 5)
        } catch {
            g_dbus_connection_signal_unsubscribe(bus.raw, attachment.subscription)
            return false
        }
        // Mutter reports the current owner before it answers: that report has reached the loop by now, and is
        // dropped; everything after is a new copy.
        BusLoop.shared.run { attachment.settling = false }
        attached.append(attachment)
        return true
    }

    /// On `state`: forgets sessions that ended (and `also`).
    private func prune(also gone: MutterSession? = nil) {
        for attachment in attached where attachment.session.isStopped || attachment.session === gone {
            if let bus { g_dbus_connection_signal_unsubscribe(bus.raw, attachment.subscription) }
        }
        attached.removeAll { $0.session.isStopped || $0.session === gone }
    }

    /// On `state`: the newest session the clipboard is enabled on; its owner reports are the ones followed.
    private var primary: Attachment? { attached.last { !$0.session.isStopped } }

    private func openBus() -> SessionBus? {
        if bus == nil { bus = try? SessionBus() }
        return bus
    }

    // MARK: Writing

    /// On `state`: offers `content` through the input session now; returns once Mutter made it the clipboard.
    private func write(_ content: ClipboardContent) -> ActionResult {
        guard let session = inputSession(), attachNow(session), let bus else { return .failed("no display") }
        owned = content
        do {
            try bus.call(
                MutterSession.remoteDesktop, session.path, Self.interface, "SetSelection",
                Self.mimeTypes(MutterClipboardFormats.offered(content.kind)), timeout: 5)
            return .ok
        } catch {
            owned = nil
            return .failed("GNOME did not take the clipboard")
        }
    }

    /// On `state`: an app asks for what the host offered as `mime` (Mutter's serial): written on `writes`.
    private func transfer(_ mime: String, serial: UInt32, on path: String) {
        guard let bus else { return }
        let bytes = owned.flatMap { MutterClipboardFormats.offered($0.kind).contains(mime) ? $0.bytes : nil }
        writes.async {
            var done = false
            if let bytes,
                let fd = try? bus.callForDescriptor(
                    MutterSession.remoteDesktop, path, Self.interface, "SelectionWrite", Self.serial(serial))
            {
                done = DescriptorTransfer.write(bytes, to: fd, patience: Self.patience)
                close(fd)
            }
            _ = try? bus.call(
                MutterSession.remoteDesktop, path, Self.interface, "SelectionWriteDone",
                Self.serial(serial, success: done), timeout: 5)
        }
    }

    // MARK: Following

    private func follow() -> ClipboardFeed {
        let id = followers.withLock { state -> UInt64 in
            state.serial += 1
            return state.serial
        }
        let (feed, continuation) = ClipboardFeed.make { self.unfollow(id) }
        followers.withLock { $0.all[id] = continuation }
        // A viewing's session is attached already; without one (none runs) the input session is.
        state.async {
            if self.primary == nil, let session = self.inputSession() { _ = self.attachNow(session) }
        }
        return feed
    }

    private func unfollow(_ id: UInt64) {
        let none = followers.withLock { state -> Bool in
            state.all[id] = nil
            return state.all.isEmpty
        }
        guard none else { return }
        state.async {
            self.reading?.cancel.fire()
            self.reading = nil  // nothing read is kept once nobody follows
        }
    }

    private var isFollowed: Bool { followers.withLock { !$0.all.isEmpty } }

    /// On `state`: a signal of `attachment`'s session.
    fileprivate func received(_ signal: String, _ arguments: Variant, from attachment: Attachment) {
        switch signal {
        case "SelectionTransfer" where arguments.isOfType("(su)"):
            transfer(arguments.child(0).string, serial: arguments.child(1).uint32, on: attachment.session.path)
        case "SelectionOwnerChanged" where arguments.isOfType("(a{sv})"):
            guard attachment === primary else { return }
            let options = arguments.child(0)
            let offered = Self.strings(options, "mime-types") ?? []
            let restored = emptied && offered.count == 1
            emptied = offered.isEmpty
            guard isFollowed, !offered.isEmpty, !restored, !Self.boolean(options, "session-is-owner") else { return }
            ownerChanged(offered, on: attachment.session.path)
        default: break
        }
    }

    /// On `state`: another app copied; a newer copy replaces a read still under way.
    private func ownerChanged(_ offered: [String], on path: String) {
        reading?.cancel.fire()
        reading = nil
        guard let bus else { return }
        guard let choice = MutterClipboardFormats.choose(offered) else {
            return deliver(.unreadable("the app offers neither text nor a PNG"))
        }
        let (mime, encoding) = choice
        let read = Read()
        reading = read
        let limits = MutterClipboardFormats.limits(encoding)
        reads.async {
            let outcome: DescriptorTransfer.ReadOutcome
            do {
                let fd = try Self.selectionRead(mime, on: path, bus: bus, unless: read)
                outcome = DescriptorTransfer.read(
                    fd, keep: limits.keep, count: limits.count, patience: Self.patience,
                    cancel: read.cancel.descriptor)
                close(fd)  // an unfinished transfer ends here: Mutter sees the pipe broken
            } catch {
                outcome = read.cancel.hasFired ? .cancelled : .failed("\(error)")
            }
            guard let copy = MutterClipboardFormats.copy(outcome, encoding) else { return }
            self.state.async {
                guard self.reading === read else { return }
                self.reading = nil
                self.deliver(copy)
            }
        }
    }

    /// On `reads`: `SelectionRead`'s descriptor. Mutter refuses a read while the one before is under way
    /// (LimitsExceeded) and takes a read as given up only when it finds its pipe broken, which it may not yet
    /// right after the host closed its end (Mutter 43.8 refused the read that followed a cancelled one at once):
    /// such a read is asked again every 20 ms, for `patience` at most, unless `read` is cancelled.
    private static func selectionRead(_ mime: String, on path: String, bus: SessionBus, unless read: Read)
        throws(DBusError) -> Int32
    {
        let deadline = Date().addingTimeInterval(patience)
        while true {
            do {
                return try bus.callForDescriptor(
                    MutterSession.remoteDesktop, path, interface, "SelectionRead", deck_gv_string(mime))
            } catch .failed(name: "org.freedesktop.DBus.Error.LimitsExceeded", message: _)
                where Date() < deadline && !read.cancel.hasFired
            {
                usleep(20_000)
            }
        }
    }

    private func deliver(_ copy: ClipboardCopy) {
        for follower in followers.withLock({ Array($0.all.values) }) { follower.yield(copy) }
    }

    // MARK: GVariants

    /// `(a{sv})`: {"mime-types": <as>}.
    private static func mimeTypes(_ types: [String]) -> OpaquePointer? {
        let copies = types.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        let list = copies.map { UnsafePointer($0) }.withUnsafeBufferPointer {
            g_variant_new_strv($0.baseAddress, gssize($0.count))
        }
        let entryType = g_variant_type_new("{sv}")
        defer { g_variant_type_free(entryType) }
        var entries: [OpaquePointer?] = [
            g_variant_new_dict_entry(g_variant_new_string("mime-types"), g_variant_new_variant(list))
        ]
        var children: [OpaquePointer?] = [g_variant_new_array(entryType, &entries, 1)]
        return g_variant_new_tuple(&children, 1)
    }

    /// `(u)`, or `(ub)` with `success`.
    private static func serial(_ serial: UInt32, success: Bool? = nil) -> OpaquePointer? {
        var children: [OpaquePointer?] = [g_variant_new_uint32(serial)]
        if let success { children.append(g_variant_new_boolean(success ? 1 : 0)) }
        return g_variant_new_tuple(&children, gsize(children.count))
    }

    /// The strings at `key` of an `a{sv}`: Mutter sends "mime-types" as `(as)`; `as` is read too.
    static func strings(_ options: Variant, _ key: String) -> [String]? {
        guard let found = g_variant_lookup_value(options.raw, key, nil) else { return nil }
        var list = Variant(owning: found)
        if list.isOfType("(as)") { list = list.child(0) }
        guard list.isOfType("as") else { return nil }
        return (0..<Int(g_variant_n_children(list.raw))).map { list.child($0).string }
    }

    static func boolean(_ options: Variant, _ key: String) -> Bool {
        guard let found = g_variant_lookup_value(options.raw, key, nil) else { return false }
        let value = Variant(owning: found)
        return value.isOfType("b") && value.boolean
    }
}

/// What a subscription's callback reaches: the clipboard (weakly: the subscription may outlive it) and the
/// session's attachment. Released by GDBus when the subscription goes.
private final class SignalTarget: @unchecked Sendable {
    weak var clipboard: MutterClipboard?
    let attachment: MutterClipboard.Attachment

    init(clipboard: MutterClipboard, attachment: MutterClipboard.Attachment) {
        self.clipboard = clipboard
        self.attachment = attachment
    }

    /// On `BusLoop`'s thread: hops to the clipboard's queue, except the owner report `EnableClipboard` makes.
    func received(_ signal: String, _ arguments: Variant) {
        if signal == "SelectionOwnerChanged", attachment.settling { return }
        guard let clipboard else { return }
        clipboard.hop { clipboard.received(signal, arguments, from: self.attachment) }
    }
}

extension MutterClipboard {
    /// Runs `work` on the clipboard's queue.
    fileprivate func hop(_ work: @escaping @Sendable () -> Void) { state.async(execute: work) }
}
