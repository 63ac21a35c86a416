"""A tiny X client for the X11 Extend tests: `python xpattern.py X Y WIDTH HEIGHT` opens a window there that paints
`pattern_block` colours in 80-pixel blocks from its corner, flips an 8x8 square in its bottom-right corner five times a
second (so the damage-driven capture keeps sending frames while the picture stays the pattern), and prints one JSON
line per event on stdout:

    {"event": "drawn", "x": 0, "y": 0, "width": 400, "height": 300}   painted at that place and size (the server has it)
    {"event": "press", "button": 1, "x": 1194, "y": 834}               a button press, in window pixels

A line `move X Y WIDTH HEIGHT` on stdin moves and resizes it (there is no window manager on the test server) and
paints it again. Written with ctypes (libX11) so the tests need no extra Python package. Runs until stdin closes."""

import ctypes
import ctypes.util
import json
import os
import select
import sys

BLOCK = 80
EXPOSE, BUTTON_PRESS, MAP_NOTIFY = 12, 4, 19
BUTTON_PRESS_MASK, EXPOSURE_MASK, STRUCTURE_NOTIFY_MASK = 1 << 2, 1 << 15, 1 << 17


def pattern_block(column, row):
    """The colour (r, g, b, each 0-255) of the block at `column`, `row` (as Tests/wayland/gtk_pattern.py draws)."""
    return ((column * 37 + 20) % 256, (row * 59 + 40) % 256, ((column + row) * 91 + 60) % 256)


class XButtonEvent(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                ("display", ctypes.c_void_p), ("window", ctypes.c_ulong), ("root", ctypes.c_ulong),
                ("subwindow", ctypes.c_ulong), ("time", ctypes.c_ulong), ("x", ctypes.c_int), ("y", ctypes.c_int),
                ("x_root", ctypes.c_int), ("y_root", ctypes.c_int), ("state", ctypes.c_uint),
                ("button", ctypes.c_uint), ("same_screen", ctypes.c_int)]


class XEvent(ctypes.Union):
    _fields_ = [("type", ctypes.c_int), ("xbutton", XButtonEvent), ("pad", ctypes.c_long * 24)]


def load_xlib():
    x = ctypes.cdll.LoadLibrary(ctypes.util.find_library("X11"))
    x.XOpenDisplay.restype = ctypes.c_void_p
    x.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x.XDefaultRootWindow.restype = ctypes.c_ulong
    x.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
    x.XCreateSimpleWindow.restype = ctypes.c_ulong
    x.XCreateSimpleWindow.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int, ctypes.c_uint,
                                      ctypes.c_uint, ctypes.c_uint, ctypes.c_ulong, ctypes.c_ulong]
    x.XSelectInput.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_long]
    x.XMapWindow.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
    x.XMoveResizeWindow.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int, ctypes.c_uint,
                                    ctypes.c_uint]
    x.XCreateGC.restype = ctypes.c_void_p
    x.XCreateGC.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_void_p]
    x.XSetForeground.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_ulong]
    x.XFillRectangle.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_void_p, ctypes.c_int, ctypes.c_int,
                                 ctypes.c_uint, ctypes.c_uint]
    x.XNextEvent.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    x.XPending.argtypes = [ctypes.c_void_p]
    x.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
    x.XConnectionNumber.argtypes = [ctypes.c_void_p]
    return x


class PatternWindow:
    def __init__(self, x, geometry):
        self.x = x
        self.display = x.XOpenDisplay(None)
        if not self.display:
            sys.exit("xpattern: cannot open display")
        self.left, self.top, self.width, self.height = geometry
        root = x.XDefaultRootWindow(self.display)
        self.window = x.XCreateSimpleWindow(self.display, root, self.left, self.top, self.width, self.height, 0, 0, 0)
        x.XSelectInput(self.display, self.window, BUTTON_PRESS_MASK | EXPOSURE_MASK | STRUCTURE_NOTIFY_MASK)
        self.gc = x.XCreateGC(self.display, self.window, 0, None)
        self.ticks = 0
        x.XMapWindow(self.display, self.window)
        event = XEvent()
        while event.type != MAP_NOTIFY:
            x.XNextEvent(self.display, ctypes.byref(event))
        self.paint()

    def fill(self, left, top, width, height, rgb):
        self.x.XSetForeground(self.display, self.gc, (rgb[0] << 16) | (rgb[1] << 8) | rgb[2])
        self.x.XFillRectangle(self.display, self.window, self.gc, left, top, width, height)

    def paint(self):
        for row in range(self.height // BLOCK + 1):
            for column in range(self.width // BLOCK + 1):
                self.fill(column * BLOCK, row * BLOCK, BLOCK, BLOCK, pattern_block(column, row))
        self.x.XSync(self.display, 0)
        say(event="drawn", x=self.left, y=self.top, width=self.width, height=self.height)

    def tick(self):
        self.ticks += 1
        shade = 255 * (self.ticks % 2)
        self.fill(self.width - 8, self.height - 8, 8, 8, (shade, shade, shade))
        self.x.XSync(self.display, 0)

    def move(self, left, top, width, height):
        self.left, self.top, self.width, self.height = left, top, width, height
        self.x.XMoveResizeWindow(self.display, self.window, left, top, width, height)
        self.x.XSync(self.display, 0)
        self.paint()

    def events(self):
        event = XEvent()
        while self.x.XPending(self.display):
            self.x.XNextEvent(self.display, ctypes.byref(event))
            if event.type == BUTTON_PRESS:
                say(event="press", button=event.xbutton.button, x=event.xbutton.x, y=event.xbutton.y)
            elif event.type == EXPOSE:
                self.paint()


def say(**record):
    sys.stdout.write(json.dumps(record) + "\n")
    sys.stdout.flush()


def main():
    x = load_xlib()
    window = PatternWindow(x, [int(value) for value in sys.argv[1:5]])
    connection = x.XConnectionNumber(window.display)
    stdin = sys.stdin.fileno()
    pending = b""
    while True:
        ready, _, _ = select.select([connection, stdin], [], [], 0.2)
        if stdin in ready:
            data = os.read(stdin, 4096)
            if not data:
                return
            pending += data
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                words = line.decode().split()
                if words and words[0] == "move":
                    window.move(*(int(value) for value in words[1:5]))
        if not ready:
            window.tick()
        window.events()


if __name__ == "__main__":
    main()
