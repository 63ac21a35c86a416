import CGio
import Foundation
import Synchronization

/// Questions for the computer's user as desktop notifications with buttons (org.freedesktop.Notifications:
/// `GetCapabilities`, `Notify` with actions, the `ActionInvoked` and `NotificationClosed` signals,
/// `CloseNotification`), for the host's "Allow once / Always allow / Deny" (docs/ARCHITECTURE.md "Asking on the
/// computer"). The calls block (run them off the actor); the signals arrive on `BusLoop`'s thread.
public final class DesktopNotifications: @unchecked Sendable {
    /// What became of one question.
    public enum Answer: Equatable, Sendable {
        /// The user pressed the button with this key.
        case action(String)
        /// The notification was closed (dismissed, expired or withdrawn) without a button.
        case closed
    }

    static let name = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"

    private struct Waiting {
        var handlers: [UInt32: @Sendable (Answer) -> Void] = [:]
        /// Questions whose `Notify` has not returned yet: a quick answer can come before the id is known.
        var sending = 0
        /// Answers that came while a `Notify` was in flight, by id (others' notifications too, so only a few).
        var early: [(UInt32, Answer)] = []
    }

    private let bus: SessionBus
    private let waiting = Mutex(Waiting())

    /// Connects to the session bus and starts listening for answers; fails without a session bus.
    public init() throws(DBusError) {
        bus = try SessionBus()
        // The loop holds the value for the life of the process (the daemon makes one).
        let listener = Unmanaged.passRetained(self).toOpaque()
        BusLoop.shared.run { [bus] in
            _ = bus.subscribe(
                sender: Self.name, path: Self.path, interface: Self.name,
                callback: { _, _, _, _, signal, parameters, userData in
                    guard let signal, let parameters, let userData else { return }
                    let notifications = Unmanaged<DesktopNotifications>.fromOpaque(userData).takeUnretainedValue()
                    notifications.received(String(cString: signal), Variant(owning: g_variant_ref(parameters)))
                }, userData: listener)
        }
    }

    /// Whether the notification server shows buttons (`GetCapabilities` lists "actions"); false without one.
    public func offersActions() -> Bool {
        guard let reply = try? bus.call(Self.name, Self.path, Self.name, "GetCapabilities", timeout: 2),
            reply.isOfType("(as)")
        else { return false }
        let list = reply.child(0)
        return (0..<Int(g_variant_n_children(list.raw))).contains { list.child($0).string == "actions" }
    }

    /// Shows a notification that stays until answered, with one button per `(key, label)`; `answered` is called
    /// once, on the listener's thread, unless the question is withdrawn first. Returns the notification's id.
    public func ask(
        summary: String, body: String, actions: [(key: String, label: String)],
        answered: @escaping @Sendable (Answer) -> Void
    ) throws(DBusError) -> UInt32 {
        waiting.withLock { $0.sending += 1 }
        let id: UInt32
        do {
            id = try bus.call(
                Self.name, Self.path, Self.name, "Notify",
                Self.notifyArguments(summary: summary, body: body, actions: actions), timeout: 5
            ).child(0).uint32
        } catch {
            waiting.withLock { $0.sending -= 1 }
            throw error
        }
        let early = waiting.withLock { state -> Answer? in
            state.sending -= 1
            let early = state.early.first { $0.0 == id }?.1
            if state.sending == 0 { state.early = [] }
            if early == nil { state.handlers[id] = answered }
            return early
        }
        if let early { answered(early) }
        return id
    }

    /// Closes the question unanswered; its `answered` is not called.
    public func withdraw(_ id: UInt32) {
        _ = waiting.withLock { $0.handlers.removeValue(forKey: id) }
        var child: OpaquePointer? = g_variant_new_uint32(id)
        _ = try? bus.call(Self.name, Self.path, Self.name, "CloseNotification", g_variant_new_tuple(&child, 1))
    }

    /// `ActionInvoked (u id, s key)` or `NotificationClosed (u id, u reason)`, on the listener's thread.
    private func received(_ signal: String, _ arguments: Variant) {
        let answer: Answer
        switch signal {
        case "ActionInvoked" where arguments.isOfType("(us)"): answer = .action(arguments.child(1).string)
        case "NotificationClosed" where arguments.isOfType("(uu)"): answer = .closed
        default: return
        }
        let id = arguments.child(0).uint32
        let handler = waiting.withLock { state -> (@Sendable (Answer) -> Void)? in
            if let handler = state.handlers.removeValue(forKey: id) { return handler }
            if state.sending > 0 { state.early = (state.early + [(id, answer)]).suffix(16) }
            return nil
        }
        handler?(answer)
    }

    /// `(susssasa{sv}i)`: the app, no notification replaced, its icon, the text, the buttons, critical urgency
    /// (it stays until answered) and no expiry.
    private static func notifyArguments(summary: String, body: String, actions: [(key: String, label: String)])
        -> OpaquePointer?
    {
        let words = actions.flatMap { [$0.key, $0.label] }
        let copies = words.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        let strv = copies.map { UnsafePointer($0) }.withUnsafeBufferPointer {
            g_variant_new_strv($0.baseAddress, gssize($0.count))
        }
        let entryType = g_variant_type_new("{sv}")
        defer { g_variant_type_free(entryType) }
        var hints: [OpaquePointer?] = [
            g_variant_new_dict_entry(g_variant_new_string("urgency"), g_variant_new_variant(g_variant_new_byte(2))),
            g_variant_new_dict_entry(
                g_variant_new_string("desktop-entry"), g_variant_new_variant(g_variant_new_string("touchdeck"))),
        ]
        let hintArray = g_variant_new_array(entryType, &hints, gsize(hints.count))
        var children: [OpaquePointer?] = [
            g_variant_new_string("TouchDeck"), g_variant_new_uint32(0), g_variant_new_string("touchdeck"),
            g_variant_new_string(summary), g_variant_new_string(body), strv, hintArray, g_variant_new_int32(0),
        ]
        return g_variant_new_tuple(&children, gsize(children.count))
    }
}
