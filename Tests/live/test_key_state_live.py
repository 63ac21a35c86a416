"""Keys that show what is true (issue 23, PROTOCOL §6 "Live looks") on the real daemon: a key's state command prints
JSON lines that reach every device as `keyState` (at most 10 a second per key, the last line always); a command that
hangs, prints invalid JSON or crashes is contained and reported, crashes back off; no command outlives its key or
the host (its process group, found through /proc)."""

import asyncio
import json
import os
import pathlib
import subprocess
import time

import pytest

from deskhome import eventually
from livehelpers import Daemon, paired_device, run


@pytest.fixture
def host(tmp_path):
    daemon = Daemon(home=tmp_path / "home", env={"SHELL": "/bin/bash"}).start()
    yield daemon
    daemon.stop()


def state_key(command, every=None, label="Live"):
    source = {"command": command} if every is None else {"command": command, "every": every}
    return {"label": label, "kind": "command", "command": "true", "stateCommand": source}


async def set_key(client, index, button):
    await client.send({"type": "setButton", "page": 0, "index": index, "button": button})
    await client.recv_type("layout")


async def key_states_until(client, done, timeout=20):
    """keyState messages (with the local time each arrived) until `done(message)`."""
    seen = []
    deadline = time.monotonic() + timeout
    while True:
        message = await client.recv_type("keyState", timeout=max(0.1, deadline - time.monotonic()))
        seen.append((time.monotonic(), message))
        if done(message):
            return seen


def processes_with(marker):
    """{pid: process group} of every process whose command line holds `marker`."""
    found = {}
    for entry in pathlib.Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if marker.encode() in cmdline:
            found[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[2])
    return found


def processes_in(groups):
    """Pids of every live process in one of the process `groups`."""
    found = []
    for entry in pathlib.Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[2]) in groups:
            found.append(int(entry.name))
    return found


def test_a_state_command_updating_10_times_a_second_reaches_two_devices_in_order(host):
    lines = 30
    command = (f'for i in $(seq 1 {lines}); do echo "{{\\"label\\":\\"n$i\\",\\"value\\":0.5}}"; sleep 0.1; done; '
               "sleep 600")

    async def scenario():
        first, _, _ = await paired_device(host, "First")
        second, _, _ = await paired_device(host, "Second")
        await set_key(first, 0, state_key(command))
        await second.recv_type("layout")
        last = f"n{lines}"
        # Both read at once, so each message's arrival time is its own.
        seen = await asyncio.gather(*(key_states_until(client, lambda m: m["look"].get("label") == last)
                                      for client in (first, second)))
        # A burst: 500 lines at once; the last always arrives, the rest are coalesced.
        burst = 'for i in $(seq 1 500); do echo "{\\"label\\":\\"b$i\\"}"; done; sleep 600'
        await set_key(first, 1, state_key(burst))
        bursts = await key_states_until(first, lambda m: m["index"] == 1 and m["look"].get("label") == "b500")
        await first.close()
        await second.close()
        return seen, bursts

    seen, bursts = run(scenario())
    for arrivals in seen:
        messages = [m for _, m in arrivals]
        numbers = [int(m["look"]["label"][1:]) for m in messages if m["index"] == 0 and "label" in m["look"]]
        assert numbers == sorted(numbers) and numbers[-1] == lines, numbers
        assert all(m["profile"] == "Default" and m["page"] == 0 and "error" not in m for m in messages), messages
        assert messages[-1]["look"] == {"label": f"n{lines}", "value": 0.5}
        # At most 10 a second per key: n updates need at least (n - 1) / 10 s between the first and the last.
        assert len(numbers) <= 10 * (arrivals[-1][0] - arrivals[0][0]) + 3, (len(numbers), arrivals)
    burst_states = [m for _, m in bursts if m["index"] == 1]
    assert len(burst_states) < 50, len(burst_states)
    assert len(burst_states) <= 10 * (bursts[-1][0] - bursts[0][0]) + 3


def test_a_hanging_command_is_killed_and_reported(host):
    marker = f"td-hang-{os.getpid()}"

    async def scenario():
        client, _, _ = await paired_device(host, "Deck")
        await set_key(client, 0, state_key(f"echo '{{\"label\":\"tick\"}}'; sleep 600; : {marker}", every=1))
        states = await key_states_until(client, lambda m: "error" in m)
        await client.close()
        return [m for _, m in states]

    states = run(scenario())
    assert states[-1]["error"] == "did not finish within 1 s (killed)", states
    assert states[-1]["look"] == {"label": "tick"}


