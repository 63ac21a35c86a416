"""Holds a test desktop's server still, so a test can put a host in a state that would otherwise pass in a moment,
without timing anything: while it holds, whatever the host asks that server waits (off the host's actor).

`x_server_grabbed()`: a connection of our own grabs the X server ($DISPLAY, the test desktop's Xvfb): every other
client's requests wait until it ungrabs (the host's monitors, lock probe, capture and keyboard included).
`sound_server_stopped()`: the private PulseAudio `scripts/with-desktop` started for this run (found by the socket
in $PULSE_SERVER, never by name alone) is stopped with SIGSTOP, and continued with SIGCONT however the block ends.
"""

import contextlib
import ctypes
import ctypes.util
import os
import pathlib
import signal


@contextlib.contextmanager
def x_server_grabbed():
    """The X server grabbed by this process for the block (XGrabServer, synced, so it holds when the block starts)."""
    x = ctypes.cdll.LoadLibrary(ctypes.util.find_library("X11"))
    x.XOpenDisplay.restype = ctypes.c_void_p
    x.XOpenDisplay.argtypes = [ctypes.c_char_p]
    for call in (x.XGrabServer, x.XUngrabServer, x.XCloseDisplay):
        call.argtypes = [ctypes.c_void_p]
    x.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
    display = x.XOpenDisplay(None)
    assert display, "cannot open $DISPLAY to grab it"
    try:
        x.XGrabServer(display)
        x.XSync(display, 0)
        yield
    finally:
        x.XUngrabServer(display)
        x.XSync(display, 0)
        x.XCloseDisplay(display)


def sound_server_pid():
    """The PID of the PulseAudio serving $PULSE_SERVER (a `unix:` socket that with-desktop named on its command
    line)."""
    server = os.environ.get("PULSE_SERVER", "")
    assert server.startswith("unix:"), "PULSE_SERVER is not with-desktop's private socket: run under scripts/with-desktop"
    wanted = f"socket={server[len('unix:'):]}".encode()
    found = []
    for entry in pathlib.Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if argv and argv[0].endswith(b"pulseaudio") and any(wanted in arg for arg in argv):
            found.append(int(entry.name))
    assert len(found) == 1, f"expected one PulseAudio serving {server}, found {found}"
    return found[0]


@contextlib.contextmanager
def sound_server_stopped():
    """The test desktop's PulseAudio stopped (SIGSTOP) for the block, continued (SIGCONT) after it."""
    pid = sound_server_pid()
    os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(pid, signal.SIGCONT)
