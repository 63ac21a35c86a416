import CDeckShim
import CGio
import Foundation

/// Why a D-Bus call failed.
public enum DBusError: Error, Equatable, Sendable {
    /// No session bus to connect to (`DBUS_SESSION_BUS_ADDRESS` unset or dead); the text is GLib's.
    case noBus(String)
    /// The call reached the bus and failed: the remote error's name (e.g. `org.freedesktop.DBus.Error.Failed`)
    /// and its message.
    case failed(name: String, message: String)
    /// The reply had another shape than the API documents.
    case badReply(String)
    /// A signal we waited for did not arrive in time.
    case timedOut(String)
}

/// The user's session bus through GDBus (DESIGN.md#c-handles: one owner of the `GDBusConnection`). GDBus connections
/// are thread-safe: blocking calls may be made from any thread; signals are read only by `waitForSignal`, on its
/// caller's thread, through a main context of its own.
final class SessionBus: @unchecked Sendable {
    private let connection: OpaquePointer

    /// Connects to the session bus (GLib shares one connection per process; this holds a reference to it).
    init() throws(DBusError) {
        // Without an address GLib would try `dbus-launch --autolaunch` through X11 and leave a bus daemon behind.
        let environment = ProcessInfo.processInfo.environment
        let userBus = environment["XDG_RUNTIME_DIR"].map { "\($0)/bus" }
        guard environment["DBUS_SESSION_BUS_ADDRESS"] != nil || userBus.map(FileManager.default.fileExists) == true
        else { throw .noBus("DBUS_SESSION_BUS_ADDRESS is not set and there is no $XDG_RUNTIME_DIR/bus") }
        var error: UnsafeMutablePointer<GError>?
        guard let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            throw .noBus(Self.take(error))
        }
        // GLib's shared session connection would raise SIGTERM in the host when the bus goes away; the host keeps
        // serving buttons instead, and the next call reports the bus as gone.
        g_dbus_connection_set_exit_on_close(connection, 0)
        self.connection = connection
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(connection)) }

    /// Calls `method` and waits for its reply (at most `timeout` seconds). `arguments` is a floating tuple (from
    /// the shim's `deck_gv_*`), which the call consumes; nil for none.
    @discardableResult
    func call(
        _ destination: String, _ path: String, _ interface: String, _ method: String, _ arguments: OpaquePointer? = nil,
        timeout: Double = 10
    ) throws(DBusError) -> Variant {
        var error: UnsafeMutablePointer<GError>?
        let reply = g_dbus_connection_call_sync(
            connection, destination, path, interface, method, arguments, nil, G_DBUS_CALL_FLAGS_NONE,
            gint(timeout * 1000), nil, &error)
        guard let reply else { throw Self.failure(error) }
        return Variant(owning: reply)
    }

    /// Calls a method whose reply is one file descriptor (`(h)`); returns it, owned by the caller.
    func callForDescriptor(
        _ destination: String, _ path: String, _ interface: String, _ method: String, _ arguments: OpaquePointer?
    ) throws(DBusError) -> Int32 {
        var error: UnsafeMutablePointer<GError>?
        var descriptors: UnsafeMutablePointer<GUnixFDList>?
        let reply = g_dbus_connection_call_with_unix_fd_list_sync(
            connection, destination, path, interface, method, arguments, nil, G_DBUS_CALL_FLAGS_NONE, 10_000, nil,
            &descriptors, nil, &error)
        guard let reply else { throw Self.failure(error) }
        let answer = Variant(owning: reply)
        defer { if let descriptors { g_object_unref(descriptors) } }
        guard answer.isOfType("(h)"), let descriptors else { throw .badReply("\(method) sent no descriptor") }
        // g_unix_fd_list_get duplicates the descriptor: the list keeps (and closes) its own.
        let descriptor = g_unix_fd_list_get(descriptors, g_variant_get_handle(answer.child(0).raw), &error)
        guard descriptor >= 0 else { throw Self.failure(error) }
        return descriptor
    }

    /// Subscribes `callback` to the signals of `interface` on `path` sent by `sender` (only `member`, and only
    /// those whose first argument is `arg0`, when given); they are delivered in the main context that is the calling
    /// thread's default now (`BusLoop.run`).
    @discardableResult
    func subscribe(
        sender: String, path: String, interface: String, member: String? = nil, arg0: String? = nil,
        callback: GDBusSignalCallback, userData: UnsafeMutableRawPointer
    ) -> guint {
        g_dbus_connection_signal_subscribe(
            connection, sender, interface, member, path, arg0, G_DBUS_SIGNAL_FLAGS_NONE, callback, userData, nil)
    }

    /// The GDBus connection, for exporting objects (`StatusNotifier`); it stays owned by this value.
    var raw: OpaquePointer { connection }

    /// This connection's unique name on the bus (`:1.42`).
    var uniqueName: String { g_dbus_connection_get_unique_name(connection).map { String(cString: $0) } ?? "" }

    /// A property's value, through org.freedesktop.DBus.Properties.Get.
    func property(_ destination: String, _ path: String, _ interface: String, _ name: String) throws(DBusError)
        -> Variant
    {
        let reply = try call(
            destination, path, "org.freedesktop.DBus.Properties", "Get", deck_gv_two_strings(interface, name))
        return reply.child(0).unboxed
    }

    /// Whether some process owns `name` on the bus now.
    func hasOwner(_ name: String) -> Bool {
        guard
            let reply = try? call(
                "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
                deck_gv_string(name), timeout: 2)
        else { return false }
        return reply.child(0).boolean
    }

    /// Subscribes to one signal of `path`, runs `trigger` (the call that makes it come), then waits up to
    /// `timeout` seconds for the signal and returns its arguments. The subscription lives only in this call.
    func waitForSignal(
        sender: String, path: String, interface: String, member: String, timeout: Double,
        after trigger: () throws(DBusError) -> Void
    ) throws(DBusError) -> Variant {
        // GDBus hands signals to the main context that was the thread's default when it subscribed: a private one,
        // iterated here, so no GLib main loop has to run anywhere else in the host.
        let context = g_main_context_new()
        g_main_context_push_thread_default(context)
        defer {
            g_main_context_pop_thread_default(context)
            g_main_context_unref(context)
        }
        let inbox = SignalInbox()
        // passUnretained: the inbox outlives the subscription, which is removed before this function returns.
        let id = g_dbus_connection_signal_subscribe(
            connection, sender, interface, member, path, nil, G_DBUS_SIGNAL_FLAGS_NONE,
            { _, _, _, _, _, parameters, userData in
                guard let userData, let parameters else { return }
                let inbox = Unmanaged<SignalInbox>.fromOpaque(userData).takeUnretainedValue()
                if inbox.arguments == nil { inbox.arguments = Variant(owning: g_variant_ref(parameters)) }
            }, Unmanaged.passUnretained(inbox).toOpaque(), nil)
        defer {
            g_dbus_connection_signal_unsubscribe(connection, id)
            // Let GDBus finish with the subscription's pending idle callbacks before the inbox goes.
            while g_main_context_iteration(context, 0) != 0 {}
        }
        try trigger()
        let deadline = Date().addingTimeInterval(timeout)
        while inbox.arguments == nil && Date() < deadline {
            if g_main_context_iteration(context, 0) == 0 { usleep(2000) }
        }
        guard let arguments = inbox.arguments else { throw .timedOut("\(interface).\(member) on \(path)") }
        return arguments
    }

    private static func failure(_ error: UnsafeMutablePointer<GError>?) -> DBusError {
        guard let error else { return .failed(name: "", message: "unknown error") }
        var name = ""
        if let remote = g_dbus_error_get_remote_error(error) {
            name = String(cString: remote)
            g_free(remote)
            g_dbus_error_strip_remote_error(error)
        }
        return .failed(name: name, message: take(error))
    }

    /// The error's message; frees the error.
    private static func take(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "unknown error" }
        defer { g_error_free(error) }
        return String(cString: error.pointee.message)
    }
}

/// Where a signal's arguments land; touched only by `waitForSignal`'s thread (the callback runs inside its
/// `g_main_context_iteration`).
private final class SignalInbox {
    var arguments: Variant?
}
