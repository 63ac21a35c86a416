#!/usr/bin/env python3
"""A test notification server on the test's session bus (System Python, python3-gi): owns
org.freedesktop.Notifications, appends each Notify and CloseNotification it gets to LOG as one JSON line, and answers
each notification that has buttons as the file ANSWER says when it arrives: a button's key (ActionInvoked, then
NotificationClosed as a server does when a button is pressed), "close" (closed without a button) or "none" (left
open). CAPS is GetCapabilities' answer, comma-separated ("actions,body", or "body" for a server without buttons).
Usage: fake_notifications.py LOG ANSWER CAPS. Prints "ready" once it owns the name."""

import itertools
import json
import sys

from gi.repository import Gio, GLib

NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
XML = f"""<node><interface name="{NAME}">
  <method name="GetCapabilities"><arg type="as" direction="out"/></method>
  <method name="Notify">
    <arg type="s" direction="in"/><arg type="u" direction="in"/><arg type="s" direction="in"/>
    <arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="as" direction="in"/>
    <arg type="a{{sv}}" direction="in"/><arg type="i" direction="in"/><arg type="u" direction="out"/>
  </method>
  <method name="CloseNotification"><arg type="u" direction="in"/></method>
  <method name="GetServerInformation">
    <arg type="s" direction="out"/><arg type="s" direction="out"/><arg type="s" direction="out"/>
    <arg type="s" direction="out"/>
  </method>
  <signal name="ActionInvoked"><arg type="u"/><arg type="s"/></signal>
  <signal name="NotificationClosed"><arg type="u"/><arg type="u"/></signal>
</interface></node>"""

log_path, answer_path, caps = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
ids = itertools.count(1)


def write(entry):
    with open(log_path, "a") as out:
        out.write(json.dumps(entry) + "\n")


def call(connection, sender, path, interface, method, parameters, invocation):
    if method == "GetCapabilities":
        return invocation.return_value(GLib.Variant("(as)", (caps,)))
    if method == "GetServerInformation":
        return invocation.return_value(GLib.Variant("(ssss)", ("fake", "touchdeck-tests", "1", "1.2")))
    if method == "CloseNotification":
        (closed,) = parameters.unpack()
        write({"closed": closed})
        invocation.return_value(None)
        return connection.emit_signal(None, PATH, NAME, "NotificationClosed", GLib.Variant("(uu)", (closed, 3)))
    app, _, icon, summary, body, actions, hints, _ = parameters.unpack()
    number = next(ids)
    write({"id": number, "app": app, "icon": icon, "summary": summary, "body": body, "actions": actions,
           "urgency": hints.get("urgency"), "image": hints.get("image-path")})
    invocation.return_value(GLib.Variant("(u)", (number,)))
    if not actions:
        return
    with open(answer_path) as answer_file:
        answer = answer_file.read().strip()
    if answer == "none":
        return
    if answer != "close":
        connection.emit_signal(None, PATH, NAME, "ActionInvoked", GLib.Variant("(us)", (number, answer)))
    connection.emit_signal(None, PATH, NAME, "NotificationClosed", GLib.Variant("(uu)", (number, 2)))


def bus_acquired(connection, _):
    node = Gio.DBusNodeInfo.new_for_xml(XML)
    connection.register_object(PATH, node.interfaces[0], call, None, None)


Gio.bus_own_name(Gio.BusType.SESSION, NAME, Gio.BusNameOwnerFlags.NONE, bus_acquired,
                 lambda *_: print("ready", flush=True), lambda *_: sys.exit(1))
GLib.MainLoop().run()
