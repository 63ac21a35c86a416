"""The CLI as a user meets it on the first run (issue 19, points 10, 11, 18): one address in `status`, `pair`,
the setup page and `make run`'s announcement, with `pair`'s QR code leading through the setup page; `doctor`
in a second terminal reporting the running daemon's desktop and sound; `devices` aligned with wide names;
sizes written as the web client writes them; `--help` saying what each command does."""

import os
import pathlib
import re
import signal
import subprocess
import sys
import time
import unicodedata
import urllib.request


from livehelpers import ROOT, Daemon, paired_device, run
from daemon import BINARY, free_port

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "support"))
from xscreen import VirtualScreen  # noqa: E402


def columns(text):
    """Terminal columns, as wcwidth counts them: East Asian wide and fullwidth 2, combining and format 0."""
    def width(ch):
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf", "Cc"):
            return 0
        return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return sum(width(ch) for ch in text)


def web_sizes(sizes):
    """`formatSize` of the web client (Web/core/recording.js) for each size, run by node."""
    script = ("import('./Web/core/recording.js').then(m => console.log(JSON.stringify("
              f"{list(sizes)}.map(m.formatSize))))")
    done = subprocess.run(["node", "--input-type=module", "-e", script], cwd=ROOT, capture_output=True, text=True,
                          check=True, timeout=30)
    import json
    return json.loads(done.stdout)


def status_url(host):
    out = host.cli("status")
    match = re.search(r"^TouchDeck on .* — (https://\S+)$", out, re.M)
    assert match, out
    return match.group(1)


def test_status_pair_and_the_setup_page_give_one_address_and_pairs_code_is_the_setup_page(daemon):
    url = status_url(daemon)
    setup = re.sub(r"^https://([^/]+)/$", r"http://\1/setup", url)
    assert setup != url, url
    assert f"Setup page for a new device: {setup}" in daemon.cli("status")
    pair = daemon.cli("pair")
    assert f"open {url} and enter the PIN" in pair, pair
    assert f"open {setup} —" in pair, pair
    # The QR code printed is the setup page's address, drawn as qrencode draws it.
    drawn = subprocess.run(["qrencode", "-t", "UTF8", "-m", "2", "-o", "-", setup], capture_output=True, text=True,
                           check=True).stdout
    assert drawn in pair
    page = urllib.request.urlopen(f"http://127.0.0.1:{daemon.port}/setup", timeout=10).read().decode()
    assert f'<a id="app-link" href="{url}">' in page, "the setup page leads to the address status gives"


def test_make_runs_announcement_gives_the_same_address_and_the_setup_page(tmp_path):
    host = Daemon(home=tmp_path)  # only for its environment and config dir; run-host starts the daemon
    port = free_port()
    env = {**host.env, "TOUCHDECK_BIN": str(BINARY), "DISPLAY": os.environ.get("DISPLAY", ":0")}
    process = subprocess.Popen(["scripts/run-host", "--port", str(port), "--config-dir", str(host.config_dir)],
                               cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                               start_new_session=True)
    try:
        lines = []
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not any("Stop: Ctrl-C." in line for line in lines):
            lines.append(process.stdout.readline())
        text = "".join(lines)
        host.port = port
        url = status_url(host)
        assert f"TouchDeck is running at {url}" in text, text
        assert f"open {url.replace('https://', 'http://')}setup once" in text, text
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(20)


def test_doctor_in_a_shell_without_a_desktop_reports_the_running_daemons_desktop_and_sound(tmp_path):
    desktop = os.environ.get("DISPLAY")
    assert desktop and os.environ.get("PULSE_SERVER"), "run under scripts/with-desktop"
    host = Daemon(home=tmp_path).start()  # the daemon has with-desktop's Xvfb and PulseAudio
    try:
        shell = {k: v for k, v in host.env.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "XDG_SESSION_TYPE")}
        shell["PULSE_SERVER"] = f"unix:{tmp_path}/no-sound-server"
        own = subprocess.run([str(BINARY), "doctor", "--config-dir", str(tmp_path / "nothing-here")], env=shell,
                             capture_output=True, text=True, timeout=60).stdout
        assert "FAIL desktop:" in own and "FAIL sound server:" in own, "this shell itself has neither:\n" + own
        out = subprocess.run([str(BINARY), "doctor", "--config-dir", str(host.config_dir)], env=shell,
                             capture_output=True, text=True, timeout=60).stdout
        assert re.search(r"^ok   desktop: X11.*\(in the running daemon\)$", out, re.M), out
        assert f"ok   display: {desktop} is open (in the running daemon)" in out, out
        assert re.search(r"^ok   sound server: Server Name: .*\(in the running daemon\)$", out, re.M), out
        assert "ok   daemon: answering" in out, out
        assert "ok   clipboard: CLIPBOARD through XFixes" in out, out
        assert "ok   focused app: _NET_ACTIVE_WINDOW and WM_CLASS property events" in out, out
    finally:
        host.stop()


