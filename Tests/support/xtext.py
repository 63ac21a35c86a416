"""A tiny X text field that records what it receives: `python xtext.py OUT_FILE [WM_CLASS]`.

It opens a window under $DISPLAY, takes the input focus and turns each key press into text the way an X
application does: through an input context of Xlib's own input method (Xutf8LookupString in a UTF-8 locale),
so Unicode keysyms arrive as their characters and Latin-1 ones as theirs, whatever the layout. Keys that are
not characters are written as `<Name>` (`<Return>`, `<BackSpace>`, `<ISO_Left_Tab>`…), and a character typed
with Control, Alt or Super held as `<Ctrl+x>`, `<Alt+Tab>`, `<Ctrl+Shift+T>`. Every press is appended to OUT_FILE at once, so a test can read what landed.
Written with ctypes so the tests need no extra Python package.
"""

import ctypes
import ctypes.util
import locale
import sys

# The key event's layout and the shared masks are the keypad recorder's (run as a script, this folder is on the path).
import xkeys  # noqa: E402
from xkeys import EXPOSURE_MASK, KEY_PRESS, KEY_PRESS_MASK, REVERT_TO_PARENT, XEvent  # noqa: E402

FOCUS_CHANGE_MASK = 1 << 21
SHIFT_MASK = 1 << 0
CONTROL_MASK = 1 << 2
MOD1_MASK = 1 << 3  # Alt
MOD4_MASK = 1 << 6  # Super
XIM_PREEDIT_NOTHING = 0x0008
XIM_STATUS_NOTHING = 0x0400
XLOOKUP_CHARS, XLOOKUP_KEYSYM, XLOOKUP_BOTH = 2, 3, 4


def load_xlib():
    """The keypad recorder's libX11, plus the input-method calls."""
    x = xkeys.load_xlib()
    x.XFilterEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
    x.XSetLocaleModifiers.restype = ctypes.c_char_p
    x.XSetLocaleModifiers.argtypes = [ctypes.c_char_p]
    x.XOpenIM.restype = ctypes.c_void_p
    x.XOpenIM.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p]
    x.XCreateIC.restype = ctypes.c_void_p
    x.Xutf8LookupString.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int,
                                    ctypes.c_void_p, ctypes.c_void_p]
    x.XKeysymToString.restype = ctypes.c_char_p
    x.XKeysymToString.argtypes = [ctypes.c_ulong]
    return x


class XClassHint(ctypes.Structure):
    _fields_ = [("res_name", ctypes.c_char_p), ("res_class", ctypes.c_char_p)]


def main(out_path, window_class=None):
    locale.setlocale(locale.LC_ALL, "C.UTF-8")
    x = load_xlib()
    display = x.XOpenDisplay(None)
    if not display:
        sys.exit("xtext: cannot open display")
    x.XSetLocaleModifiers(b"@im=none")  # Xlib's built-in input method: no IM server, keysyms → UTF-8
    im = x.XOpenIM(display, None, None, None)
    if not im:
        sys.exit("xtext: no input method")
    window = x.XCreateSimpleWindow(display, x.XDefaultRootWindow(display), 0, 0, 300, 100, 0, 0, 0)
    ic = x.XCreateIC(ctypes.c_void_p(im), b"inputStyle", ctypes.c_long(XIM_PREEDIT_NOTHING | XIM_STATUS_NOTHING),
                     b"clientWindow", ctypes.c_ulong(window), b"focusWindow", ctypes.c_ulong(window), None)
    if not ic:
        sys.exit("xtext: no input context")
    if window_class:  # a terminal's class, say: the host pastes there with Ctrl+Shift+V
        hint = XClassHint(window_class.lower().encode(), window_class.encode())
        x.XSetClassHint.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(XClassHint)]
        x.XSetClassHint(display, window, ctypes.byref(hint))
    x.XSelectInput(display, window, KEY_PRESS_MASK | EXPOSURE_MASK | FOCUS_CHANGE_MASK)
    x.XMapWindow(display, window)
    x.XSync(display, 0)
    x.XSetInputFocus(display, window, REVERT_TO_PARENT, 0)
    x.XSync(display, 0)
    with open(out_path, "a", encoding="utf-8") as out:
        out.write("")  # the file existing tells the test the field is ready
        out.flush()
        event = XEvent()
        buffer = ctypes.create_string_buffer(64)
        keysym = ctypes.c_ulong()
        status = ctypes.c_int()
        while True:
            x.XNextEvent(display, ctypes.byref(event))
            if x.XFilterEvent(ctypes.byref(event), 0) or event.type != KEY_PRESS:
                continue
            n = x.Xutf8LookupString(ctypes.c_void_p(ic), ctypes.byref(event.xkey), buffer, 64, ctypes.byref(keysym),
                                    ctypes.byref(status))
            text = buffer.raw[:n].decode("utf-8", "replace") if status.value in (XLOOKUP_CHARS, XLOOKUP_BOTH) else ""
            name = (x.XKeysymToString(keysym.value) or b"").decode() if status.value != XLOOKUP_CHARS else ""
            held = [label for mask, label in ((CONTROL_MASK, "Ctrl"), (MOD1_MASK, "Alt"), (MOD4_MASK, "Super"))
                    if event.xkey.state & mask]
            if held and event.xkey.state & SHIFT_MASK:
                held.append("Shift")
            if held and name and not name.endswith(("_L", "_R")):
                out.write(f"<{'+'.join(held)}+{name}>")
            elif text and text.isprintable():
                out.write(text)
            elif name and not name.endswith(("_L", "_R")):  # modifiers alone are not recorded
                out.write(f"<{name}>")
            out.flush()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)