def test_invalid_json_is_reported_on_the_key(host):
    async def scenario():
        client, _, _ = await paired_device(host, "Deck")
        await set_key(client, 0, state_key("echo 'not json'; sleep 600"))
        states = await key_states_until(client, lambda m: "error" in m)
        await set_key(client, 1, state_key("""echo '{"color":"mauve"}'; sleep 600"""))
        bad_colour = await key_states_until(client, lambda m: m["index"] == 1 and "error" in m)
        await client.close()
        return states[-1][1], bad_colour[-1][1]

    invalid, bad_colour = run(scenario())
    assert invalid["error"] == "invalid JSON: not json", invalid
    assert bad_colour["error"].startswith("color is one of red, orange"), bad_colour


def test_a_crashing_command_backs_off_from_one_second_growing(host, tmp_path):
    starts = tmp_path / "starts.txt"

    async def scenario():
        client, _, _ = await paired_device(host, "Deck")
        await set_key(client, 0, state_key(f"date +%s.%N >> {starts}; exit 3"))
        crashed = await key_states_until(client, lambda m: "error" in m)
        assert eventually(lambda: starts.exists() and len(starts.read_text().split()) >= 4, timeout=30), \
            starts.read_text() if starts.exists() else "never started"
        await client.close()
        return crashed[-1][1]

    crashed = run(scenario())
    assert crashed["error"] == "exit 3", crashed
    times = [float(line) for line in starts.read_text().split()][:4]
    gaps = [later - earlier for earlier, later in zip(times, times[1:])]
    assert all(gap >= 1.0 for gap in gaps), gaps
    assert gaps[0] < gaps[1] < gaps[2], gaps


def test_no_command_outlives_its_key_or_the_host(host):
    deleted, kept = f"td-deleted-{os.getpid()}", f"td-kept-{os.getpid()}"

    def command(marker):
        # A background grandchild too: the whole process group must go.
        return f"echo '{{\"label\":\"up\"}}'; (sleep 600; : {marker}) & sleep 600; : {marker}"

    async def scenario():
        client, _, _ = await paired_device(host, "Deck")
        # One key at a time: waiting for the second key's layout drops what else arrives meanwhile.
        await set_key(client, 0, state_key(command(deleted)))
        await key_states_until(client, lambda m: m["index"] == 0 and m["look"].get("label") == "up")
        await set_key(client, 1, state_key(command(kept)))
        await key_states_until(client, lambda m: m["index"] == 1 and m["look"].get("label") == "up")
        assert eventually(lambda: len(processes_with(deleted)) >= 2 and len(processes_with(kept)) >= 2)
        groups = set(processes_with(deleted).values())
        await client.send({"type": "clearButton", "page": 0, "index": 0})
        # The clearing may come before or after the new layout.
        received = [await client.recv(timeout=10)]
        while not ({"layout", "keyState"} <= {m["type"] for m in received}):
            received.append(await client.recv(timeout=10))
        cleared = next(m for m in received if m["type"] == "keyState")
        await client.close()
        return groups, cleared

    groups, cleared = run(scenario())
    assert cleared == {"type": "keyState", "profile": "Default", "page": 0, "index": 0, "look": {}}, cleared
    assert eventually(lambda: not processes_in(groups)), processes_in(groups)
    assert processes_with(kept), "the other key's command still runs"
    kept_groups = set(processes_with(kept).values())
    host.stop()
    assert not processes_in(kept_groups), processes_in(kept_groups)
    assert not processes_with(kept) and not processes_with(deleted)


def test_key_set_100_times_reaches_a_device_and_leaves_config_json_unchanged(host):
    count = 100

    def script():
        for number in range(1, count + 1):
            host.cli("key", "set", "0", "0", "--label", f"n{number}", "--badge", str(number % 10))
            time.sleep(0.1)

    async def scenario():
        client, _, _ = await paired_device(host, "Deck")
        await set_key(client, 0, {"label": "Plain", "kind": "command", "command": "true"})
        before = (host.config_dir / "config.json").read_bytes()
        driving = asyncio.create_task(asyncio.to_thread(script))
        states = await key_states_until(client, lambda m: m["look"].get("label") == f"n{count}", timeout=60)
        await driving
        after = (host.config_dir / "config.json").read_bytes()
        await client.close()
        return [m for _, m in states], before, after

    states, before, after = run(scenario())
    numbers = [int(m["look"]["label"][1:]) for m in states]
    assert numbers == sorted(numbers) and len(numbers) <= count, numbers
    assert states[-1] == {"type": "keyState", "profile": "Default", "page": 0, "index": 0,
                          "look": {"label": f"n{count}", "badge": "0"}}
    assert after == before, "key set without --save must not write config.json"
    shown = json.loads(host.cli("key", "get", "0", "0"))
    assert shown == {"profile": "Default", "page": 0, "slot": 0, "live": {"label": f"n{count}", "badge": "0"},
                     "button": {"label": "Plain", "kind": "command", "command": "true"}}, shown


