"""Sound while viewing (PROTOCOL §6 "Screen", §7 "Audio"; DESIGN.md#sound), end to end under scripts/with-desktop: the
real daemon routes the private PulseAudio's sound to its own null sink, records that sink's monitor and sends 10 ms
packets to the Python reference client. What is checked: a 1 kHz tone arrives at 1 kHz and its level with under
1 % of it lost; the speakers' sink stays silent and untouched while a device listens; after stopScreen, after
the client disconnects and after `kill -9` of the host and a restart, the speakers are the default again, the
app plays on them and no TouchDeck sink is left; muted speakers stay muted."""

import asyncio
import os

import pytest

from livehelpers import Daemon, paired_device, run
from soundhelpers import (OURS, SPEAKERS, App, MonitorRecorder, Received, default_sink, eventually, pactl, sink_inputs,
                          sinks, tone_file, volume_and_mute)
from touchdeck.packets import parse_audio

pytestmark = pytest.mark.skipif("PULSE_SERVER" not in os.environ, reason="needs scripts/with-desktop")


def clean():
    return default_sink() == SPEAKERS and OURS not in sinks()


@pytest.fixture
def host(tmp_path):
    assert clean(), "a previous test left the sound routed"
    # The speakers as a user's would be before a device listens: full volume, not muted. The private sound server
    # is shared by every live test, and the volume tests leave the speakers wherever their gauge put them.
    pactl("set-sink-volume", SPEAKERS, "100%")
    pactl("set-sink-mute", SPEAKERS, "0")
    host = Daemon(home=tmp_path).start()
    yield host
    host.stop()
    # A host that stops restores the speakers before it exits (unless the test killed it on purpose).
    assert eventually(clean, timeout=10), f"the host left the sound routed when it stopped:\n{host.log()}"


async def viewer_with_sound(host, name="Tablet"):
    client, _, _ = await paired_device(host, name)
    host.cli("devices", "allow-screen", name, "on")
    await client.send({"type": "listDisplays"})
    display = (await client.recv_type("displays", timeout=20))["displays"][0]
    await client.send({"type": "startScreen", "displayId": display["id"], "maxSide": 640, "fps": 30, "audio": True})
    started = await client.recv_type("screenStarted", timeout=20)
    return client, started


async def audio_packets(client, count, timeout=10):
    """The next `count` audio packets (video packets, first byte 1, are skipped)."""
    packets = []
    while len(packets) < count:
        data = await client.recv_binary(timeout=timeout)
        if data[0] == 2:
            packets.append(parse_audio(data))
    return packets


def test_a_1khz_tone_arrives_at_1khz_and_its_level_with_under_1_percent_lost(host, tmp_path):
    tone = tone_file(tmp_path, 13)

    async def scenario():
        client, started = await viewer_with_sound(host)
        assert started["audio"] is True
        app = App(tone)  # starts after the routing: plays on the default, our sink
        try:
            packets, heard = [], 0
            while heard < 1000:  # 10 s of the tone; the reader does little else, so it keeps up
                batch = await audio_packets(client, 10)
                packets += batch
                heard += sum(1 for p in batch if 0 not in p.samples[1::2])
        finally:
            app.stop()
        await client.close()
        return packets

    received = Received(run(scenario()))
    print(*[line for line in host.log().splitlines() if "sound" in line], sep="\n")
    lost = received.lost_samples()
    tone_samples = sum(int((p[:, 1] != 0).sum()) for p in received.packets)
    print(f"peak {received.peak_hz():.1f} Hz, level {received.level():.4f}, {lost} of {tone_samples + lost} samples lost; gaps {received.gaps()}")
    assert all(p.shape == (480, 2) for p in received.packets)
    assert abs(received.peak_hz() - 1000) <= 2
    assert abs(received.level() - 0.5 / 2**0.5) < 0.01
    assert lost < 0.01 * (tone_samples + lost)


