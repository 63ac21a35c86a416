#!/usr/bin/env python3
"""A ScreenCast portal back-end with the virtual source type, as KDE Plasma 6.5 has one, for the tests of Extend on
such a desktop (scripts/with-sway with SWAY_FAKE_VIRTUAL=1 puts it behind the real xdg-desktop-portal in place of
xdg-desktop-portal-wlr). No KWin can run here, so sway stands in for it: for a session of the virtual type it makes
a headless output (`create_output`) of the size the computer's user "picks in the dialog" — the `WxH` in the file
$FAKE_VIRTUAL_CHOICE, else 1920x1080, KDE's default — right of the others, and casts it through
xdg-desktop-portal-wlr's back-end (its own D-Bus name, called as the frontend would). As KDE does, the start's
restore data keeps the size, and a session started with that restore data asks nothing and makes that size again.
Closing the session parks the output (320x240, far right: Debian 12's sway 1.7 can neither remove nor disable a
headless output), and the next virtual session re-uses it; the first uses the spare output $FAKE_VIRTUAL_SPARE. Each decision is printed as a JSON line on stdout (the
test's log). Run with the system Python (python3-gi): fake_virtual_portal.py BUS_NAME."""

import json
import os
import subprocess
import sys

from gi.repository import Gio, GLib

WLR = "org.freedesktop.impl.portal.desktop.wlr"
PATH = "/org/freedesktop/portal/desktop"
SCREENCAST = "org.freedesktop.impl.portal.ScreenCast"
MONITOR, VIRTUAL = 1, 4
PARKED = 100_000

XML = """
<node>
  <interface name="org.freedesktop.impl.portal.ScreenCast">
    <method name="CreateSession">
      <arg type="o" name="handle" direction="in"/><arg type="o" name="session_handle" direction="in"/>
      <arg type="s" name="app_id" direction="in"/><arg type="a{sv}" name="options" direction="in"/>
      <arg type="u" name="response" direction="out"/><arg type="a{sv}" name="results" direction="out"/>
    </method>
    <method name="SelectSources">
      <arg type="o" name="handle" direction="in"/><arg type="o" name="session_handle" direction="in"/>
      <arg type="s" name="app_id" direction="in"/><arg type="a{sv}" name="options" direction="in"/>
      <arg type="u" name="response" direction="out"/><arg type="a{sv}" name="results" direction="out"/>
    </method>
    <method name="Start">
      <arg type="o" name="handle" direction="in"/><arg type="o" name="session_handle" direction="in"/>
      <arg type="s" name="app_id" direction="in"/><arg type="s" name="parent_window" direction="in"/>
      <arg type="a{sv}" name="options" direction="in"/>
      <arg type="u" name="response" direction="out"/><arg type="a{sv}" name="results" direction="out"/>
    </method>
    <property name="AvailableSourceTypes" type="u" access="read"/>
    <property name="AvailableCursorModes" type="u" access="read"/>
    <property name="version" type="u" access="read"/>
  </interface>
</node>
"""

SESSION_XML = """
<node>
  <interface name="org.freedesktop.impl.portal.Session">
    <method name="Close"/>
    <signal name="Closed"/>
    <property name="version" type="u" access="read"/>
  </interface>
</node>
"""


def say(**record):
    print(json.dumps(record), flush=True)


def sway(*command):
    done = subprocess.run(["swaymsg", "-r", *command], capture_output=True, text=True, timeout=10)
    return json.loads(done.stdout) if done.stdout.strip() else None


