"""An X client that records each key going down and coming up: `python xkeyevents.py OUT_FILE`.

Like xkeys.py it opens a window under $DISPLAY and takes the input focus; each KeyPress is appended to OUT_FILE as
`down NAME` and each KeyRelease as `up NAME`, NAME being the keysym of the key's first level (`Control_L`,
`Shift_L`, `m`), so a test sees which keys are held and in which order they come up. Detectable auto-repeat is
asked for: a key the server repeats while it is held shows as more `down` lines, never as an `up` it did not have.
"""

import ctypes
import subprocess
import sys

from xkeys import EXPOSURE_MASK, KEY_PRESS, KEY_PRESS_MASK, REVERT_TO_PARENT, XEvent, load_xlib

KEY_RELEASE = 3
KEY_RELEASE_MASK = 1 << 1


def main(out_path):
    x = load_xlib()
    x.XLookupKeysym.restype = ctypes.c_ulong
    x.XLookupKeysym.argtypes = [ctypes.c_void_p, ctypes.c_int]
    x.XKeysymToString.restype = ctypes.c_char_p
    x.XKeysymToString.argtypes = [ctypes.c_ulong]
    x.XkbSetDetectableAutoRepeat.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p]
    display = x.XOpenDisplay(None)
    if not display:
        sys.exit("xkeyevents: cannot open display")
    x.XkbSetDetectableAutoRepeat(display, 1, None)
    window = x.XCreateSimpleWindow(display, x.XDefaultRootWindow(display), 0, 0, 200, 100, 0, 0, 0)
    x.XSelectInput(display, window, KEY_PRESS_MASK | KEY_RELEASE_MASK | EXPOSURE_MASK)
    x.XMapWindow(display, window)
    x.XSync(display, 0)
    x.XSetInputFocus(display, window, REVERT_TO_PARENT, 0)
    x.XSync(display, 0)
    with open(out_path, "a", encoding="utf-8") as out:
        out.write("")  # the file existing tells the test the window is ready
        out.flush()
        event = XEvent()
        while True:
            x.XNextEvent(display, ctypes.byref(event))
            if event.type not in (KEY_PRESS, KEY_RELEASE):
                continue
            name = x.XKeysymToString(x.XLookupKeysym(ctypes.byref(event.xkey), 0))
            out.write(f"{'down' if event.type == KEY_PRESS else 'up'} {(name or b'?').decode()}\n")
            out.flush()


def start(out_path):
    """The recorder in a process of its own, writing to `out_path`; the file appears once its window is ready."""
    return subprocess.Popen([sys.executable, __file__, str(out_path)])


def without_repeats(lines):
    """The `down`/`up` lines with the auto-repeated downs of a key already down left out."""
    kept, down = [], set()
    for line in lines:
        kind, name = line.split(" ", 1)
        if kind == "down" and name in down:
            continue
        (down.add if kind == "down" else down.discard)(name)
        kept.append(line)
    return kept


if __name__ == "__main__":
    main(sys.argv[1])
