"""The Origin rule in a real browser (DESIGN.md#transport): a page served from elsewhere — here a plain http.server on
another port of this computer — cannot open a WebSocket to the host, while the host's own app page can.
Otherwise any web page the user visits could guess PINs or fill the waiting room through their browser."""

import functools
import http.server
import threading

import pytest

from daemon import free_port
from pages import open_app, wait_state

PROBE = """
const url = arguments[0], done = arguments[arguments.length - 1];
const socket = new WebSocket(url);
socket.onopen = () => socket.send(JSON.stringify({type: "hello", name: "origin probe"}));
socket.onmessage = (event) => { done("answered " + JSON.parse(event.data).type); socket.close(); };
socket.onerror = () => done("refused");
"""


@pytest.fixture
def elsewhere(tmp_path):
    """Another origin: http://127.0.0.1:<another port>/ serving a blank page."""
    (tmp_path / "index.html").write_text(
        "<!doctype html><link rel=icon href=\"data:,\"><title>elsewhere</title><p>another site</p>")
    handler = functools.partial(QuietHandler, directory=str(tmp_path))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def probe(driver, url):
    driver.set_script_timeout(20)
    return driver.execute_async_script(PROBE, url)


def test_a_page_of_another_origin_cannot_open_a_websocket_but_the_app_can(host, browsers, elsewhere):
    browser = browsers()
    driver = browser.driver
    driver.get(elsewhere)
    assert probe(driver, host.wss) == "refused"
    assert probe(driver, f"ws://127.0.0.1:{host.port}/ws") == "refused"
    # Those two refusals are what this test wants; any other console error still fails it.
    browser.drain_console()
    browser.console = [entry for entry in browser.console if "WebSocket connection to" not in entry["message"]]

    open_app(browser, host)
    wait_state(driver, "needPin")  # the app's own connection got in and was answered
    assert probe(driver, host.wss) == "answered needPairing"
