"""A paired device gets in while strangers churn (issue 20.4, PROTOCOL §0 "the front door").

Strangers that reopen the moment the host closes them, on the device's own address (127.0.0.1) and on 32
other addresses, as fast as a few local processes can: the paired device's reconnects must each authorize
within 2 s, first time. There is no retry: an attempt that is closed, refused or slow fails the test.
The web client names its device in the upgrade (`/ws?device=ID`) and in `hello`; a board that only says it in
`hello` is let in through the same reserve once that hello is read.
"""

import asyncio
import os
import subprocess
import sys
import time

from livehelpers import paired_device, run
from strangers import loopback
from touchdeck.client import DeckClient

HERE = __import__("pathlib").Path(__file__).resolve().parent
ATTEMPTS = 6
WITHIN = 2.0  # seconds from opening the socket to the sealed `authorized`
OTHERS = [loopback(10 + n) for n in range(32)]


def start_churn(port, addresses, threads_per_address):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}  # the reference client strangers.py imports
    return subprocess.Popen([sys.executable, str(HERE / "strangers.py"), "churn", str(port),
                             str(threads_per_address), ",".join(addresses)], stdout=subprocess.PIPE, text=True,
                            env=env)


def stop_churn(processes):
    """Ends the churners (each prints how many connections it opened) and returns the total."""
    total = 0
    for process in processes:
        process.terminate()
    for process in processes:
        out, _ = process.communicate(timeout=10)
        assert out.strip().isdigit(), f"a churner failed (exit {process.returncode})"
        total += int(out)
    return total


async def authorize_once(port, device_id, secret, in_url):
    """One reconnect as the web client makes it: (seconds to `authorized`, client). Any close fails it."""
    url = f"ws://127.0.0.1:{port}/ws" + (f"?device={device_id}" if in_url else "")
    began = time.monotonic()
    client = await DeckClient.connect(url)
    assert (await client.hello("Tablet", device_id=device_id))["type"] == "authRequired"
    await client.authenticate(device_id, secret)
    return time.monotonic() - began, client


def churn_and_reconnect(host, churners, in_url):
    async def scenario():
        device, device_id, secret = await paired_device(host, "Tablet")
        await device.close()
        processes = [start_churn(host.port, addresses, threads) for addresses, threads in churners]
        try:
            await asyncio.sleep(2.0)  # the churn under way: the room full and turning over
            took = []
            for _ in range(ATTEMPTS):
                seconds, client = await asyncio.wait_for(
                    authorize_once(host.port, device_id, secret, in_url), timeout=WITHIN)
                took.append(round(seconds, 3))
                await client.close()
                await asyncio.sleep(0.3)
        finally:
            opened = stop_churn(processes)
        print(f"strangers opened {opened} connections; the device authorized in {took} s")
        assert max(took) < WITHIN
        assert opened > 2000, "the strangers must really churn for this test to mean anything"

    run(scenario())


def test_a_paired_device_gets_in_while_strangers_churn_on_its_address_and_32_others(daemon):
    own = ([loopback(1)], 12)  # more than the 8 an address may have waiting: they push each other out
    others = [(OTHERS[i::3], 3) for i in range(3)]
    churn_and_reconnect(daemon, [own, own] + others, in_url=True)


def test_a_board_naming_itself_only_in_hello_gets_in_while_32_addresses_flood(daemon):
    others = [(OTHERS[i::4], 3) for i in range(4)]
    churn_and_reconnect(daemon, others, in_url=False)
