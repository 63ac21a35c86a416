#!/usr/bin/env python3
"""A GTK 3 client for the GNOME tests: a fullscreen window that paints `pattern_block` colours in 80-pixel blocks
and prints every input event it gets as one JSON line on stdout ({"event": "ready"} once it has been drawn).
With `--animate RATE` it also moves a 400×300 band across the window RATE times a second (for `make bench`); with
`--tick RATE` it only flips an 8×8 square in the bottom-right corner, so the output keeps changing (a compositor
that copies only damaged outputs keeps sending frames) while the picture stays the pattern. With `--commands` it
reads lines from stdin — `fullscreen X Y`: go fullscreen on the monitor at that point of the layout (Extend's test) —
and says {"event": "drawn", "width", "height", "scale"} whenever it has been drawn at a new size.
Run with the system Python (python3-gi) inside scripts/with-mutter: GDK_BACKEND=wayland."""

import json
import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402

BLOCK = 80


def pattern_block(column, row):
    """The colour (r, g, b, each 0–255) of the block at `column`, `row`; Tests/wayland/pattern.py mirrors it."""
    return ((column * 37 + 20) % 256, (row * 59 + 40) % 256, ((column + row) * 91 + 60) % 256)


def say(**record):
    sys.stdout.write(json.dumps(record) + "\n")
    sys.stdout.flush()


class PatternWindow(Gtk.Window):
    def __init__(self, animate=0, tick=0, commands=False):
        super().__init__(title="touchdeck-pattern")
        self.follow = commands
        self.drawn_at = None
        if commands:
            GLib.io_add_watch(sys.stdin, GLib.IO_IN | GLib.IO_HUP, self.command)
        self.set_decorated(False)
        self.drawn = False
        self.band = None
        self.step = 0
        area = Gtk.DrawingArea()
        self.area = area
        self.ticks = 0
        if animate:
            GLib.timeout_add(max(1, round(1000 / animate)), self.move_band)
        if tick:
            GLib.timeout_add(max(1, round(1000 / tick)), self.tick)
        area.connect("draw", self.draw)
        self.add(area)
        self.add_events(Gdk.EventMask.BUTTON_PRESS_MASK | Gdk.EventMask.BUTTON_RELEASE_MASK
                        | Gdk.EventMask.SCROLL_MASK | Gdk.EventMask.SMOOTH_SCROLL_MASK
                        | Gdk.EventMask.KEY_PRESS_MASK | Gdk.EventMask.KEY_RELEASE_MASK
                        | Gdk.EventMask.ENTER_NOTIFY_MASK | Gdk.EventMask.FOCUS_CHANGE_MASK)
        self.connect("button-press-event", lambda _, e: self.button("press", e))
        self.connect("button-release-event", lambda _, e: self.button("release", e))
        self.connect("scroll-event", self.scroll)
        self.connect("key-press-event", lambda _, e: self.key("key-press", e))
        self.connect("key-release-event", lambda _, e: self.key("key-release", e))
        self.connect("enter-notify-event", lambda _, e: say(event="enter", x=round(e.x), y=round(e.y)) and False)
        self.connect("focus-in-event", lambda *_: say(event="focus") and False)
        self.connect("destroy", Gtk.main_quit)

    def draw(self, widget, cr):
        width, height = widget.get_allocated_width(), widget.get_allocated_height()
        for row in range(0, height // BLOCK + 1):
            for column in range(0, width // BLOCK + 1):
                r, g, b = pattern_block(column, row)
                cr.set_source_rgb(r / 255, g / 255, b / 255)
                cr.rectangle(column * BLOCK, row * BLOCK, BLOCK, BLOCK)
                cr.fill()
        if self.band:
            x, y, colour = self.band
            cr.set_source_rgb(*colour)
            cr.rectangle(x, y, 400, 300)
            cr.fill()
        if self.ticks:
            shade = self.ticks % 2
            cr.set_source_rgb(shade, shade, shade)
            cr.rectangle(width - 8, height - 8, 8, 8)
            cr.fill()
        if self.follow and self.drawn and (width, height, widget.get_scale_factor()) != self.drawn_at:
            self.drawn_at = (width, height, widget.get_scale_factor())
            GLib.timeout_add(300, lambda size=self.drawn_at: say(event="drawn", width=size[0], height=size[1],
                                                                  scale=size[2]) and False)
        if not self.drawn and width > 200:
            self.drawn = True
            # Ready once the frame is on screen, not merely drawn: let the compositor take it first.
            GLib.timeout_add(300, lambda: say(event="ready", width=width, height=height) and False)
        return True

    def command(self, source, condition):
        line = source.readline()
        if not line:
            return False
        words = line.split()
        if words[:1] == ["fullscreen"]:
            display = self.get_display()
            monitor = display.get_monitor_at_point(int(words[1]), int(words[2]))
            index = next(i for i in range(display.get_n_monitors()) if display.get_monitor(i) == monitor)
            self.fullscreen_on_monitor(self.get_screen(), index)
        elif words[:1] == ["unfullscreen"]:
            self.unfullscreen()
        return True

    def move_band(self):
        width, height = self.area.get_allocated_width(), self.area.get_allocated_height()
        if width > 400 and height > 300:
            self.step += 1
            old = self.band
            self.band = ((self.step * 37) % (width - 400), (self.step * 23) % (height - 300),
                         ((self.step * 0.13) % 1, (self.step * 0.29) % 1, (self.step * 0.41) % 1))
            for x, y, _ in filter(None, (old, self.band)):
                self.area.queue_draw_area(x, y, 400, 300)
        return True

    def tick(self):
        self.ticks += 1
        width, height = self.area.get_allocated_width(), self.area.get_allocated_height()
        self.area.queue_draw_area(width - 8, height - 8, 8, 8)
        return True

    def button(self, kind, event):
        say(event=kind, button=event.button, x=round(event.x), y=round(event.y))
        return True

    def scroll(self, _, event):
        ok, dx, dy = event.get_scroll_deltas()
        say(event="scroll", direction=int(event.direction), dx=dx if ok else 0, dy=dy if ok else 0)
        return True

    def key(self, kind, event):
        say(event=kind, keyval=event.keyval, name=Gdk.keyval_name(event.keyval), text=event.string,
            state=int(event.state))
        return True


def main():
    def option(name):
        return int(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else 0

    window = PatternWindow(option("--animate"), option("--tick"), "--commands" in sys.argv)
    window.fullscreen()
    window.show_all()
    Gtk.main()


if __name__ == "__main__":
    main()
