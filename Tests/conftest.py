"""Shared pytest root: makes the reference client importable everywhere as `touchdeck`.

    from touchdeck.client import DeckClient
"""

import pathlib
import sys

INTEROP = pathlib.Path(__file__).resolve().parent / "interop"
if str(INTEROP) not in sys.path:
    sys.path.insert(0, str(INTEROP))