def test_while_a_device_listens_the_speakers_are_silent_and_untouched(host, tmp_path):
    before = volume_and_mute(SPEAKERS)
    app = App(tone_file(tmp_path, 30), device=SPEAKERS)  # already playing on the speakers
    app.stream()
    speakers = MonitorRecorder(f"{SPEAKERS}.monitor")

    async def scenario():
        eventually(lambda: len(speakers.parts[0]) > 48000)  # the tone on the speakers, heard
        client, started = await viewer_with_sound(host)
        assert started["audio"] is True
        moved = eventually(lambda: app.sink() is not None and app.sink() == sinks().get(OURS))
        pinned = speakers.pin()
        await asyncio.sleep(0.2)  # what the speakers' monitor still held from before the move
        speakers.mark()
        packets = Received(await audio_packets(client, 150))
        speakers.mark()  # the restore that follows the close plays the tone on the speakers again
        await client.close()
        return moved, packets, pinned

    try:
        moved, packets, pinned = run(scenario())
    finally:
        (heard, heard_count), (after, after_count), _ = speakers.peaks()
        app.stop()
    print(f"speakers before routing: peak {heard:.3f} over {heard_count} samples; while routed: peak {after} "
          f"over {after_count} samples")
    assert heard > 0.4, "the recorder did not hear the tone on the speakers before routing"
    assert moved, "the app's stream stayed on the speakers"
    assert len(packets.tone) > 50, "the app's tone did not reach the device"
    assert volume_and_mute(SPEAKERS) == before
    if not pinned:
        pytest.skip("this server moved the speakers' recorder onto our monitor and would not move it back "
                    "(pipewire-pulse 0.3): the speakers' silence is shown by the app's stream being on our sink")
    assert after == 0.0, f"the speakers played while a device listened (peak {after})"


@pytest.mark.parametrize("ending,muted", [("stop", False), ("disconnect", False), ("kill", True)])
def test_after_viewing_ends_the_speakers_are_back_as_they_were(host, tmp_path, ending, muted):
    pactl("set-sink-mute", SPEAKERS, "1" if muted else "0")
    before = volume_and_mute(SPEAKERS)
    app = App(tone_file(tmp_path, 60))
    app.stream()

    async def scenario():
        client, started = await viewer_with_sound(host)
        assert started["audio"] is True
        assert eventually(lambda: app.sink() == sinks().get(OURS) and default_sink() == OURS)
        if ending == "stop":
            await client.send({"type": "stopScreen"})
            assert (await client.recv_type("screenStopped", timeout=10))["reason"] == "requested"
        elif ending == "disconnect":
            await client.close()
        else:
            host.process.kill()
            host.process.wait()
            assert default_sink() == OURS, "routing should survive the kill until the next start"
            host.start()

    try:
        run(scenario())
        restored = eventually(lambda: OURS not in sinks() and default_sink() == SPEAKERS and
                              app.sink() == sinks().get(SPEAKERS))
        state = (default_sink(), sorted(sinks()), app.sink(), sink_inputs())
        after = volume_and_mute(SPEAKERS)
    finally:
        app.stop()
        pactl("set-sink-mute", SPEAKERS, "0")
    assert restored, f"not restored: {state}\n{host.log()}"
    assert after == before
    assert not (host.home / ".local/state/touchdeck/sound-routing.json").exists()


