#!/usr/bin/env python3
"""A test tray host on the test's session bus (System Python, python3-gi): owns org.kde.StatusNotifierWatcher,
takes RegisterStatusNotifierItem as a panel does, and reads the registered item's menu over dbusmenu on command.
Commands, one per line on stdin, each answered with one JSON line on stdout:
  registered           → {"items": [bus names registered]}
  layout               → {"revision": N, "menu": [{"id", "label", "type", "toggle", "enabled", "children": [...]}]}
  click ID             → {"clicked": ID}            (com.canonical.dbusmenu.Event ID "clicked")
  icon                 → {"icon": IconName}
Usage: fake_tray_host.py. Prints "ready" once it owns the name."""

import json
import sys

from gi.repository import Gio, GLib

NAME = "org.kde.StatusNotifierWatcher"
XML = f"""<node><interface name="{NAME}">
  <method name="RegisterStatusNotifierItem"><arg type="s" direction="in"/></method>
  <method name="RegisterStatusNotifierHost"><arg type="s" direction="in"/></method>
  <property name="RegisteredStatusNotifierItems" type="as" access="read"/>
  <property name="IsStatusNotifierHostRegistered" type="b" access="read"/>
  <property name="ProtocolVersion" type="i" access="read"/>
  <signal name="StatusNotifierItemRegistered"><arg type="s"/></signal>
</interface></node>"""

items = []
bus = None


def call(connection, sender, path, interface, method, parameters, invocation):
    if method == "RegisterStatusNotifierItem":
        (service,) = parameters.unpack()
        items.append(service if not service.startswith("/") else sender)
        connection.emit_signal(None, "/StatusNotifierWatcher", NAME, "StatusNotifierItemRegistered",
                               GLib.Variant("(s)", (items[-1],)))
    invocation.return_value(None)


def get_property(connection, sender, path, interface, prop):
    if prop == "RegisteredStatusNotifierItems":
        return GLib.Variant("as", items)
    return GLib.Variant("b", True) if prop == "IsStatusNotifierHostRegistered" else GLib.Variant("i", 0)


def item_call(interface, method, args, reply_type):
    return bus.call_sync(items[-1], "/MenuBar" if interface == "com.canonical.dbusmenu" else "/StatusNotifierItem",
                         interface, method, args, GLib.VariantType(reply_type) if reply_type else None,
                         Gio.DBusCallFlags.NONE, 5000, None)


def node(entry):
    number, props, children = entry
    return {"id": number, "label": props.get("label", ""), "type": props.get("type", "standard"),
            "toggle": props.get("toggle-state") if props.get("toggle-type") else None,
            "enabled": props.get("enabled", True), "children": [node(child) for child in children]}


def command(line):
    words = line.split()
    if words[0] == "registered":
        return {"items": items}
    if words[0] == "layout":
        revision, root = item_call("com.canonical.dbusmenu", "GetLayout", GLib.Variant("(iias)", (0, -1, [])),
                                   "(u(ia{sv}av))").unpack()
        return {"revision": revision, "menu": node(root)["children"]}
    if words[0] == "click":
        item_call("com.canonical.dbusmenu", "Event", GLib.Variant("(isvu)", (int(words[1]), "clicked",
                                                                            GLib.Variant("s", ""), 0)), None)
        return {"clicked": int(words[1])}
    if words[0] == "icon":
        value = bus.call_sync(items[-1], "/StatusNotifierItem", "org.freedesktop.DBus.Properties", "Get",
                              GLib.Variant("(ss)", ("org.kde.StatusNotifierItem", "IconName")),
                              GLib.VariantType("(v)"), Gio.DBusCallFlags.NONE, 5000, None).unpack()[0]
        return {"icon": value}
    return {"error": f"unknown command {line}"}


def on_input(channel, condition):
    line = channel.readline()
    if not line:
        loop.quit()
        return False
    try:
        answer = command(line.strip())
    except GLib.Error as error:
        answer = {"error": error.message}
    print(json.dumps(answer), flush=True)
    return True


def bus_acquired(connection, _):
    global bus
    bus = connection
    node_info = Gio.DBusNodeInfo.new_for_xml(XML)
    connection.register_object("/StatusNotifierWatcher", node_info.interfaces[0], call, get_property, None)


Gio.bus_own_name(Gio.BusType.SESSION, NAME, Gio.BusNameOwnerFlags.NONE, bus_acquired,
                 lambda *_: print("ready", flush=True), lambda *_: sys.exit(1))
GLib.io_add_watch(GLib.IOChannel.unix_new(sys.stdin.fileno()), GLib.IO_IN | GLib.IO_HUP, on_input)
loop = GLib.MainLoop()
loop.run()
