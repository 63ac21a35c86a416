"""An X app that copies and then misbehaves: `python xowner.py never|stall READY_FILE`.

It takes CLIPBOARD and then either never answers a request for it (`never`), or answers TARGETS, starts an INCR
transfer of UTF8_STRING and never sends a chunk (`stall`). READY_FILE is written once it owns the selection.
Written with ctypes so the tests need no extra Python package.
"""

import ctypes
import sys

import xkeys  # noqa: E402  (run as a script, this folder is on the path)

SELECTION_REQUEST, SELECTION_NOTIFY = 30, 31
XA_ATOM = 4


class XSelectionRequestEvent(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                ("display", ctypes.c_void_p), ("owner", ctypes.c_ulong), ("requestor", ctypes.c_ulong),
                ("selection", ctypes.c_ulong), ("target", ctypes.c_ulong), ("property", ctypes.c_ulong),
                ("time", ctypes.c_ulong)]


class XSelectionEvent(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                ("display", ctypes.c_void_p), ("requestor", ctypes.c_ulong), ("selection", ctypes.c_ulong),
                ("target", ctypes.c_ulong), ("property", ctypes.c_ulong), ("time", ctypes.c_ulong)]


class Event(ctypes.Union):
    _fields_ = [("type", ctypes.c_int), ("request", XSelectionRequestEvent), ("notify", XSelectionEvent),
                ("pad", ctypes.c_long * 24)]


def main(mode, ready_path):
    x = xkeys.load_xlib()
    x.XInternAtom.restype = ctypes.c_ulong
    x.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    x.XSetSelectionOwner.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    x.XChangeProperty.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_int,
                                  ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
    x.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.c_void_p]
    display = x.XOpenDisplay(None)
    if not display:
        sys.exit("xowner: cannot open display")
    atom = lambda name: x.XInternAtom(display, name.encode(), 0)  # noqa: E731
    clipboard, targets, utf8, incr = atom("CLIPBOARD"), atom("TARGETS"), atom("UTF8_STRING"), atom("INCR")
    window = x.XCreateSimpleWindow(display, x.XDefaultRootWindow(display), 0, 0, 1, 1, 0, 0, 0)
    x.XSetSelectionOwner(display, clipboard, window, 0)
    x.XSync(display, 0)
    open(ready_path, "w").close()
    event = Event()
    while True:
        x.XNextEvent(display, ctypes.byref(event))
        if event.type != SELECTION_REQUEST or mode == "never":
            continue
        request = event.request
        if request.target == targets:
            items = (ctypes.c_long * 2)(targets, utf8)
            x.XChangeProperty(display, request.requestor, request.property, XA_ATOM, 32, 0, items, 2)
        elif request.target == utf8:
            size = (ctypes.c_long * 1)(5000)
            x.XChangeProperty(display, request.requestor, request.property, incr, 32, 0, size, 1)
        answer = Event()
        answer.notify = XSelectionEvent(SELECTION_NOTIFY, 0, 1, display, request.requestor, request.selection,
                                        request.target, request.property, request.time)
        x.XSendEvent(display, request.requestor, 0, 0, ctypes.byref(answer))
        x.XSync(display, 0)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
