"""The release build, briefly, as `make run` starts it: a crash that only an optimized build has (one once
reached only `make bench`) fails `make test` here. `make test-release` builds it and sets TOUCHDECK_BIN.

Pairs a device, views one monitor until a frame decodes, records one second and fetches the file."""

import asyncio
import hashlib
import pathlib
import subprocess
import sys

import av

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests" / "live"))
sys.path.insert(0, str(ROOT / "Tests" / "support"))
from livehelpers import BINARY, Daemon, fetch_whole, paired_device, run  # noqa: E402
from touchdeck.packets import parse_video  # noqa: E402
from xscreen import VirtualScreen, XImageAccess  # noqa: E402

WIDTH, HEIGHT = 800, 600


def test_the_release_binary_pairs_views_a_frame_and_records_a_second(tmp_path):
    assert "release" in BINARY.parts, f"run through `make test-release` (TOUCHDECK_BIN is {BINARY})"
    with VirtualScreen(WIDTH, HEIGHT) as screen:
        access = XImageAccess(screen.display)
        access.fill(0, 0, WIDTH, HEIGHT, 0x2266AA)
        access.close()
        host = Daemon(home=tmp_path, env={"DISPLAY": screen.display}).start()
        try:
            async def scenario():
                client, _, _ = await paired_device(host, "Release tablet")
                host.cli("devices", "allow-screen", "Release tablet", "on")
                await client.send({"type": "listDisplays"})
                displays = await client.recv_type("displays", timeout=30)
                display = displays["displays"][0]
                await client.send({"type": "startScreen", "displayId": display["id"], "maxSide": WIDTH, "fps": 30})
                started = await client.recv_type("screenStarted", timeout=30)
                packet = parse_video(await client.recv_binary(timeout=30))
                frames = av.CodecContext.create("h264", "r").decode(av.Packet(packet.frame))
                await client.send({"type": "stopScreen"})
                await client.recv_type("screenStopped", timeout=30)
                await client.send({"type": "recordStart", "displayId": display["id"], "fps": 30})
                state = await client.recv_type("recordState", timeout=30)
                if state["state"] == "idle":  # the state sent right after authorizing
                    state = await client.recv_type("recordState", timeout=30)
                assert state["state"] == "recording", state
                await asyncio.sleep(1)
                await client.send({"type": "recordStop"})
                stopped = await client.recv_type("recordState", timeout=30)
                received, chunk = await fetch_whole(client, stopped["name"])
                await client.close()
                return started, frames, stopped, chunk, received

            started, frames, stopped, chunk, received = run(scenario())
        finally:
            host.stop()
    assert (started["width"], started["height"]) == (WIDTH, HEIGHT)
    assert len(frames) == 1 and (frames[0].width, frames[0].height) == (WIDTH, HEIGHT)
    assert stopped["state"] == "idle" and stopped["reason"] == "requested" and stopped["elapsedMs"] >= 900
    assert chunk["sha256"] == hashlib.sha256(received).hexdigest()
    path = tmp_path / "recording.mp4"
    path.write_bytes(received)
    probe = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0",
                            str(path)], capture_output=True, text=True, timeout=60)
    assert float(probe.stdout) >= 0.9, probe