def test_key_set_with_save_persists_and_a_bad_look_is_refused(host):
    async def scenario():
        client, _, _ = await paired_device(host, "Deck")
        await set_key(client, 0, {"label": "Plain", "kind": "command", "command": "true"})
        printed = host.cli("key", "set", "0", "0", "--label", "Saved", "--color", "red", "--icon", "🎙",
                           "--state", "on", "--save")
        received = [await client.recv(timeout=10)]
        while not ({"layout", "keyState"} <= {m["type"] for m in received}):
            received.append(await client.recv(timeout=10))
        await client.close()
        return json.loads(printed), received

    printed, received = run(scenario())
    saved = host.saved_layout()["pages"][0][0]
    assert saved == {"label": "Saved", "kind": "command", "command": "true", "color": "red",
                     "icon": {"emoji": "🎙"}}, saved
    layout = next(m for m in received if m["type"] == "layout")
    assert layout["pages"][0][0] == saved
    state = [m for m in received if m["type"] == "keyState"][-1]
    assert state["look"] == {"state": "on"}, state
    assert printed["button"] == saved and printed["live"] == {"state": "on"}
    assert "color is one of red" in host.cli_failure("key", "set", "0", "0", "--color", "mauve")
    assert "no key on page 0, slot 5 of Default" in host.cli_failure("key", "get", "0", "5")
    assert host.saved_layout()["pages"][0][0] == saved


def test_press_presses_the_key_and_prints_the_result(host, tmp_path):
    touched = tmp_path / "pressed"

    async def scenario():
        client, _, _ = await paired_device(host, "Deck")
        await set_key(client, 0, {"label": "Touch", "kind": "command", "command": f"touch {touched}"})
        await set_key(client, 1, {"label": "Fail", "kind": "command", "command": "echo broken; exit 4"})
        await client.close()

    run(scenario())
    assert host.cli("press", "0", "0") == "ok\n"
    assert touched.exists()
    assert "exit 4: broken" in host.cli_failure("press", "0", "1")
    assert "no key on page 0, slot 2 of Default" in host.cli_failure("press", "0", "2")


def test_key_set_get_and_press_reach_a_key_inside_a_folder(host, tmp_path):
    """Keys beyond the deck's top level (issue 23): `--folder PAGE:SLOT[/PAGE:SLOT…]` names the folder keys down to
    the key; the live look reaches the device with the key's path, and --save writes the key inside the folder."""
    touched = tmp_path / "pressed-in-folder"
    inner = {"label": "Inside", "kind": "command", "command": f"touch {touched}"}

    async def scenario():
        client, _, _ = await paired_device(host, "Deck")
        await set_key(client, 2, {"label": "Media", "kind": "folder"})
        await client.send({"type": "setButton", "page": 0, "index": 1, "button": inner,
                           "path": [{"page": 0, "index": 2}]})
        await client.recv_type("layout")
        host.cli("key", "set", "0", "1", "--folder", "0:2", "--label", "Live inside", "--badge", "7")
        state = await client.recv_type("keyState")
        host.cli("key", "set", "0", "1", "--folder", "0:2", "--label", "Saved inside", "--save")
        saved = await client.recv_type("layout")
        await client.close()
        return state, saved

    state, saved = run(scenario())
    assert state == {"type": "keyState", "profile": "Default", "page": 0, "index": 1,
                     "path": [{"page": 0, "index": 2}], "look": {"label": "Live inside", "badge": "7"}}, state
    assert saved["pages"][0][2]["pages"][0][1]["label"] == "Saved inside"
    assert saved["pages"][0][1] is None, "the deck's own slot 1 is untouched"
    shown = json.loads(host.cli("key", "get", "0", "1", "--folder", "0:2"))
    assert shown["folder"] == "0:2" and shown["button"]["label"] == "Saved inside", shown
    assert host.cli("press", "0", "1", "--folder", "0:2") == "ok\n"
    assert touched.exists()
    assert "no key on page 0, slot 3 of the folder at 0:2 of Default" in host.cli_failure(
        "key", "get", "0", "3", "--folder", "0:2")
    usage = subprocess.run([str(host.binary), "key", "get", "0", "1", "--folder", "0-2", "--config-dir",
                            str(host.config_dir)], env=host.env, capture_output=True, text=True, timeout=20)
    assert usage.returncode == 64 and "--folder is PAGE:SLOT" in usage.stderr, usage
