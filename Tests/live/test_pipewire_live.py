"""The live volume on the real daemon against PipeWire's PulseAudio server (pipewire-pulse with WirePlumber and
a null sink, started per test by `scripts/with-pipewire`), not PulseAudio: a pactl change reaches a device,
setVolume and toggleMute reach the server, and a daemon started before PipeWire finds it once it is up."""

import asyncio
import pathlib
import subprocess

import pytest

from deskhome import eventually
from livehelpers import ROOT, Daemon, paired_device, run
from test_desktop_live import until_volume

WITH_PIPEWIRE = ROOT / "scripts" / "with-pipewire"


class PrivatePipeWire:
    """The servers live as long as `scripts/with-pipewire --dir` runs; it runs `touch ready` only once the null
    sink is the default, and stops the servers by PID when terminated."""

    def __init__(self, folder):
        self.dir = pathlib.Path(folder)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.server = f"unix:{self.dir / 'run/pulse/native'}"
        self.ready = self.dir / "ready"
        self.process = None

    def start(self):
        self.ready.unlink(missing_ok=True)
        output = open(self.dir / "with-pipewire.out", "wb")
        self.process = subprocess.Popen(
            [str(WITH_PIPEWIRE), "--dir", str(self.dir), "sh", "-c", 'touch "$1" && exec sleep infinity', "sh",
             str(self.ready)], stdout=output, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        output.close()
        eventually(lambda: self.ready.exists() or self.process.poll() is not None, timeout=60)
        if not self.ready.exists():
            said = (self.dir / "with-pipewire.out").read_text(errors="replace")
            self.stop()
            pytest.fail(f"PipeWire did not start (scripts/bootstrap test installs it):\n{said}")
        return self

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(20)
        self.process = None

    def pactl(self, *args):
        done = subprocess.run(["pactl", f"--server={self.server}", *args], capture_output=True, text=True,
                              timeout=10)
        assert done.returncode == 0, f"pactl {' '.join(args)} failed: {done.stderr}"
        return done.stdout

    def percent(self):
        return int(self.pactl("get-sink-volume", "@DEFAULT_SINK@").split("/")[1].strip().rstrip("%"))

    def muted(self):
        return self.pactl("get-sink-mute", "@DEFAULT_SINK@").strip().endswith("yes")


@pytest.fixture
def pipewire(tmp_path):
    servers = PrivatePipeWire(tmp_path / "pipewire").start()
    yield servers
    servers.stop()


@pytest.fixture
def host(tmp_path, pipewire):
    daemon = Daemon(home=tmp_path / "home", env={"PULSE_SERVER": pipewire.server}).start()
    yield daemon
    daemon.stop()


def test_the_server_is_pipewire(pipewire):
    assert "Server Name: PulseAudio (on PipeWire" in pipewire.pactl("info")
    assert pipewire.pactl("get-default-sink").strip() == "touchdeck_null"


def test_a_pactl_change_reaches_a_device(host, pipewire):
    async def scenario():
        client, _, _ = await paired_device(host, "Tablet")
        first = await client.recv_type("volume")
        assert first["available"] is True and abs(first["level"] - pipewire.percent() / 100) < 0.01
        await asyncio.to_thread(pipewire.pactl, "set-sink-volume", "@DEFAULT_SINK@", "45%")
        assert (await until_volume(client, lambda v: abs(v["level"] - 0.45) < 0.01))["available"] is True
        await asyncio.to_thread(pipewire.pactl, "set-sink-mute", "@DEFAULT_SINK@", "1")
        assert (await until_volume(client, lambda v: v["muted"]))["available"] is True
        await client.close()

    run(scenario())


def test_set_volume_and_mute_are_seen_by_pactl(host, pipewire):
    assert pipewire.muted() is False

    async def scenario():
        client, _, _ = await paired_device(host, "Tablet")
        await client.recv_type("volume")
        await client.send({"type": "setVolume", "level": 0.3})
        await until_volume(client, lambda v: abs(v["level"] - 0.3) < 0.01)
        await client.send({"type": "toggleMute"})
        await until_volume(client, lambda v: v["muted"])
        await client.close()

    run(scenario())
    assert eventually(lambda: pipewire.percent() == 30), f"pactl says {pipewire.percent()}%"
    assert pipewire.muted() is True


def test_a_daemon_started_before_pipewire_finds_it(tmp_path):
    pipewire = PrivatePipeWire(tmp_path / "pipewire")
    host = Daemon(home=tmp_path / "home", env={"PULSE_SERVER": pipewire.server}).start()
    try:
        async def before():
            client, _, _ = await paired_device(host, "Tablet")
            assert (await client.recv_type("volume"))["available"] is False
            return client

        async def after(client):
            assert (await until_volume(client, lambda v: v["available"], timeout=20))["level"] == 1
            await client.send({"type": "setVolume", "level": 0.25})
            await until_volume(client, lambda v: abs(v["level"] - 0.25) < 0.01)
            await client.close()

        loop = asyncio.new_event_loop()
        try:
            client = loop.run_until_complete(before())
            pipewire.start()
            loop.run_until_complete(after(client))
        finally:
            loop.close()
        assert eventually(lambda: pipewire.percent() == 25), f"pactl says {pipewire.percent()}%"
        assert eventually(lambda: "sound server found" in host.log()), host.log()
    finally:
        host.stop()
        pipewire.stop()
