"""A throwaway desktop for the live press/volume/keypad tests: HOME and the XDG dirs under a temp folder,
holding desktop entries with icons, recorder scripts, a fake terminal and a `~/.bashrc` with an alias.
Each recorder writes what it saw into `home/records/<name>`, so a test can check what really ran."""

import base64
import os
import pathlib
import struct
import subprocess
import time
import zlib

# A real 2x2 PNG: the catalog must hand these exact bytes to the device.
def tiny_png():
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    rows = b"".join(b"\x00" + b"\xff\x00\x00" * 2 for _ in range(2))
    header = struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


PNG = tiny_png()
SVG = b'<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64"/></svg>'


class DeskHome:
    """Builds the folder tree; `env` is what the daemon needs on top of livehelpers' Daemon defaults."""

    def __init__(self, root):
        self.home = pathlib.Path(root)
        self.records = self.home / "records"
        self.bin = self.home / "bin"
        self.data = self.home / ".local/share"
        self.system = self.home / "system-share"  # stands in for /usr/share, so the host's own apps stay out
        self.work = self.home / "work dir"  # a space, to prove the folder is passed as one argument
        for folder in (self.records, self.bin, self.data / "applications", self.system / "applications", self.work):
            folder.mkdir(parents=True, exist_ok=True)
        self._icons()
        self._programs()
        self._entries()
        (self.home / ".bashrc").write_text(f"alias blogrun='echo alias ran > \"{self.records}/alias\"'\n")

    @property
    def env(self):
        return {"XDG_DATA_DIRS": str(self.system), "TERMINAL": str(self.bin / "alacritty"), "SHELL": "/bin/bash",
                "LANG": "ko_KR.UTF-8", "LC_ALL": "", "LC_MESSAGES": "",
                "PATH": f"{self.bin}:{os.environ.get('PATH', '/usr/bin:/bin')}"}

    def record(self, name):
        path = self.records / name
        return path.read_text() if path.exists() else None

    def _icons(self):
        hicolor = self.data / "icons/hicolor"
        (hicolor / "48x48/apps").mkdir(parents=True)
        (hicolor / "scalable/apps").mkdir(parents=True)
        (hicolor / "index.theme").write_text(
            "[Icon Theme]\nName=Hicolor\nDirectories=48x48/apps,scalable/apps\n\n"
            "[48x48/apps]\nSize=48\nType=Fixed\n\n[scalable/apps]\nSize=64\nType=Scalable\n")
        (hicolor / "48x48/apps/td-recorder.png").write_bytes(PNG)
        (hicolor / "scalable/apps/td-sketch.svg").write_bytes(SVG)

    def _script(self, name, body):
        path = self.bin / name
        path.write_text("#!/bin/sh\n" + body)
        path.chmod(0o755)

    def _programs(self):
        # Each writes its record through a temp file and a rename, so a reader never sees half of it.
        save = f'save() {{ printf "%s" "$2" > "{self.records}/$1.tmp" && mv "{self.records}/$1.tmp" "{self.records}/$1"; }}\n'
        self._script("td-recorder", save + 'save app "args=$*|cwd=$(pwd)"\n')
        self._script("alacritty", save + 'save terminal "args=$*|cwd=$(pwd)"\n')

    def _entries(self):
        apps = self.data / "applications"
        (apps / "td-recorder.desktop").write_text(
            "[Desktop Entry]\nType=Application\nName=Recorder\nName[ko]=녹음기\n"
            f"Exec=td-recorder --flag %U\nPath={self.work}\nIcon=td-recorder\n")
        (apps / "td-sketch.desktop").write_text(
            "[Desktop Entry]\nType=Application\nName=Sketch\nExec=td-recorder sketch\nIcon=td-sketch\n")
        (apps / "td-hidden.desktop").write_text(
            "[Desktop Entry]\nType=Application\nName=Hidden helper\nExec=td-recorder\nNoDisplay=true\n")
        (apps / "td-broken.desktop").write_text(
            '[Desktop Entry]\nType=Application\nName=Broken\nExec=td-recorder "unterminated\n')
        (apps / "td-gone.desktop").write_text(
            "[Desktop Entry]\nType=Application\nName=Gone\nExec=td-not-installed-anywhere\n")


def data_url_bytes(url, mime):
    prefix = f"data:{mime};base64,"
    assert url and url.startswith(prefix), f"not a {mime} data URL: {str(url)[:60]}"
    return base64.b64decode(url[len(prefix):])


def eventually(check, timeout=10.0, every=0.02):
    """Polls `check` until it returns something truthy; returns it, or the last value after `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(every)


def pactl(*args):
    done = subprocess.run(["pactl", *args], capture_output=True, text=True, timeout=10)
    assert done.returncode == 0, f"pactl {' '.join(args)} failed: {done.stderr}"
    return done.stdout


def sink_percent():
    """The default sink's volume in percent (first channel), as `pactl` reports it."""
    out = pactl("get-sink-volume", "@DEFAULT_SINK@")
    return int(out.split("/")[1].strip().rstrip("%"))


def sink_muted():
    return pactl("get-sink-mute", "@DEFAULT_SINK@").strip().endswith("yes")
