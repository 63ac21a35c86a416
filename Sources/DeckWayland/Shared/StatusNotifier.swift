import CGio
import Foundation
import Synchronization

/// The host's tray icon and menu: a StatusNotifierItem (`org.kde.StatusNotifierItem` on `/StatusNotifierItem`)
/// whose menu is exported with `com.canonical.dbusmenu` on `/MenuBar`, registered with the panel's
/// `org.kde.StatusNotifierWatcher` (KDE, XFCE, Cinnamon, MATE, waybar, GNOME with the AppIndicator extension), and
/// again whenever a watcher appears. Without a watcher nothing is shown and nothing fails. Method calls are served
/// on `BusLoop`'s thread from the last `show`n look; a click on an item calls `clicked` there with its id.
public final class StatusNotifier: @unchecked Sendable {
    /// One menu entry. Ids are the caller's (positive; 0 is the root).
    public struct Item: Equatable, Sendable {
        public enum Kind: Equatable, Sendable {
            case action
            /// Shown, not clickable (a status line).
            case label
            case separator
            /// A check item, ticked or not.
            case check(Bool)
            case submenu([Item])
        }

        public var id: Int32
        public var label: String
        public var kind: Kind

        public init(id: Int32, label: String, kind: Kind = .action) {
            self.id = id
            self.label = label
            self.kind = kind
        }
    }

    /// What the tray shows: the icon (a theme name, a symbolic one for panels), the tooltip and the menu.
    public struct Look: Equatable, Sendable {
        public var icon: String
        public var title: String
        public var status: String
        public var items: [Item]

        public init(icon: String, title: String, status: String, items: [Item]) {
            self.icon = icon
            self.title = title
            self.status = status
            self.items = items
        }
    }

    static let watcher = "org.kde.StatusNotifierWatcher"
    static let itemInterface = "org.kde.StatusNotifierItem"
    static let menuInterface = "com.canonical.dbusmenu"
    static let itemPath = "/StatusNotifierItem"
    static let menuPath = "/MenuBar"

    private struct State {
        var look: Look
        var revision: UInt32 = 1
    }

    private let bus: SessionBus
    private let state: Mutex<State>
    private let clicked: @Sendable (Int32) -> Void
    /// The name the item is known by: `org.kde.StatusNotifierItem-PID-1`.
    public let busName: String

    /// Exports the item and its menu showing `look`, takes the item's name and registers with the watcher if one
    /// runs. Fails without a session bus.
    public init(_ look: Look, clicked: @escaping @Sendable (Int32) -> Void) throws(DBusError) {
        bus = try SessionBus()
        state = Mutex(State(look: look))
        self.clicked = clicked
        busName = "\(Self.itemInterface)-\(getpid())-1"
        // The exported objects hold the value for the life of the process (the daemon makes one).
        let me = Unmanaged.passRetained(self).toOpaque()
        BusLoop.shared.run { [bus] in
            Self.export(bus, Self.itemPath, Self.itemXML, me)
            Self.export(bus, Self.menuPath, Self.menuXML, me)
            // A panel that starts (or restarts) later: register with it then.
            bus.subscribe(
                sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "NameOwnerChanged", arg0: Self.watcher,
                callback: { _, _, _, _, _, parameters, userData in
                    guard let parameters, let userData else { return }
                    let owner = Variant(owning: g_variant_ref(parameters)).child(2).string
                    guard !owner.isEmpty else { return }
                    let tray = Unmanaged<StatusNotifier>.fromOpaque(userData).takeUnretainedValue()
                    DispatchQueue.global().async { tray.register() }
                }, userData: me)
        }
        _ = try? bus.call(
            "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName",
            Self.tuple([g_variant_new_string(busName), g_variant_new_uint32(4)]), timeout: 5)
        register()
    }

    /// Whether a tray host (a StatusNotifierWatcher) is on the session bus now; nil without a session bus.
    public static func hostPresent() -> Bool? {
        guard let bus = try? SessionBus() else { return nil }
        return bus.hasOwner(watcher)
    }

