"""Real trust in real browsers (DESIGN.md#local-ca): Chromium with the CA in its NSS database, WebKitGTK with the CA as
the system's trust store, neither told to ignore certificate errors. Each loads the app from the daemon over
HTTPS and WSS with the Content-Security-Policy in force, and each refuses a certificate for
accounts.google.com signed with the host CA's key, while accepting one signed by an older, unconstrained CA
(which shows the refusal comes from the name constraints, not from the test's plumbing)."""

import http.server
import os
import pathlib
import shutil
import ssl
import subprocess
import sys
import threading

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service as ChromeService
from selenium.webdriver.webkitgtk.service import Service as WebKitService

from pages import state, wait

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "support"))
from daemon import Daemon  # noqa: E402
from tlshelpers import forge_leaf, write_authority  # noqa: E402

# Selenium's own WebKitGTK driver class warns about how it builds its connection; not ours to fix.
pytestmark = pytest.mark.filterwarnings("ignore:setting remote_server_addr:DeprecationWarning")

FORGED = "forged"
MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"


class Rogue:
    """An HTTPS server on loopback presenting a forged certificate, answering every GET with a page titled
    'forged by <label>'."""

    def __init__(self, label, cert, key):
        class Page(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                body = f"<!doctype html><title>{FORGED} by {label}</title><p>{FORGED}".encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)


@pytest.fixture(scope="module")
def trust(tmp_path_factory):
    """The daemon, an older unconstrained CA, and two rogue servers for accounts.google.com: one signed by the
    old CA, one by the daemon's. Yields (daemon, dict of CA paths, dict of rogue ports)."""
    assert os.environ.get("DISPLAY"), "DISPLAY is not set: run the browser tests under scripts/with-desktop"
    work = tmp_path_factory.mktemp("trust")
    host = Daemon(home=work / "home")
    host.start()
    old = work / "old-ca"
    write_authority(old)
    tls = host.config_dir / "tls"
    rogues = {label: Rogue(label, *forge_leaf(directory, ["accounts.google.com"], directory))
              for label, directory in (("old", old), ("host", tls))}
    yield host, {"host": tls / "ca.pem", "old": old / "ca.pem"}, {k: r.port for k, r in rogues.items()}
    for rogue in rogues.values():
        rogue.stop()
    host.stop()


def title_of(driver, url):
    """The title of what `url` showed; a blank page first, so a refused load cannot show the page before."""
    driver.get("about:blank")
    driver.get(url)
    return driver.title


def check_app_and_policy(driver, host):
    """The app loads over HTTPS, its WebSocket (wss, same origin) reaches the host, and the CSP is in force:
    data: images (app icons) load, an inline script does not run."""
    driver.get(f"https://localhost:{host.port}/")
    wait(driver, lambda d: state(d) == "needPin", what="the client to reach the host over wss")
    pixel = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
    loaded = driver.execute_async_script(
        "const done = arguments[1]; const img = new Image();"
        "img.onload = () => done(img.naturalWidth); img.onerror = () => done(-1); img.src = arguments[0];", pixel)
    assert loaded == 1
    # A <script> element runs under the page's policy even when a driver adds it (the driver's own scripts do not).
    assert driver.execute_script(
        "const s = document.createElement('script'); s.textContent = 'window.inlineRan = true';"
        "document.head.append(s); return window.inlineRan === true;") is False
    # The certificate's address entries pass the CA's IP constraints too.
    for address in ("127.0.0.1", "[::1]"):
        assert title_of(driver, f"https://{address}:{host.port}/") == "TouchDeck", address


def check_forgeries(driver, ports):
    assert title_of(driver, f"https://accounts.google.com:{ports['old']}/") == f"{FORGED} by old", \
        "control: a leaf from the unconstrained CA must load, else the test proves nothing"
    assert FORGED not in title_of(driver, f"https://accounts.google.com:{ports['host']}/")


# Chromium ---------------------------------------------------------------------------------------------------


def nss_home(directory, cas):
    """A HOME whose NSS database (what Chromium on Linux reads for user trust) trusts `cas` for TLS servers."""
    db = directory / ".pki" / "nssdb"
    db.mkdir(parents=True)
    subprocess.run(["certutil", "-d", f"sql:{db}", "-N", "--empty-password"], check=True)
    for n, ca in enumerate(cas):
        subprocess.run(["certutil", "-d", f"sql:{db}", "-A", "-n", f"ca{n}", "-t", "C,,", "-i", str(ca)], check=True)
    return directory


def chromium(home):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--host-resolver-rules=MAP accounts.google.com 127.0.0.1"):
        options.add_argument(arg)
    service = ChromeService("/usr/bin/chromedriver", env={**os.environ, "HOME": str(home)})
    return webdriver.Chrome(service=service, options=options)


def test_chromium_trusts_the_host_ca_for_the_host_only(trust, tmp_path):
    host, cas, ports = trust
    driver = chromium(nss_home(tmp_path / "trusting", [cas["host"], cas["old"]]))
    try:
        check_app_and_policy(driver, host)
        check_forgeries(driver, ports)
    finally:
        driver.quit()
    driver = chromium(nss_home(tmp_path / "plain", []))
    try:
        assert "TouchDeck" not in title_of(driver, f"https://localhost:{host.port}/")
    finally:
        driver.quit()


# WebKitGTK --------------------------------------------------------------------------------------------------


def webkit(directory, cas):
    """WebKitGTK (MiniBrowser through WebKitWebDriver) whose system trust store holds only `cas`.

    GnuTLS, which WebKitGTK's network process uses, reads the system store from a fixed path. bwrap shows the
    driver and everything it starts our bundle at that path (and an /etc/hosts that sends accounts.google.com
    to loopback) in a private mount namespace; the real files are untouched."""
    directory.mkdir(parents=True)
    bundle = directory / "ca-bundle.crt"
    bundle.write_bytes(b"".join(ca.read_bytes() for ca in cas))
    hosts = directory / "hosts"
    hosts.write_text("127.0.0.1 localhost accounts.google.com\n::1 localhost\n")
    wrapper = directory / "webkitwebdriver"
    wrapper.write_text(f"""#!/bin/sh
exec bwrap --dev-bind / / --ro-bind {bundle} /etc/ssl/certs/ca-certificates.crt --ro-bind {hosts} /etc/hosts \\
    /usr/bin/WebKitWebDriver "$@"
""")
    wrapper.chmod(0o755)
    options = webdriver.WebKitGTKOptions()
    options.binary_location = MINIBROWSER
    options.add_argument("--automation")
    # The web process sandbox is itself bwrap, which cannot nest inside ours here.
    env = {**os.environ, "WEBKIT_DISABLE_SANDBOX_THIS_IS_DANGEROUS": "1"}
    return webdriver.WebKitGTK(options=options, service=WebKitService(executable_path=str(wrapper), env=env))


@pytest.mark.skipif(not (shutil.which("WebKitWebDriver") and shutil.which("bwrap")),
                    reason="webkit2gtk-driver and bubblewrap come from scripts/bootstrap test")
def test_webkit_trusts_the_host_ca_for_the_host_only(trust, tmp_path):
    host, cas, ports = trust
    driver = webkit(tmp_path / "trusting", [cas["host"], cas["old"]])
    try:
        check_app_and_policy(driver, host)
        check_forgeries(driver, ports)
    finally:
        driver.quit()
    driver = webkit(tmp_path / "plain", [cas["old"]])
    try:
        assert "TouchDeck" not in title_of(driver, f"https://localhost:{host.port}/")
    finally:
        driver.quit()
