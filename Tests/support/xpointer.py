"""A tiny X client that records the pointer and key events it receives: `python xpointer.py OUT_FILE`.

It opens a window covering the whole screen of $DISPLAY, takes the input focus, and appends one JSON object
per line to OUT_FILE, so a test can check what injected input really produced on the X server:

    {"type": "ready", "width": 1920, "height": 1080}              once the window is mapped and focused
    {"type": "motion", "x": 480, "y": 810, "state": 0}            pointer moved (state: held buttons' masks)
    {"type": "press", "button": 1, "x": 480, "y": 810, "state": 0}
    {"type": "release", "button": 1, "x": 480, "y": 810, "state": 256}
    {"type": "key", "keysym": 97, "keycode": 38}

x and y are root-window pixels (the window starts at 0, 0). Written with ctypes so the tests need no extra
Python package. Runs until killed.
"""

import ctypes
import ctypes.util
import json
import sys

KEY_PRESS, BUTTON_PRESS, BUTTON_RELEASE, MOTION_NOTIFY, MAP_NOTIFY = 2, 4, 5, 6, 19
KEY_PRESS_MASK = 1 << 0
BUTTON_PRESS_MASK = 1 << 2
BUTTON_RELEASE_MASK = 1 << 3
POINTER_MOTION_MASK = 1 << 6
STRUCTURE_NOTIFY_MASK = 1 << 17
REVERT_TO_PARENT = 2


class XPointerEvent(ctypes.Structure):
    """The common head of XButtonEvent and XMotionEvent (identical up to `state`), then XButtonEvent's button."""
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                ("display", ctypes.c_void_p), ("window", ctypes.c_ulong), ("root", ctypes.c_ulong),
                ("subwindow", ctypes.c_ulong), ("time", ctypes.c_ulong), ("x", ctypes.c_int), ("y", ctypes.c_int),
                ("x_root", ctypes.c_int), ("y_root", ctypes.c_int), ("state", ctypes.c_uint),
                ("button", ctypes.c_uint), ("same_screen", ctypes.c_int)]


class XEvent(ctypes.Union):
    _fields_ = [("type", ctypes.c_int), ("xpointer", XPointerEvent), ("pad", ctypes.c_long * 24)]


def load_xlib():
    x = ctypes.cdll.LoadLibrary(ctypes.util.find_library("X11"))
    x.XOpenDisplay.restype = ctypes.c_void_p
    x.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x.XDefaultScreen.argtypes = [ctypes.c_void_p]
    x.XDisplayWidth.argtypes = [ctypes.c_void_p, ctypes.c_int]
    x.XDisplayHeight.argtypes = [ctypes.c_void_p, ctypes.c_int]
    x.XDefaultRootWindow.restype = ctypes.c_ulong
    x.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
    x.XCreateSimpleWindow.restype = ctypes.c_ulong
    x.XCreateSimpleWindow.argtypes = ([ctypes.c_void_p, ctypes.c_ulong] + [ctypes.c_int] * 2 + [ctypes.c_uint] * 3
                                      + [ctypes.c_ulong] * 2)
    x.XSelectInput.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_long]
    x.XMapWindow.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
    x.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
    x.XSetInputFocus.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_ulong]
    x.XNextEvent.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    x.XLookupKeysym.restype = ctypes.c_ulong
    x.XLookupKeysym.argtypes = [ctypes.c_void_p, ctypes.c_int]
    return x


def open_window(x):
    """A window over the whole screen, so every injected pointer position lands in it."""
    display = x.XOpenDisplay(None)
    if not display:
        sys.exit("xpointer: cannot open display")
    screen = x.XDefaultScreen(display)
    width, height = x.XDisplayWidth(display, screen), x.XDisplayHeight(display, screen)
    window = x.XCreateSimpleWindow(display, x.XDefaultRootWindow(display), 0, 0, width, height, 0, 0, 0)
    x.XSelectInput(display, window, KEY_PRESS_MASK | BUTTON_PRESS_MASK | BUTTON_RELEASE_MASK
                   | POINTER_MOTION_MASK | STRUCTURE_NOTIFY_MASK)
    x.XMapWindow(display, window)
    event = XEvent()
    while event.type != MAP_NOTIFY:
        x.XNextEvent(display, ctypes.byref(event))
    # No window manager on Xvfb: the client takes the focus itself once it is viewable.
    x.XSetInputFocus(display, window, REVERT_TO_PARENT, 0)
    x.XSync(display, 0)
    return display, width, height


def describe(x, event):
    """The JSON record for one event, or None for events the tests do not look at."""
    p = event.xpointer
    if event.type == MOTION_NOTIFY:
        return {"type": "motion", "x": p.x_root, "y": p.y_root, "state": p.state}
    if event.type in (BUTTON_PRESS, BUTTON_RELEASE):
        kind = "press" if event.type == BUTTON_PRESS else "release"
        return {"type": kind, "button": p.button, "x": p.x_root, "y": p.y_root, "state": p.state}
    if event.type == KEY_PRESS:
        # In XKeyEvent the field after `state` is `keycode`, where XButtonEvent has `button`.
        return {"type": "key", "keysym": x.XLookupKeysym(ctypes.byref(event), 0), "keycode": p.button}
    return None


def main(out_path):
    x = load_xlib()
    display, width, height = open_window(x)
    with open(out_path, "a", encoding="utf-8") as out:
        def write(record):
            out.write(json.dumps(record) + "\n")
            out.flush()

        write({"type": "ready", "width": width, "height": height})
        event = XEvent()
        while True:
            x.XNextEvent(display, ctypes.byref(event))
            record = describe(x, event)
            if record:
                write(record)


if __name__ == "__main__":
    main(sys.argv[1])
