#!/usr/bin/env python3
"""A stand-in for GNOME Shell's org.gnome.ScreenSaver on the test's private session bus: GetActive answers what
the last SetActive said (false at first). Prints "ready" once it owns the name. System Python (python3-gi)."""

import sys

from gi.repository import Gio, GLib

XML = """<node><interface name="org.gnome.ScreenSaver">
  <method name="GetActive"><arg type="b" direction="out"/></method>
  <method name="SetActive"><arg type="b" direction="in"/></method>
</interface></node>"""

active = False


def call(connection, sender, path, interface, method, parameters, invocation):
    global active
    if method == "SetActive":
        active = parameters.unpack()[0]
        invocation.return_value(None)
    else:
        invocation.return_value(GLib.Variant("(b)", (active,)))


def acquired(connection, name):
    print("ready", flush=True)


def bus_acquired(connection, name):
    node = Gio.DBusNodeInfo.new_for_xml(XML)
    connection.register_object("/org/gnome/ScreenSaver", node.interfaces[0], call, None, None)


Gio.bus_own_name(Gio.BusType.SESSION, "org.gnome.ScreenSaver", Gio.BusNameOwnerFlags.NONE, bus_acquired, acquired,
                 lambda *_: sys.exit(1))
GLib.MainLoop().run()