def test_devices_keeps_its_columns_with_wide_and_combining_names(daemon):
    names = ["会議室のiPad", "한국어 태블릿", "Pixel 8", "Ｆｕｌｌ", "Cafe\u0301 tablet"]

    async def scenario():
        for name in names:
            client, _, _ = await paired_device(daemon, name)
            await client.close()

    run(scenario())
    daemon.cli("devices", "allow-screen", "Pixel 8", "on")
    lines = daemon.cli("devices").splitlines()
    header = lines[0]
    starts = [header.index(title) for title in ("SCREEN", "EDIT", "CLIPBOARD", "LAST SEEN", "ID")]
    table = lines[1:lines.index("")]
    assert len(table) == len(names), lines
    assert any(line.startswith("EDIT on: the device may add and change keys") for line in lines), lines
    for line in table:
        # Cells are apart by two spaces or more; inside one ("connected now", a date, a name) by one.
        cells = re.split(r"(?<=\S)  +(?=\S)", line)
        found, position = [], 0
        for cell in cells[:-1]:
            position = line.index(cell, position) + len(cell)
            rest = line[position:]
            found.append(columns(line[:position]) + len(rest) - len(rest.lstrip(" ")))
        assert found == starts, (line, found, starts)


def recordings_host(tmp_path, display=None):
    home = tmp_path / "home"
    videos = tmp_path / "videos"
    (home / ".config").mkdir(parents=True)
    (home / ".config" / "user-dirs.dirs").write_text(f'XDG_VIDEOS_DIR="{videos}"\n')
    env = {"DISPLAY": display} if display else {}
    return Daemon(home=home, env=env).start(), videos / "TouchDeck"


def test_record_list_writes_each_size_as_the_web_client_does(tmp_path):
    host, folder = recordings_host(tmp_path)
    try:
        sizes = [0, 999, 1000, 1049, 1050, 1250, 1949, 99_950, 999_999, 1_250_000, 12_345_678, 2_500_000_000]
        folder.mkdir(parents=True)
        for index, size in enumerate(sizes):
            with open(folder / f"clip {index:02}.mp4", "wb") as out:
                out.truncate(size)
        listed = {m.group(1): m.group(2) for m in re.finditer(r"^  (clip \d+\.mp4)  \d+:\d\d  (.+)$",
                                                             host.cli("record", "list"), re.M)}
        expected = web_sizes(sizes)
        assert [listed[f"clip {i:02}.mp4"] for i in range(len(sizes))] == expected
        assert "0 KB" not in listed.values()
    finally:
        host.stop()


def test_record_stop_says_the_saved_files_size_as_the_web_client_does(tmp_path):
    with VirtualScreen(320, 240) as screen:
        host, folder = recordings_host(tmp_path, screen.display)
        try:
            assert "Recording" in host.cli("record", "start")
            time.sleep(1.5)
            out = host.cli("record", "stop")
        finally:
            host.stop()
    match = re.search(r"^Saved (.+\.mp4) \(\d+:\d\d, (.+)\) in ", out, re.M)
    assert match, out
    size = (folder / match.group(1)).stat().st_size
    assert match.group(2) == web_sizes([size])[0], (out, size)


def test_help_says_what_each_command_does():
    out = subprocess.run([str(BINARY), "--help"], capture_output=True, text=True, check=True).stdout
    listed = out.split("commands:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    names = ["serve", "pair", "devices", "status", "disconnect-viewer", "record", "profile", "doctor", "key", "press"]
    assert [line.split()[0] for line in listed] == names, out
    for line in listed:
        assert len(line.split(None, 1)[1]) >= 15, f"no description: {line!r}"
    for name in names:
        own = subprocess.run([str(BINARY), name, "--help"], capture_output=True, text=True, check=True).stdout
        summary = next(line for line in listed if line.split()[0] == name).split(None, 1)[1]
        assert own.startswith(f"usage: touchdeck {name}") and summary in own, own
