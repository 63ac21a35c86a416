#!/usr/bin/env python3
"""A fake MPRIS media player on the test's session bus (System Python, python3-gi): owns
org.mpris.MediaPlayer2.NAME, exports /org/mpris/MediaPlayer2 with the Player interface, appends each method it is
called with (PlayPause, Next, Previous, Stop, Play, Pause) to CALLS, one per line, and keeps PlaybackStatus as a
player would (PlayPause flips Playing and Paused, Stop stops), announcing each change with PropertiesChanged.
Usage: fake_mpris.py NAME CALLS [Playing|Paused|Stopped]. Prints "ready" once it owns the name."""

import sys

from gi.repository import Gio, GLib

PATH = "/org/mpris/MediaPlayer2"
PLAYER = "org.mpris.MediaPlayer2.Player"
XML = f"""<node><interface name="{PLAYER}">
  <method name="PlayPause"/><method name="Next"/><method name="Previous"/><method name="Stop"/>
  <method name="Play"/><method name="Pause"/>
  <property name="PlaybackStatus" type="s" access="read"/>
  <property name="CanGoNext" type="b" access="read"/>
  <property name="CanGoPrevious" type="b" access="read"/>
  <property name="CanPlay" type="b" access="read"/>
  <property name="CanPause" type="b" access="read"/>
  <property name="CanControl" type="b" access="read"/>
</interface></node>"""

name, calls = sys.argv[1], sys.argv[2]
status = sys.argv[3] if len(sys.argv) > 3 else "Paused"
NEXT_STATUS = {"PlayPause": lambda s: "Paused" if s == "Playing" else "Playing", "Play": lambda s: "Playing",
               "Pause": lambda s: "Paused" if s == "Playing" else s, "Stop": lambda s: "Stopped"}


def call(connection, sender, path, interface, method, parameters, invocation):
    global status
    with open(calls, "a") as out:
        out.write(method + "\n")
    invocation.return_value(None)
    changed = NEXT_STATUS.get(method, lambda s: s)(status)
    if changed != status:
        status = changed
        connection.emit_signal(None, PATH, "org.freedesktop.DBus.Properties", "PropertiesChanged",
                               GLib.Variant("(sa{sv}as)", (PLAYER, {"PlaybackStatus": GLib.Variant("s", status)}, [])))


def get_property(connection, sender, path, interface, prop):
    return GLib.Variant("s", status) if prop == "PlaybackStatus" else GLib.Variant("b", True)


def bus_acquired(connection, _):
    node = Gio.DBusNodeInfo.new_for_xml(XML)
    connection.register_object(PATH, node.interfaces[0], call, get_property, None)


Gio.bus_own_name(Gio.BusType.SESSION, f"org.mpris.MediaPlayer2.{name}", Gio.BusNameOwnerFlags.NONE, bus_acquired,
                 lambda *_: print("ready", flush=True), lambda *_: sys.exit(1))
GLib.MainLoop().run()
