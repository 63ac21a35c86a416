"""A private X server for screen tests: Xvfb at a chosen size on a free display number (Xvfb picks it and
reports it through -displayfd), XRandR monitors defined with `xrandr --setmonitor`, and rectangles of known
colours painted on the root window by a tiny Xlib client (ctypes), so a test knows every pixel a grab must see.
The server is stopped by PID."""

import ctypes
import os
import subprocess


class VirtualScreen:
    """`with VirtualScreen(3000, 1200) as screen:` — `screen.display` is its DISPLAY value."""

    def __init__(self, width, height):
        self.size = f"{width}x{height}x24"
        self.process = None
        self.display = None

    def __enter__(self):
        read, write = os.pipe()
        # -noreset: the server would otherwise reset (and forget the monitors and the painting) each time its
        # last client disconnects, e.g. between `xrandr` and the host connecting.
        self.process = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write), "-screen", "0", self.size, "-nolisten", "tcp", "-noreset"],
            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write)
        with os.fdopen(read) as numbers:
            number = numbers.readline().strip()
        assert number, "Xvfb did not report a display number"
        self.display = f":{number}"
        return self

    def __exit__(self, *_):
        self.process.terminate()
        self.process.wait(10)

    def xrandr(self, *args):
        subprocess.run(["xrandr", *args], env={**os.environ, "DISPLAY": self.display}, check=True,
                       capture_output=True, timeout=20)

    def set_monitor(self, name, x, y, width, height, output="none"):
        """Defines an XRandR monitor (1 mm per 4 px; the size in mm is not used here)."""
        self.xrandr("--setmonitor", name, f"{width}/{width // 4}x{height}/{height // 4}+{x}+{y}", output)

    def monitors(self):
        return subprocess.run(["xrandr", "--listactivemonitors"], env={**os.environ, "DISPLAY": self.display},
                              check=True, capture_output=True, text=True, timeout=20).stdout

    def paint(self, rectangles):
        """Fills each (x, y, width, height, 0xRRGGBB) on the root window, in order, and waits until the server
        has drawn them (the colour is the pixel value on a 24-bit TrueColor screen)."""
        x11 = ctypes.CDLL("libX11.so.6")
        x11.XOpenDisplay.restype = ctypes.c_void_p
        x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
        x11.XDefaultRootWindow.restype = ctypes.c_ulong
        x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
        x11.XCreateGC.restype = ctypes.c_void_p
        x11.XCreateGC.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_void_p]
        x11.XSetForeground.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_ulong]
        x11.XFillRectangle.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_void_p, ctypes.c_int, ctypes.c_int,
                                       ctypes.c_uint, ctypes.c_uint]
        x11.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
        x11.XFreeGC.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
        display = x11.XOpenDisplay(self.display.encode())
        assert display, f"cannot open {self.display}"
        root = x11.XDefaultRootWindow(display)
        gc = x11.XCreateGC(display, root, 0, None)
        for x, y, width, height, colour in rectangles:
            x11.XSetForeground(display, gc, colour)
            x11.XFillRectangle(display, root, gc, x, y, width, height)
        x11.XSync(display, 0)
        x11.XFreeGC(display, gc)
        x11.XCloseDisplay(display)


class XImageAccess:
    """Puts whole BGRX pictures on the root window of `display` and reads them back (XPutImage/XGetImage),
    through one Xlib connection kept open for a test's painting loop."""

    Z_PIXMAP = 2
    ALL_PLANES = 0xFFFFFFFF

    def __init__(self, display):
        x11 = ctypes.CDLL("libX11.so.6")
        x11.XOpenDisplay.restype = ctypes.c_void_p
        x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
        x11.XDefaultRootWindow.restype = ctypes.c_ulong
        x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
        x11.XDefaultVisual.restype = ctypes.c_void_p
        x11.XDefaultVisual.argtypes = [ctypes.c_void_p, ctypes.c_int]
        x11.XCreateGC.restype = ctypes.c_void_p
        x11.XCreateGC.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_void_p]
        x11.XCreateImage.restype = ctypes.c_void_p
        x11.XCreateImage.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_int,
                                     ctypes.c_char_p, ctypes.c_uint, ctypes.c_uint, ctypes.c_int, ctypes.c_int]
        x11.XPutImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int,
                                  ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_uint, ctypes.c_uint]
        x11.XGetImage.restype = ctypes.c_void_p
        x11.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int, ctypes.c_uint,
                                  ctypes.c_uint, ctypes.c_ulong, ctypes.c_int]
        x11.XSetForeground.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_ulong]
        x11.XFillRectangle.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_void_p, ctypes.c_int, ctypes.c_int,
                                       ctypes.c_uint, ctypes.c_uint]
        x11.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
        x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
        self.x11 = x11
        self.display = x11.XOpenDisplay(display.encode())
        assert self.display, f"cannot open {display}"
        self.root = x11.XDefaultRootWindow(self.display)
        self.gc = x11.XCreateGC(self.display, self.root, 0, None)

    def put(self, bgrx, x, y, width, height):
        """Draws `bgrx` (width*height*4 bytes) at (x, y) and waits until the server has it."""
        visual = self.x11.XDefaultVisual(self.display, 0)
        buffer = ctypes.create_string_buffer(bytes(bgrx), len(bgrx))
        image = self.x11.XCreateImage(self.display, visual, 24, self.Z_PIXMAP, 0, buffer, width, height, 32,
                                      width * 4)
        self.x11.XPutImage(self.display, self.root, self.gc, image, 0, 0, x, y, width, height)
        self.x11.XSync(self.display, 0)
        # The image struct points into `buffer` (Python owns it): free only the struct, not the data.
        ctypes.CDLL("libc.so.6").free(ctypes.c_void_p(image))

    def fill(self, x, y, width, height, colour):
        self.x11.XSetForeground(self.display, self.gc, colour)
        self.x11.XFillRectangle(self.display, self.root, self.gc, x, y, width, height)
        self.x11.XSync(self.display, 0)

    def grab(self, x, y, width, height):
        """The root window's pixels there as BGRX bytes (a screenshot)."""
        image = self.x11.XGetImage(self.display, self.root, x, y, width, height, self.ALL_PLANES, self.Z_PIXMAP)
        assert image, "XGetImage failed"

        class XImageHead(ctypes.Structure):
            _fields_ = [("width", ctypes.c_int), ("height", ctypes.c_int), ("xoffset", ctypes.c_int),
                        ("format", ctypes.c_int), ("data", ctypes.c_void_p), ("byte_order", ctypes.c_int),
                        ("bitmap_unit", ctypes.c_int), ("bitmap_bit_order", ctypes.c_int),
                        ("bitmap_pad", ctypes.c_int), ("depth", ctypes.c_int), ("bytes_per_line", ctypes.c_int)]

        head = XImageHead.from_address(image)
        rows = [ctypes.string_at(head.data + row * head.bytes_per_line, width * 4) for row in range(height)]
        libc = ctypes.CDLL("libc.so.6")
        libc.free(ctypes.c_void_p(head.data))
        libc.free(ctypes.c_void_p(image))
        return b"".join(rows)

    def close(self):
        self.x11.XCloseDisplay(self.display)
