"""mDNS: the daemon publishes `_touchdeck._tcp` through a private D-Bus + avahi-daemon that
`scripts/with-avahi` starts; without Avahi it warns once and keeps serving."""

import pathlib
import socket
import subprocess

from livehelpers import BINARY, ROOT, free_port

SCRIPT = """
"$TOUCHDECK_BIN" serve --port "$PORT" --config-dir "$CONFIG" >"$LOG" 2>&1 &
daemon=$!
found=""
for _ in $(seq 100); do
    found=$(avahi-browse -rtp _touchdeck._tcp 2>/dev/null | grep "^=" | grep ";$PORT;")
    [ -n "$found" ] && break
    sleep 0.1
done
echo "$found"
kill "$daemon"
wait "$daemon"
"""


def test_service_is_visible_to_avahi_browse(tmp_path):
    port = free_port()
    log = tmp_path / "daemon.log"
    env = {"TOUCHDECK_BIN": str(BINARY), "PORT": str(port), "CONFIG": str(tmp_path / "config"), "LOG": str(log),
           "PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "HOME": str(tmp_path)}
    done = subprocess.run([str(ROOT / "scripts" / "with-avahi"), "bash", "-c", SCRIPT], env=env,
                          capture_output=True, text=True, timeout=120)
    records = [line.split(";") for line in done.stdout.splitlines() if line.startswith("=")]
    assert records, f"no _touchdeck._tcp record\n{done.stdout}{done.stderr}\n{log.read_text()}"
    assert all(r[4] == "_touchdeck._tcp" and r[8] == str(port) for r in records)
    assert records[0][3] == socket.gethostname()
    assert "advertising over mDNS" in log.read_text()


def test_without_avahi_the_host_warns_once_and_serves(tmp_path):
    port = free_port()
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path),
           "DBUS_SYSTEM_BUS_ADDRESS": f"unix:path={tmp_path}/no-bus"}
    process = subprocess.Popen([str(BINARY), "serve", "--port", str(port), "--config-dir", str(tmp_path / "c")],
                               env=env, stderr=subprocess.PIPE, text=True)
    said = []
    try:
        # The host is ready once it says it serves (its port opens a moment before the setup page is rendered).
        for line in process.stderr:
            said.append(line)
            if "serving" in line:
                break
        assert process.poll() is None, "".join(said)
        served = subprocess.run(["curl", "-sS", f"http://127.0.0.1:{port}/setup"], capture_output=True, text=True)
        assert "Set up TouchDeck" in served.stdout
    finally:
        process.terminate()
        _, err = process.communicate(timeout=10)
    err = "".join(said) + err
    assert err.count("mDNS unavailable") == 1, err
