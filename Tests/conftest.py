"""Shared pytest root: makes the reference client importable everywhere as `touchdeck`.

    from touchdeck.client import DeckClient
"""

import pathlib
import sys

INTEROP = pathlib.Path(__file__).resolve().parent / "interop"
if str(INTEROP) not in sys.path:
    sys.path.insert(0, str(INTEROP))

# The suites whose assertions measure time or rate (frames a second, a tone's loss, a recording's length, back-off
# and keep-alive timings, a paired device's way in under a flood): `make test` runs them in a phase of their own
# with nothing beside them, and every other suite two at a time (`--phase shared`), since those spend most of
# their time waiting on browsers and servers (Tests/README.md, "Two at a time"). A module named here is never run beside
# another suite; one left out must not care how busy the machine is.
ALONE = {
    "test_digest_live.py", "test_front_door_live.py", "test_key_state_live.py", "test_paired_device_gets_in_live.py",
    "test_pin_notice_live.py", "test_record_live.py", "test_sound_live.py", "test_sound_pipewire_live.py",
    "test_stream_live.py", "test_unread_live.py",
    "test_record.py", "test_screen.py", "test_screen_webkit.py", "test_sound.py",
}


def pytest_addoption(parser):
    parser.addoption("--phase", choices=("all", "shared", "alone"), default="all",
                     help="shared: leave out the suites that must run alone (ALONE); alone: only those")


def pytest_collection_modifyitems(config, items):
    phase = config.getoption("--phase")
    if phase == "all":
        return
    wanted = phase == "alone"
    kept = [item for item in items if (item.path.name in ALONE) == wanted]
    dropped = [item for item in items if (item.path.name in ALONE) != wanted]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
    items[:] = kept