@pytest.mark.parametrize("undo", ["doctor --fix", "a start with another config dir"])
def test_after_a_kill_the_routing_is_undone_without_the_same_config_dir(host, tmp_path, undo):
    # The record was kept in the config dir: only a start with that same dir found it.
    app = App(tone_file(tmp_path, 60))
    app.stream()
    other = None

    async def scenario():
        client, started = await viewer_with_sound(host)
        assert started["audio"] is True
        assert eventually(lambda: app.sink() == sinks().get(OURS) and default_sink() == OURS)
        host.process.kill()
        host.process.wait()

    try:
        run(scenario())
        assert default_sink() == OURS
        record = host.home / ".local/state/touchdeck/sound-routing.json"
        assert record.exists()
        if undo == "doctor --fix":
            out = host.cli("doctor", "--fix", check=False)
            assert "gave the sound back to the speakers" in out, out
            assert "nothing to fix" in host.cli("doctor", "--fix", check=False)
        else:
            other = Daemon(home=host.home)
            other.config_dir = host.home / "another-config"
            other.start()
        restored = eventually(lambda: OURS not in sinks() and default_sink() == SPEAKERS and
                              app.sink() == sinks().get(SPEAKERS))
        state = (default_sink(), sorted(sinks()), app.sink(), sink_inputs())
    finally:
        app.stop()
        if other is not None:
            other.stop()
    assert restored, f"not restored: {state}\n{host.log()}"
    assert not record.exists()


def test_the_volume_gauge_keeps_showing_and_driving_the_speakers_while_routed(host):
    speakers_before = volume_and_mute(SPEAKERS)

    async def scenario():
        client, started = await viewer_with_sound(host)
        assert started["audio"] is True and default_sink() == OURS
        await client.send({"type": "setVolume", "level": 0.3})
        changed = eventually(lambda: "30%" in volume_and_mute(SPEAKERS)[0])
        volume = await client.recv_type("volume", timeout=10)
        while abs(volume["level"] - 0.3) > 0.01:
            volume = await client.recv_type("volume", timeout=10)
        ours = volume_and_mute(OURS)
        await client.close()
        return changed, volume, ours

    try:
        changed, volume, ours = run(scenario())
    finally:
        pactl("set-sink-volume", SPEAKERS, "100%")
    assert changed, f"the speakers' volume did not follow the gauge: {volume_and_mute(SPEAKERS)}"
    assert abs(volume["level"] - 0.3) < 0.01
    assert "100%" in ours[0], f"the gauge drove our sink: {ours}"
    assert "100%" in speakers_before[0]


def test_without_a_sound_server_the_video_starts_without_sound(tmp_path):
    host = Daemon(home=tmp_path, env={"PULSE_SERVER": f"unix:{tmp_path}/no-such-server"}).start()
    try:
        async def scenario():
            client, started = await viewer_with_sound(host)
            video = await client.recv_binary(timeout=10)
            await client.send({"type": "screenOptions", "fps": 30, "audio": True})  # asked again: still no sound
            await client.send({"type": "stopScreen"})
            stopped = await client.recv_type("screenStopped", timeout=10)
            await client.close()
            return started, video, stopped

        started, video, stopped = run(scenario())
    finally:
        host.stop()
    assert started["audio"] is False and started["width"] > 0
    assert video[0] == 1, "the video runs"
    assert stopped["reason"] == "requested"
    assert "sound for the viewer could not start" in host.log()


def test_another_default_sink_while_routed_is_where_the_sound_goes_back_to(host, tmp_path):
    app = App(tone_file(tmp_path, 30))
    app.stream()
    module = None
    try:
        async def scenario():
            nonlocal module
            client, started = await viewer_with_sound(host)
            assert started["audio"] is True
            assert eventually(lambda: app.sink() == sinks().get(OURS))
            # Headphones plugged in and picked while a device listens.
            module = pactl("load-module", "module-null-sink", "sink_name=headphones").strip()
            pactl("set-default-sink", "headphones")
            followed = eventually(lambda: default_sink() == OURS and app.sink() == sinks().get(OURS))
            await client.send({"type": "stopScreen"})
            await client.recv_type("screenStopped", timeout=10)
            await client.close()
            return followed

        followed = run(scenario())
        back = eventually(lambda: default_sink() == "headphones" and app.sink() == sinks().get("headphones")
                          and OURS not in sinks())
        state = (default_sink(), sinks(), app.sink())
    finally:
        app.stop()
        pactl("set-default-sink", SPEAKERS)
        if module:
            pactl("unload-module", module)
    assert followed, "our sink did not stay the default"
    assert back, f"the sound did not go to the newly chosen sink: {state}"