    /// Shows `look`: the icon, tooltip and menu change at once in the panel (signals), only if it differs.
    public func show(_ look: Look) {
        let (iconChanged, menuChanged, revision) = state.withLock { current -> (Bool, Bool, UInt32) in
            guard current.look != look else { return (false, false, current.revision) }
            let icon = current.look.icon != look.icon || current.look.status != look.status
            let menu = current.look.items != look.items
            if menu { current.revision += 1 }
            current.look = look
            return (icon, menu, current.revision)
        }
        let connection = bus.raw
        if iconChanged {
            g_dbus_connection_emit_signal(connection, nil, Self.itemPath, Self.itemInterface, "NewIcon", nil, nil)
            g_dbus_connection_emit_signal(connection, nil, Self.itemPath, Self.itemInterface, "NewToolTip", nil, nil)
        }
        if menuChanged {
            let arguments = Self.tuple([g_variant_new_uint32(revision), g_variant_new_int32(0)])
            g_dbus_connection_emit_signal(
                connection, nil, Self.menuPath, Self.menuInterface, "LayoutUpdated", arguments, nil)
        }
    }

    private func register() {
        guard bus.hasOwner(Self.watcher) else { return }
        _ = try? bus.call(
            Self.watcher, "/StatusNotifierWatcher", Self.watcher, "RegisterStatusNotifierItem",
            Self.tuple([g_variant_new_string(busName)]), timeout: 5)
    }

    // MARK: serving the calls (on BusLoop's thread)

    private static func export(_ bus: SessionBus, _ path: String, _ xml: String, _ me: UnsafeMutableRawPointer) {
        var error: UnsafeMutablePointer<GError>?
        guard let node = g_dbus_node_info_new_for_xml(xml, &error), let interface = node.pointee.interfaces[0] else {
            if let error { g_error_free(error) }
            return
        }
        var table = GDBusInterfaceVTable()
        table.method_call = { _, _, path, _, method, parameters, invocation, userData in
            guard let path, let method, let parameters, let invocation, let userData else { return }
            let tray = Unmanaged<StatusNotifier>.fromOpaque(userData).takeUnretainedValue()
            let reply = tray.answer(
                String(cString: path), String(cString: method), Variant(owning: g_variant_ref(parameters)))
            g_dbus_method_invocation_return_value(invocation, reply)
        }
        table.get_property = { _, _, path, _, name, _, userData in
            guard let path, let name, let userData else { return nil }
            let tray = Unmanaged<StatusNotifier>.fromOpaque(userData).takeUnretainedValue()
            return tray.property(String(cString: path), String(cString: name))
        }
        _ = g_dbus_connection_register_object(bus.raw, path, interface, &table, me, nil, &error)
        if let error { g_error_free(error) }
    }

    /// A method's reply (a floating tuple, nil for none).
    private func answer(_ path: String, _ method: String, _ arguments: Variant) -> OpaquePointer? {
        guard path == Self.menuPath else { return nil }  // Activate, ContextMenu, Scroll: the menu does it all
        let current = state.withLock { ($0.look, $0.revision) }
        switch method {
        case "GetLayout":
            let parent = g_variant_get_int32(arguments.child(0).raw)
            let root = Item(id: 0, label: "", kind: .submenu(current.0.items))
            let node = Self.find(parent, in: root) ?? root
            return Self.tuple([g_variant_new_uint32(current.1), Self.layout(node)])
        case "GetGroupProperties":
            let ids = arguments.child(0)
            var entries: [OpaquePointer?] = []
            for index in 0..<Int(g_variant_n_children(ids.raw)) {
                let id = g_variant_get_int32(ids.child(index).raw)
                let root = Item(id: 0, label: "", kind: .submenu(current.0.items))
                if let item = Self.find(id, in: root) {
                    entries.append(Self.tuple([g_variant_new_int32(id), Self.properties(item)]))
                }
            }
            let type = g_variant_type_new("(ia{sv})")
            defer { g_variant_type_free(type) }
            return Self.tuple([g_variant_new_array(type, &entries, gsize(entries.count))])
        case "GetProperty":
            return Self.tuple([g_variant_new_variant(g_variant_new_string(""))])
        case "Event":
            let id = g_variant_get_int32(arguments.child(0).raw)
            if arguments.child(1).string == "clicked" { clicked(id) }
            return nil
        case "EventGroup":
            let events = arguments.child(0)
            for index in 0..<Int(g_variant_n_children(events.raw)) {
                let event = events.child(index)
                if event.child(1).string == "clicked" { clicked(g_variant_get_int32(event.child(0).raw)) }
            }
            return Self.tuple([Self.intArray([])])
        case "AboutToShow":
            return Self.tuple([g_variant_new_boolean(0)])
        case "AboutToShowGroup":
            return Self.tuple([Self.intArray([]), Self.intArray([])])
        default:
            return nil
        }
    }

