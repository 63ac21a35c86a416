"""`--encoder auto` on a computer without a usable GPU (issue 19, point 19): the host finds out once, when it
starts, that neither h264_nvenc nor h264_vaapi opens, says so at info level, and every viewing then opens
x264 without a warning. Before, each viewing start logged the hardware encoders' failure as a warning."""

import pathlib
import sys

from livehelpers import Daemon, paired_device, run

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "support"))
from xscreen import VirtualScreen  # noqa: E402


async def view_once(client):
    await client.send({"type": "listDisplays"})
    displays = await client.recv_type("displays", timeout=20)
    assert displays["status"] == "ok", displays
    await client.send({"type": "startScreen", "displayId": displays["displays"][0]["id"], "maxSide": 640, "fps": 30})
    await client.recv_type("screenStarted", timeout=20)
    await client.recv_binary(timeout=20)
    await client.send({"type": "stopScreen"})
    await client.recv_type("screenStopped", timeout=20)


def test_viewings_under_auto_log_no_encoder_warning(tmp_path):
    with VirtualScreen(640, 480) as screen:
        host = Daemon(home=tmp_path, env={"DISPLAY": screen.display}).start()
        try:
            async def scenario():
                client, _, _ = await paired_device(host, "Tablet")
                host.cli("devices", "allow-screen", "Tablet", "on")
                for _ in range(3):
                    await view_once(client)
                await client.close()

            run(scenario())
        finally:
            host.stop()
    lines = host.log().splitlines()
    about_hardware = [line for line in lines if "h264_nvenc" in line or "h264_vaapi" in line]
    assert not [line for line in about_hardware if "[warning]" in line], "\n".join(about_hardware)
    assert len([line for line in about_hardware if "did not open" in line]) <= 1, "\n".join(about_hardware)
