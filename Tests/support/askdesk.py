"""The real host with a test notification server (fake_notifications.py) on a private session bus, for the tests
of asking on the computer; `answer` sets the button the server presses for the next question."""

import json
import os
import pathlib
import subprocess

from daemon import Daemon
from mprisbus import private_bus

FAKE_SERVER = pathlib.Path(__file__).resolve().parent / "fake_notifications.py"


class AskingDesktop:
    def __init__(self, tmp_path, caps="actions,body", ask_seconds="1.5", env=None, bus=None):
        """On a private bus of its own, or on `bus` (an address the caller keeps)."""
        self.log = tmp_path / "notifications.jsonl"
        self.answer_file = tmp_path / "answer"
        self.answer("none")
        self.bus = private_bus() if bus is None else None
        address = self.bus.__enter__() if self.bus else bus
        self.server = subprocess.Popen(["/usr/bin/python3", str(FAKE_SERVER), str(self.log), str(self.answer_file),
                                        caps], stdout=subprocess.PIPE, text=True,
                                       env={**os.environ, "DBUS_SESSION_BUS_ADDRESS": address})
        assert self.server.stdout.readline().strip() == "ready", "the fake server did not take its name"
        self.host = Daemon(home=tmp_path / "home", env={"DBUS_SESSION_BUS_ADDRESS": address,
                                                        "TOUCHDECK_ASK_SECONDS": ask_seconds, **(env or {})}).start()

    def answer(self, key):
        self.answer_file.write_text(key)

    def _entries(self):
        return [json.loads(line) for line in self.log.read_text().splitlines()] if self.log.exists() else []

    def notifications(self):
        """Every notification shown, news and questions."""
        return [entry for entry in self._entries() if "summary" in entry]

    def questions(self):
        """The notifications with buttons: TouchDeck's questions (pairing and viewing news have none)."""
        return [entry for entry in self._entries() if entry.get("actions")]

    def closed(self):
        return [entry["closed"] for entry in self._entries() if "closed" in entry]

    def screen(self, name):
        """The device's SCREEN column in `touchdeck devices`."""
        line = next(line for line in self.host.cli("devices").splitlines() if line.startswith(name + "  "))
        return line[len(name):].split()[0]

    def stop(self):
        self.host.stop()
        self.server.terminate()
        self.server.wait(10)
        if self.bus:
            self.bus.__exit__(None, None, None)