    /// A property's value (a floating one).
    private func property(_ path: String, _ name: String) -> OpaquePointer? {
        let look = state.withLock { $0.look }
        if path == Self.menuPath {
            switch name {
            case "Version": return g_variant_new_uint32(3)
            case "TextDirection": return g_variant_new_string("ltr")
            case "Status": return g_variant_new_string("normal")
            case "IconThemePath": return Self.strings([])
            default: return nil
            }
        }
        switch name {
        case "Category": return g_variant_new_string("ApplicationStatus")
        case "Id": return g_variant_new_string("touchdeck")
        case "Title": return g_variant_new_string(look.title)
        case "Status": return g_variant_new_string("Active")
        case "IconName": return g_variant_new_string(look.icon)
        case "IconThemePath", "OverlayIconName", "AttentionIconName", "AttentionMovieName":
            return g_variant_new_string("")
        case "WindowId": return g_variant_new_int32(0)
        case "ItemIsMenu": return g_variant_new_boolean(1)
        case "Menu": return g_variant_new_object_path(Self.menuPath)
        case "ToolTip":
            let type = g_variant_type_new("(iiay)")
            defer { g_variant_type_free(type) }
            return Self.tuple([
                g_variant_new_string(look.icon), g_variant_new_array(type, nil, 0), g_variant_new_string(look.title),
                g_variant_new_string(look.status),
            ])
        default: return nil
        }
    }

    private static func find(_ id: Int32, in item: Item) -> Item? {
        if item.id == id { return item }
        guard case .submenu(let children) = item.kind else { return nil }
        for child in children { if let found = find(id, in: child) { return found } }
        return nil
    }

    /// `(ia{sv}av)`: the item, its properties and its children, each boxed in a variant.
    private static func layout(_ item: Item) -> OpaquePointer? {
        var children: [OpaquePointer?] = []
        if case .submenu(let items) = item.kind { children = items.map { g_variant_new_variant(layout($0)) } }
        let type = g_variant_type_new("v")
        defer { g_variant_type_free(type) }
        return tuple([
            g_variant_new_int32(item.id), properties(item), g_variant_new_array(type, &children, gsize(children.count)),
        ])
    }

    /// dbusmenu's properties of one item, as `a{sv}`.
    private static func properties(_ item: Item) -> OpaquePointer? {
        var entries: [(String, OpaquePointer?)] = []
        switch item.kind {
        case .separator: entries.append(("type", g_variant_new_string("separator")))
        case .label: entries += [("label", g_variant_new_string(item.label)), ("enabled", g_variant_new_boolean(0))]
        case .action: entries.append(("label", g_variant_new_string(item.label)))
        case .check(let on):
            entries += [
                ("label", g_variant_new_string(item.label)), ("toggle-type", g_variant_new_string("checkmark")),
                ("toggle-state", g_variant_new_int32(on ? 1 : 0)),
            ]
        case .submenu:
            if item.id != 0 {
                entries += [
                    ("label", g_variant_new_string(item.label)), ("children-display", g_variant_new_string("submenu")),
                ]
            } else {
                entries.append(("children-display", g_variant_new_string("submenu")))
            }
        }
        var pairs: [OpaquePointer?] = entries.map {
            g_variant_new_dict_entry(g_variant_new_string($0.0), g_variant_new_variant($0.1))
        }
        let type = g_variant_type_new("{sv}")
        defer { g_variant_type_free(type) }
        return g_variant_new_array(type, &pairs, gsize(pairs.count))
    }

    private static func tuple(_ children: [OpaquePointer?]) -> OpaquePointer? {
        var children = children
        return g_variant_new_tuple(&children, gsize(children.count))
    }

