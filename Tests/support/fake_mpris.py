#!/usr/bin/env python3
"""A fake MPRIS media player on the test's session bus (System Python, python3-gi): owns
org.mpris.MediaPlayer2.NAME, exports /org/mpris/MediaPlayer2 with the Player interface, appends each method it is
called with (PlayPause, Next, Previous, Stop, Play, Pause) to CALLS, one per line, and keeps PlaybackStatus as a
player would (PlayPause flips Playing and Paused, Stop stops), announcing each change with PropertiesChanged.
With TRACKS (a JSON file: a list of {title, artist, album, artUrl, length} objects, length in seconds) it plays
them: Metadata is the current one's (xesam:title, xesam:artist as a list, xesam:album, mpris:artUrl, mpris:length in
microseconds), Next and Previous change track and announce the new Metadata; Position is 30 s into each.
Usage: fake_mpris.py NAME CALLS [Playing|Paused|Stopped] [TRACKS]. Prints "ready" once it owns the name."""

import json
import sys

from gi.repository import Gio, GLib

PATH = "/org/mpris/MediaPlayer2"
PLAYER = "org.mpris.MediaPlayer2.Player"
XML = f"""<node><interface name="{PLAYER}">
  <method name="PlayPause"/><method name="Next"/><method name="Previous"/><method name="Stop"/>
  <method name="Play"/><method name="Pause"/>
  <property name="PlaybackStatus" type="s" access="read"/>
  <property name="Metadata" type="a{{sv}}" access="read"/>
  <property name="Position" type="x" access="read"/>
  <property name="CanGoNext" type="b" access="read"/>
  <property name="CanGoPrevious" type="b" access="read"/>
  <property name="CanPlay" type="b" access="read"/>
  <property name="CanPause" type="b" access="read"/>
  <property name="CanControl" type="b" access="read"/>
</interface></node>"""

name, calls = sys.argv[1], sys.argv[2]
status = sys.argv[3] if len(sys.argv) > 3 else "Paused"
tracks = json.loads(open(sys.argv[4]).read()) if len(sys.argv) > 4 else []
current = 0
NEXT_STATUS = {"PlayPause": lambda s: "Paused" if s == "Playing" else "Playing", "Play": lambda s: "Playing",
               "Pause": lambda s: "Paused" if s == "Playing" else s, "Stop": lambda s: "Stopped"}


def metadata():
    if not tracks:
        return GLib.Variant("a{sv}", {})
    track = tracks[current]
    fields = {"mpris:trackid": GLib.Variant("o", f"/org/touchdeck/track/{current}")}
    if "title" in track:
        fields["xesam:title"] = GLib.Variant("s", track["title"])
    if "artist" in track:
        fields["xesam:artist"] = GLib.Variant("as", [track["artist"]])
    if "album" in track:
        fields["xesam:album"] = GLib.Variant("s", track["album"])
    if "artUrl" in track:
        fields["mpris:artUrl"] = GLib.Variant("s", track["artUrl"])
    if "length" in track:
        fields["mpris:length"] = GLib.Variant("x", int(track["length"] * 1_000_000))
    return GLib.Variant("a{sv}", fields)


def call(connection, sender, path, interface, method, parameters, invocation):
    global status, current
    with open(calls, "a") as out:
        out.write(method + "\n")
    invocation.return_value(None)
    if tracks and method in ("Next", "Previous"):
        current = (current + (1 if method == "Next" else -1)) % len(tracks)
        connection.emit_signal(None, PATH, "org.freedesktop.DBus.Properties", "PropertiesChanged",
                               GLib.Variant("(sa{sv}as)", (PLAYER, {"Metadata": metadata()}, [])))
    changed = NEXT_STATUS.get(method, lambda s: s)(status)
    if changed != status:
        status = changed
        connection.emit_signal(None, PATH, "org.freedesktop.DBus.Properties", "PropertiesChanged",
                               GLib.Variant("(sa{sv}as)", (PLAYER, {"PlaybackStatus": GLib.Variant("s", status)}, [])))


def get_property(connection, sender, path, interface, prop):
    if prop == "Metadata":
        return metadata()
    if prop == "Position":
        return GLib.Variant("x", 30_000_000)
    return GLib.Variant("s", status) if prop == "PlaybackStatus" else GLib.Variant("b", True)


def bus_acquired(connection, _):
    node = Gio.DBusNodeInfo.new_for_xml(XML)
    connection.register_object(PATH, node.interfaces[0], call, get_property, None)


Gio.bus_own_name(Gio.BusType.SESSION, f"org.mpris.MediaPlayer2.{name}", Gio.BusNameOwnerFlags.NONE, bus_acquired,
                 lambda *_: print("ready", flush=True), lambda *_: sys.exit(1))
GLib.MainLoop().run()
