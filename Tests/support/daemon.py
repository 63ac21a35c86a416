"""Starts and stops a real `touchdeck serve` for the Python tests, with its own config dir, port and
XDG folders, so tests never touch the user's files. Stopped by PID."""

import json
import os
import pathlib
import re
import socket
import subprocess
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINARY = pathlib.Path(os.environ.get("TOUCHDECK_BIN", ROOT / ".build" / "debug" / "touchdeck"))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Daemon:
    """One host process. `home` holds HOME and the XDG dirs; `config_dir` is passed with --config-dir; `binary`
    (default BINARY) is the touchdeck it runs, `cwd` the folder it runs in. A host with no config.json shows the
    starter deck (issue 22), so unless `first_run` the first start finds an empty config (`{}`: one empty
    "Default" deck) and every test begins with the empty deck it expects; a config the test wrote is kept."""

    def __init__(self, home=None, env=None, binary=None, cwd=None, first_run=False):
        self.first_run = first_run
        self.binary = pathlib.Path(binary or BINARY)
        self.cwd = cwd
        assert self.binary.exists(), f"{self.binary} is missing: run `swift build` first"
        self.home = pathlib.Path(home or tempfile.mkdtemp(prefix="touchdeck-home-"))
        self.config_dir = self.home / "config"
        self.port = free_port()
        self.env = {**os.environ, "HOME": str(self.home), "XDG_CONFIG_HOME": str(self.home / ".config"),
                    "XDG_DATA_HOME": str(self.home / ".local/share"), "XDG_STATE_HOME": str(self.home / ".local/state"),
                    "XDG_RUNTIME_DIR": str(self.home / "run"), "SHELL": "/bin/bash", **(env or {})}
        (self.home / "run").mkdir(mode=0o700, parents=True, exist_ok=True)
        self.process = None
        self.started = False
        self.log_path = self.home / "touchdeck.log"

    @property
    def https(self):
        return f"https://127.0.0.1:{self.port}/"

    @property
    def wss(self):
        return f"wss://127.0.0.1:{self.port}/ws"

    def start(self):
        """Starts the daemon and returns once it serves: its own "serving" line (logged after the port and
        the control socket are open), not merely an open port, which may belong to another test run on this
        machine that took the port between `free_port` and the bind. A first start that loses its port that
        way moves to a fresh one; a restart keeps its port (devices reconnect to it)."""
        config = self.config_dir / "config.json"
        if not self.first_run and not self.started and not config.exists():
            config.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            config.write_text("{}")
        for _ in range(1 if self.started else 5):
            if self._launch():
                self.started = True
                return self
            self.port = free_port()
        raise AssertionError(f"touchdeck could not listen on a free port:\n{self.log()}")

    def _launch(self):
        """True once serving; False when the port was taken; raises on any other failure."""
        offset = self.log_path.stat().st_size if self.log_path.exists() else 0
        log = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            [str(self.binary), "serve", "--port", str(self.port), "--config-dir", str(self.config_dir)],
            env=self.env, stdout=log, stderr=subprocess.STDOUT, cwd=self.cwd)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            since_launch = self.log_path.read_bytes()[offset:].decode(errors="replace")
            if self.process.poll() is not None:
                if "cannot listen on port" in since_launch:
                    return False
                raise AssertionError(f"touchdeck exited early:\n{self.log()}")
            if re.search(r"\] serving\b", since_launch):
                return True
            time.sleep(0.05)
        raise AssertionError(f"touchdeck did not start serving on {self.port}:\n{self.log()}")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def saved_layout(self, text=None):
        """The shared current profile's deck in config.json (PROTOCOL §6 "Profiles"), or in `text`, a copy of it."""
        config = json.loads(text if text is not None else (self.config_dir / "config.json").read_bytes())
        if "profiles" not in config:  # the empty config a test's first start writes: the host saved nothing yet
            return {"pages": []}
        return next(p["layout"] for p in config["profiles"] if p["name"] == config["currentProfile"])

    def cli(self, *args, check=True):
        """Runs `touchdeck ARGS --config-dir …` against this daemon; returns stdout."""
        done = subprocess.run([str(self.binary), *args, "--config-dir", str(self.config_dir)], env=self.env,
                              capture_output=True, text=True, timeout=20)
        if check:
            assert done.returncode == 0, f"touchdeck {' '.join(args)} failed: {done.stdout}{done.stderr}"
        return done.stdout

    def cli_failure(self, *args):
        """Runs `touchdeck ARGS --config-dir …`, which must fail (exit 1) and print nothing to stdout; returns
        what it said on stderr."""
        done = subprocess.run([str(BINARY), *args, "--config-dir", str(self.config_dir)], env=self.env,
                              capture_output=True, text=True, timeout=20)
        assert done.returncode == 1 and done.stdout == "", f"touchdeck {' '.join(args)}: {done}"
        return done.stderr

    def pin(self):
        """A fresh PIN from `touchdeck pair`."""
        out = self.cli("pair")
        match = re.search(r"\b(\d{6})\b", out)
        assert match, f"no PIN in `touchdeck pair` output:\n{out}"
        return match.group(1)

    def log(self):
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


def rss(pid):
    """A process's resident memory in bytes (VmRSS, from /proc)."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")
