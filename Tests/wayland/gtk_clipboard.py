#!/usr/bin/env python3
"""A GTK 3 client for the GNOME clipboard tests: the other app. A fullscreen window with a text field takes
commands as JSON lines on stdin and answers as JSON lines on stdout ({"event": "ready"} once it is drawn):
  {"copy": "text", "text": T}         copies T (Gtk.Clipboard.set_text)         → {"event": "copied"}
  {"copy": "png", "data": B64}        copies the PNG as an image (set_image)     → {"event": "copied"}
  {"copy": "raw", "target": M, "data": B64}  offers exactly these bytes as type M, whatever they are (the
                                      window owns the selection itself)          → {"event": "copied"}
  {"paste": "text"}                   what a paste gets as text                  → {"event": "pasted", "text": T|null}
  {"paste": "target", "target": M}    the bytes a paste gets as type M           → {"event": "pasted", "data": B64|null}
  {"targets": true}                   the types the clipboard offers             → {"event": "targets", "targets": [...]}
The field reports its text when it changes: {"event": "field", "text": T}, the window its keyboard focus:
{"event": "focus", "in": true|false}. Wayland lets only the app with the keyboard focus copy and paste: on headless
Mutter the seat has a keyboard only while a remote-desktop session runs, and this (only) window gets the focus a
moment after the session started.
Run with the system Python (python3-gi) inside scripts/with-mutter: GDK_BACKEND=wayland."""

import base64
import json
import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
gi.require_version("GdkPixbuf", "2.0")
from gi.repository import Gdk, GdkPixbuf, GLib, Gtk  # noqa: E402


def say(**record):
    sys.stdout.write(json.dumps(record) + "\n")
    sys.stdout.flush()


class ClipboardWindow(Gtk.Window):
    def __init__(self):
        super().__init__(title="touchdeck-clipboard")
        self.clipboard = Gtk.Clipboard.get(Gdk.SELECTION_CLIPBOARD)
        self.field = Gtk.Entry()
        self.field.connect("changed", lambda field: say(event="field", text=field.get_text()))
        self.add(self.field)
        self.drawn = False
        self.raw = None
        self.connect("selection-get", self.on_selection_get)
        self.connect("draw", self.on_draw)
        self.connect("destroy", Gtk.main_quit)
        self.connect("focus-in-event", lambda *_: say(event="focus", **{"in": True}) or False)
        self.connect("focus-out-event", lambda *_: say(event="focus", **{"in": False}) or False)
        GLib.io_add_watch(GLib.IOChannel.unix_new(sys.stdin.fileno()), GLib.PRIORITY_DEFAULT,
                          GLib.IOCondition.IN | GLib.IOCondition.HUP, self.on_command)

    def on_draw(self, _widget, _context):
        if not self.drawn:
            self.drawn = True
            self.field.grab_focus()
            GLib.idle_add(lambda: say(event="ready") and False)
        return False

    def on_command(self, _channel, condition):
        line = sys.stdin.readline()
        if not line:
            Gtk.main_quit()
            return False
        command = json.loads(line)
        if command.get("copy") == "text":
            self.clipboard.set_text(command["text"], -1)
            say(event="copied")
        elif command.get("copy") == "png":
            loader = GdkPixbuf.PixbufLoader.new_with_type("png")
            loader.write(base64.b64decode(command["data"]))
            loader.close()
            self.clipboard.set_image(loader.get_pixbuf())
            say(event="copied")
        elif command.get("copy") == "raw":
            self.raw = base64.b64decode(command["data"])
            target = Gdk.Atom.intern(command["target"], False)
            Gtk.selection_clear_targets(self, Gdk.SELECTION_CLIPBOARD)
            Gtk.selection_add_target(self, Gdk.SELECTION_CLIPBOARD, target, 0)
            Gtk.selection_owner_set(self, Gdk.SELECTION_CLIPBOARD, Gtk.get_current_event_time())
            say(event="copied")
        elif command.get("paste") == "text":
            self.clipboard.request_text(lambda _c, text: say(event="pasted", text=text))
        elif command.get("paste") == "target":
            self.clipboard.request_contents(Gdk.Atom.intern(command["target"], False), self.on_contents)
        elif command.get("targets"):
            self.clipboard.request_targets(
                lambda _c, atoms, *_: say(event="targets", targets=[atom.name() for atom in atoms or []]))
        return True

    def on_selection_get(self, _widget, selection, _info, _time):
        selection.set(selection.get_target(), 8, self.raw)

    @staticmethod
    def on_contents(_clipboard, selection):
        data = selection.get_data() if selection.get_length() >= 0 else None
        say(event="pasted", data=None if data is None else base64.b64encode(bytes(data)).decode())


def main():
    window = ClipboardWindow()
    window.fullscreen()
    window.show_all()
    Gtk.main()


if __name__ == "__main__":
    main()
