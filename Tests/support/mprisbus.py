"""A private session bus and the fake MPRIS player on it (fake_mpris.py), for the media-key tests: no player of
the desktop the tests run on is reached. Both are stopped by PID."""

import os
import pathlib
import signal
import subprocess
from contextlib import contextmanager

FAKE_PLAYER = pathlib.Path(__file__).resolve().parent / "fake_mpris.py"


@contextmanager
def private_bus():
    """A forked dbus-daemon; yields its address."""
    out = subprocess.run(["dbus-daemon", "--session", "--fork", "--print-address=1", "--print-pid=1"],
                         capture_output=True, text=True, check=True, timeout=10).stdout.split("\n")
    address, pid = out[0].strip(), int(out[1])
    try:
        yield address
    finally:
        os.kill(pid, signal.SIGTERM)


@contextmanager
def fake_player(bus, calls, name="testplayer", status="Paused", tracks=None):
    """The fake player `name` on `bus`, writing each call it gets to `calls`; yields a function reading them. With
    `tracks` (a JSON file, see fake_mpris.py) it plays them."""
    extra = [str(tracks)] if tracks else []
    process = subprocess.Popen(["/usr/bin/python3", str(FAKE_PLAYER), name, str(calls), status, *extra],
                               stdout=subprocess.PIPE, text=True, env={**os.environ, "DBUS_SESSION_BUS_ADDRESS": bus})
    try:
        assert process.stdout.readline().strip() == "ready", "the fake player did not take its name"
        yield lambda: calls.read_text().splitlines() if calls.exists() else []
    finally:
        process.terminate()
        process.wait(10)
