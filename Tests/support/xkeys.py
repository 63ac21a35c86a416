"""A tiny X client that records what is typed into it: `python xkeys.py OUT_FILE`.

It opens a window under $DISPLAY, takes the input focus, and appends each key press to OUT_FILE as the
text XLookupString gives (or `<Return>` / `<BackSpace>` for those keys), so a test can check what a
device's keypad really produced on the X server — whatever keyboard layout is active.
Written with ctypes so the tests need no extra Python package.
"""

import ctypes
import ctypes.util
import sys

KEY_PRESS = 2
KEY_PRESS_MASK = 1 << 0
EXPOSURE_MASK = 1 << 15
REVERT_TO_PARENT = 2
NAMES = {0xFF0D: "<Return>", 0xFF8D: "<Return>", 0xFF08: "<BackSpace>"}


class XKeyEvent(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                ("display", ctypes.c_void_p), ("window", ctypes.c_ulong), ("root", ctypes.c_ulong),
                ("subwindow", ctypes.c_ulong), ("time", ctypes.c_ulong), ("x", ctypes.c_int), ("y", ctypes.c_int),
                ("x_root", ctypes.c_int), ("y_root", ctypes.c_int), ("state", ctypes.c_uint),
                ("keycode", ctypes.c_uint), ("same_screen", ctypes.c_int)]


class XEvent(ctypes.Union):
    _fields_ = [("type", ctypes.c_int), ("xkey", XKeyEvent), ("pad", ctypes.c_long * 24)]


def load_xlib():
    """libX11 with the calls a recorder window needs typed (xtext.py adds its input-method calls)."""
    x = ctypes.cdll.LoadLibrary(ctypes.util.find_library("X11"))
    x.XOpenDisplay.restype = ctypes.c_void_p
    x.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x.XDefaultRootWindow.restype = ctypes.c_ulong
    x.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
    x.XSelectInput.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_long]
    x.XMapWindow.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
    x.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
    x.XSetInputFocus.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_ulong]
    x.XNextEvent.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    x.XCreateSimpleWindow.restype = ctypes.c_ulong
    x.XCreateSimpleWindow.argtypes = [ctypes.c_void_p, ctypes.c_ulong] + [ctypes.c_int] * 4 + [ctypes.c_uint] + [ctypes.c_ulong] * 2
    return x


def record(out_path, line, name="xkeys"):
    """Opens the focused recording window and appends `line(event, text, keysym)` to OUT_PATH for every key
    press, `text` being what XLookupString gives (or NAMES' name of the key). The file is created once the window
    has the focus, which tells the test it is ready."""
    x = load_xlib()
    x.XLookupString.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p]
    display = x.XOpenDisplay(None)
    if not display:
        sys.exit(f"{name}: cannot open display")
    # Follow keymap changes (setxkbmap while recording): Xlib refreshes its cached keymap only on the XKB events
    # a client selected (XkbNewKeyboardNotify | XkbMapNotify, for the core keyboard 0x100).
    x.XkbSelectEvents.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_ulong, ctypes.c_ulong]
    x.XkbSelectEvents(display, 0x100, 3, 3)
    window = x.XCreateSimpleWindow(display, x.XDefaultRootWindow(display), 0, 0, 200, 100, 0, 0, 0)
    x.XSelectInput(display, window, KEY_PRESS_MASK | EXPOSURE_MASK)
    x.XMapWindow(display, window)
    x.XSync(display, 0)
    x.XSetInputFocus(display, window, REVERT_TO_PARENT, 0)
    x.XSync(display, 0)
    with open(out_path, "a", encoding="utf-8") as out:
        out.write("")  # the file existing tells the test the window is ready
        out.flush()
        event = XEvent()
        buffer = ctypes.create_string_buffer(32)
        keysym = ctypes.c_ulong()
        while True:
            x.XNextEvent(display, ctypes.byref(event))
            if event.type != KEY_PRESS:
                continue
            n = x.XLookupString(ctypes.byref(event.xkey), buffer, 32, ctypes.byref(keysym), None)
            out.write(line(event, buffer.raw[:n].decode("utf-8", "replace"), keysym.value))
            out.flush()


def main(out_path):
    record(out_path, lambda event, text, keysym: NAMES.get(keysym) or text)


if __name__ == "__main__":
    main(sys.argv[1])
