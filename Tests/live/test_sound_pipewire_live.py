"""Sound while viewing against PipeWire's PulseAudio server (pipewire-pulse with WirePlumber and a null sink,
started for the test by `scripts/with-pipewire`), not PulseAudio: the tone an app plays reaches the device at
1 kHz with nothing lost, and stopScreen gives the speakers back with the app on them and no TouchDeck sink."""

import pytest

from livehelpers import Daemon, run
from soundhelpers import OURS, SPEAKERS, App, Received, default_sink, eventually, pactl, sinks, tone_file
from test_pipewire_live import PrivatePipeWire
from test_sound_live import audio_packets, viewer_with_sound


@pytest.fixture
def pipewire(tmp_path, monkeypatch):
    servers = PrivatePipeWire(tmp_path / "pipewire").start()
    monkeypatch.setenv("PULSE_SERVER", servers.server)  # pactl and paplay in soundhelpers talk to it too
    yield servers
    servers.stop()


def test_pipewire_routes_the_sound_to_the_device_and_gives_it_back(tmp_path, pipewire):
    assert "on PipeWire" in pactl("info")
    host = Daemon(home=tmp_path / "home").start()
    app = App(tone_file(tmp_path, 20))
    app.stream()
    try:
        async def scenario():
            client, started = await viewer_with_sound(host)
            assert started["audio"] is True
            moved = eventually(lambda: app.sink() == sinks().get(OURS) and default_sink() == OURS)
            packets = await audio_packets(client, 300)
            await client.send({"type": "stopScreen"})
            await client.recv_type("screenStopped", timeout=10)
            await client.close()
            return moved, Received(packets)

        moved, received = run(scenario())
        restored = eventually(lambda: OURS not in sinks() and default_sink() == SPEAKERS and
                              app.sink() == sinks().get(SPEAKERS))
    finally:
        app.stop()
        host.stop()
    assert moved, "the app's stream was not moved onto our sink"
    assert len(received.tone) > 200, "the tone did not reach the device"
    assert abs(received.peak_hz() - 1000) <= 2
    lost = received.lost_samples()
    assert lost < 0.01 * 480 * len(received.tone), f"breaks (at, missing, silence before): {received.breaks()}"
    assert restored, f"not restored: default {default_sink()}, sinks {sinks()}"