    private static func intArray(_ values: [Int32]) -> OpaquePointer? {
        var children: [OpaquePointer?] = values.map { g_variant_new_int32($0) }
        let type = g_variant_type_new("i")
        defer { g_variant_type_free(type) }
        return g_variant_new_array(type, &children, gsize(children.count))
    }

    private static func strings(_ values: [String]) -> OpaquePointer? {
        let type = g_variant_type_new("s")
        defer { g_variant_type_free(type) }
        var children: [OpaquePointer?] = values.map { g_variant_new_string($0) }
        return g_variant_new_array(type, &children, gsize(children.count))
    }

    static let itemXML = """
        <node><interface name="org.kde.StatusNotifierItem">
          <property name="Category" type="s" access="read"/><property name="Id" type="s" access="read"/>
          <property name="Title" type="s" access="read"/><property name="Status" type="s" access="read"/>
          <property name="WindowId" type="i" access="read"/><property name="IconName" type="s" access="read"/>
          <property name="IconThemePath" type="s" access="read"/>
          <property name="OverlayIconName" type="s" access="read"/>
          <property name="AttentionIconName" type="s" access="read"/>
          <property name="AttentionMovieName" type="s" access="read"/>
          <property name="ToolTip" type="(sa(iiay)ss)" access="read"/>
          <property name="ItemIsMenu" type="b" access="read"/><property name="Menu" type="o" access="read"/>
          <method name="ContextMenu"><arg name="x" type="i" direction="in"/><arg name="y" type="i" direction="in"/></method>
          <method name="Activate"><arg name="x" type="i" direction="in"/><arg name="y" type="i" direction="in"/></method>
          <method name="SecondaryActivate"><arg name="x" type="i" direction="in"/><arg name="y" type="i" direction="in"/></method>
          <method name="Scroll"><arg name="delta" type="i" direction="in"/><arg name="orientation" type="s" direction="in"/></method>
          <signal name="NewTitle"/><signal name="NewIcon"/><signal name="NewAttentionIcon"/><signal name="NewOverlayIcon"/>
          <signal name="NewToolTip"/><signal name="NewStatus"><arg name="status" type="s"/></signal>
        </interface></node>
        """

    static let menuXML = """
        <node><interface name="com.canonical.dbusmenu">
          <property name="Version" type="u" access="read"/><property name="TextDirection" type="s" access="read"/>
          <property name="Status" type="s" access="read"/><property name="IconThemePath" type="as" access="read"/>
          <method name="GetLayout"><arg type="i" name="parentId" direction="in"/>
            <arg type="i" name="recursionDepth" direction="in"/><arg type="as" name="propertyNames" direction="in"/>
            <arg type="u" name="revision" direction="out"/><arg type="(ia{sv}av)" name="layout" direction="out"/></method>
          <method name="GetGroupProperties"><arg type="ai" name="ids" direction="in"/>
            <arg type="as" name="propertyNames" direction="in"/>
            <arg type="a(ia{sv})" name="properties" direction="out"/></method>
          <method name="GetProperty"><arg type="i" name="id" direction="in"/><arg type="s" name="name" direction="in"/>
            <arg type="v" name="value" direction="out"/></method>
          <method name="Event"><arg type="i" name="id" direction="in"/><arg type="s" name="eventId" direction="in"/>
            <arg type="v" name="data" direction="in"/><arg type="u" name="timestamp" direction="in"/></method>
          <method name="EventGroup"><arg type="a(isvu)" name="events" direction="in"/>
            <arg type="ai" name="idErrors" direction="out"/></method>
          <method name="AboutToShow"><arg type="i" name="id" direction="in"/>
            <arg type="b" name="needUpdate" direction="out"/></method>
          <method name="AboutToShowGroup"><arg type="ai" name="ids" direction="in"/>
            <arg type="ai" name="updatesNeeded" direction="out"/><arg type="ai" name="idErrors" direction="out"/></method>
          <signal name="ItemsPropertiesUpdated"><arg type="a(ia{sv})" name="updatedProps"/>
            <arg type="a(ia{s})" name="removedProps"/></signal>
          <signal name="LayoutUpdated"><arg type="u" name="revision"/><arg type="i" name="parent"/></signal>
          <signal name="ItemActivationRequested"><arg type="i" name="id"/><arg type="u" name="timestamp"/></signal>
        </interface></node>
        """
}