class Backend:
    def __init__(self, connection):
        self.connection = connection
        self.sessions = {}  # session handle → {"types", "restore", "persist", "output", "registration"}
        self.parked = []
        self.session_info = Gio.DBusNodeInfo.new_for_xml(SESSION_XML).interfaces[0]

    def wlr(self, method, arguments):
        """Calls xdg-desktop-portal-wlr's back-end and returns its (response, results)."""
        reply = self.connection.call_sync(WLR, PATH, SCREENCAST, method, arguments, GLib.VariantType("(ua{sv})"),
                                          Gio.DBusCallFlags.NONE, 60000, None)
        results = reply.get_child_value(1)
        entries = (results.get_child_value(i) for i in range(results.n_children()))
        return reply.get_child_value(0).get_uint32(), {entry.get_child_value(0).get_string():
                                                       entry.get_child_value(1).get_variant() for entry in entries}

    def call(self, connection, sender, path, interface, method, parameters, invocation):
        try:
            response, results = getattr(self, method)(*parameters.unpack())
            invocation.return_value(GLib.Variant("(ua{sv})", (response, results)))
        except Exception as error:  # a failed back-end answers 2, as the real ones do
            say(event="error", method=method, error=str(error))
            invocation.return_value(GLib.Variant("(ua{sv})", (2, {})))

    def property(self, connection, sender, path, interface, name):
        return {"AvailableSourceTypes": GLib.Variant("u", MONITOR | VIRTUAL),
                "AvailableCursorModes": GLib.Variant("u", 1 | 2),
                "version": GLib.Variant("u", 4)}[name]

    def CreateSession(self, handle, session_handle, app_id, options):
        response, results = self.wlr("CreateSession", GLib.Variant("(oosa{sv})", (handle, session_handle, app_id, {})))
        if response == 0:
            registration = self.connection.register_object(session_handle, self.session_info, self.session_call,
                                                           None, None)
            self.sessions[session_handle] = {"registration": registration, "output": None}
        return response, results

    def SelectSources(self, handle, session_handle, app_id, options):
        session = self.sessions[session_handle]
        session["types"] = options.get("types", MONITOR)
        session["persist"] = options.get("persist_mode", 0)
        session["restore"] = options.get("restore_data")
        if session["types"] & VIRTUAL:
            # KDE asks at Start; xdg-desktop-portal-wlr runs its chooser here, so the output is made here.
            self.make_virtual(session)
        forwarded = {"types": GLib.Variant("u", MONITOR), "multiple": GLib.Variant("b", False)}
        if "cursor_mode" in options:
            forwarded["cursor_mode"] = GLib.Variant("u", options["cursor_mode"])
        return self.wlr("SelectSources", GLib.Variant("(oosa{sv})", (handle, session_handle, app_id, forwarded)))

    def Start(self, handle, session_handle, app_id, parent_window, options):
        session = self.sessions[session_handle]
        virtual = session.get("types", MONITOR) & VIRTUAL
        response, results = self.wlr("Start", GLib.Variant("(oossa{sv})", (handle, session_handle, app_id,
                                                                            parent_window, {})))
        # Only what KDE's back-end answers: the streams, and for a virtual source its own restore data.
        results = {key: value for key, value in results.items() if key == "streams"}
        if response == 0 and virtual and session.get("persist"):
            results["persist_mode"] = GLib.Variant("u", session["persist"])
            results["restore_data"] = GLib.Variant("(suv)", ("fakevirtual", 1, GLib.Variant(
                "a{sv}", {"virtualSize": GLib.Variant("(ii)", session["size"])})))
        return response, results

    def make_virtual(self, session):
        """The virtual monitor of the restored size, else of the size the user picks in the "dialog"."""
        restore = session.get("restore")
        if restore and restore[0] == "fakevirtual" and "virtualSize" in restore[2]:
            width, height = restore[2]["virtualSize"]
            asked = False
        else:
            choice = os.environ.get("FAKE_VIRTUAL_CHOICE", "")
            text = open(choice).read().strip() if choice and os.path.exists(choice) else "1920x1080"
            width, height = (int(side) for side in text.split("x"))
            asked = True
        session["size"] = (width, height)
        session["output"] = self.make_output(width, height)
        say(event="virtual", output=session["output"], width=width, height=height, asked=asked)

    def make_output(self, width, height):
        """A headless output of width×height (a parked one, else a new one) right of the others;
        xdg-desktop-portal-wlr's chooser picks it."""
        if self.parked:
            name = self.parked.pop()
        else:
            name = self.new_output()
        right = max(output["rect"]["x"] + output["rect"]["width"] for output in sway("-t", "get_outputs")
                    if output["name"] != name and output.get("active") and output["rect"]["x"] < PARKED)
        sway(f"output {name} enable mode {width}x{height} scale 1 pos {right} 0")
        with open(os.environ["TOUCHDECK_SWAY_PICK"], "w") as pick:
            pick.write(name + "\n")
        return name

    def new_output(self):
        """A new headless output, parked. (xdg-desktop-portal-wlr offers one made after it started only from its
        second session on: scripts/with-sway makes a spare one, $FAKE_VIRTUAL_SPARE, for the first.)"""
        before = {output["name"] for output in sway("-t", "get_outputs")}
        sway("create_output")
        name = next(output["name"] for output in sway("-t", "get_outputs") if output["name"] not in before)
        sway(f"output {name} mode 320x240 pos {PARKED} 0")
        return name

    def session_call(self, connection, sender, path, interface, method, parameters, invocation):
        session = self.sessions.pop(path, None)
        if session:
            self.connection.unregister_object(session["registration"])
            try:
                self.connection.call_sync(WLR, path, "org.freedesktop.impl.portal.Session", "Close", None, None,
                                          Gio.DBusCallFlags.NONE, 5000, None)
            except GLib.Error as error:
                say(event="error", method="Close", error=str(error))
            if session["output"]:
                sway(f"output {session['output']} mode 320x240 pos {PARKED} 0")
                self.parked.append(session["output"])
                say(event="closed", output=session["output"])
        invocation.return_value(None)


def main():
    name = sys.argv[1]
    connection = Gio.bus_get_sync(Gio.BusType.SESSION)
    backend = Backend(connection)
    backend.parked.append(os.environ["FAKE_VIRTUAL_SPARE"])
    info = Gio.DBusNodeInfo.new_for_xml(XML).interfaces[0]
    connection.register_object(PATH, info, backend.call, backend.property, None)
    loop = GLib.MainLoop()
    Gio.bus_own_name_on_connection(connection, name, Gio.BusNameOwnerFlags.NONE,
                                   lambda *_: say(event="ready"), lambda *_: loop.quit())
    loop.run()


if __name__ == "__main__":
    main()
