"""Live tests: the real `touchdeck serve` on a free port with a temporary config dir, driven by the Python
reference client (`Tests/interop/touchdeck`) and the CLI. Helpers live in `livehelpers.py`."""

import pytest

from livehelpers import Daemon


@pytest.fixture
def daemon(tmp_path):
    host = Daemon(home=tmp_path)
    host.start()
    yield host
    host.stop()
