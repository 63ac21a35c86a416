"""Plays the window manager's part in the focus for the tests (EWMH): X windows with a WM_CLASS of the test's
choosing, and the root window's `_NET_ACTIVE_WINDOW` set to the one that "has the focus", as a window manager sets
it. Xvfb under scripts/with-desktop runs no window manager, so the test is the one that names the active window.
Written with ctypes so the tests need no extra Python package."""

import ctypes
import ctypes.util

PROP_MODE_REPLACE = 0
XA_WINDOW = 33


class XClassHint(ctypes.Structure):
    _fields_ = [("res_name", ctypes.c_char_p), ("res_class", ctypes.c_char_p)]


class FakeWindowManager:
    """One X connection that makes windows and names the active one."""

    def __init__(self, display=None):
        x = ctypes.cdll.LoadLibrary(ctypes.util.find_library("X11"))
        x.XOpenDisplay.restype = ctypes.c_void_p
        x.XOpenDisplay.argtypes = [ctypes.c_char_p]
        x.XDefaultRootWindow.restype = ctypes.c_ulong
        x.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
        x.XCreateSimpleWindow.restype = ctypes.c_ulong
        x.XCreateSimpleWindow.argtypes = [ctypes.c_void_p, ctypes.c_ulong] + [ctypes.c_int] * 2 + [ctypes.c_uint] * 3 \
            + [ctypes.c_ulong] * 2
        x.XSetClassHint.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(XClassHint)]
        x.XInternAtom.restype = ctypes.c_ulong
        x.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
        x.XChangeProperty.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_int,
                                      ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
        x.XDeleteProperty.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong]
        x.XMapWindow.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
        x.XDestroyWindow.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
        x.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
        x.XCloseDisplay.argtypes = [ctypes.c_void_p]
        self.x = x
        self.display = x.XOpenDisplay(display.encode() if display else None)
        assert self.display, "cannot open the X display"
        self.root = x.XDefaultRootWindow(self.display)
        self.active_atom = x.XInternAtom(self.display, b"_NET_ACTIVE_WINDOW", 0)

    def window(self, instance, window_class):
        """A mapped top-level window whose WM_CLASS is (instance, window_class)."""
        window = self.x.XCreateSimpleWindow(self.display, self.root, 0, 0, 200, 100, 0, 0, 0)
        self.set_class(window, instance, window_class)
        self.x.XMapWindow(self.display, window)
        self.x.XSync(self.display, 0)
        return window

    def set_class(self, window, instance, window_class):
        hint = XClassHint(instance.encode(), window_class.encode())
        self.x.XSetClassHint(self.display, window, ctypes.byref(hint))
        self.x.XSync(self.display, 0)

    def activate(self, window):
        """Names `window` the active one on the root window, as a window manager does when it gives it the focus;
        None: no window has the focus (the property is deleted, as when the desktop itself is focused)."""
        if window is None:
            self.x.XDeleteProperty(self.display, self.root, self.active_atom)
        else:
            value = ctypes.c_ulong(window)
            self.x.XChangeProperty(self.display, self.root, self.active_atom, XA_WINDOW, 32, PROP_MODE_REPLACE,
                                   ctypes.byref(value), 1)
        self.x.XSync(self.display, 0)

    def destroy(self, window):
        self.x.XDestroyWindow(self.display, window)
        self.x.XSync(self.display, 0)

    def close(self):
        self.activate(None)
        self.x.XCloseDisplay(self.display)
