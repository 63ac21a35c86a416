"""Headless Chromium through selenium, for the browser tests (and the Wayland tests that look at the web client)."""

import contextlib
import json
import time
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import NoSuchWindowException
from selenium.webdriver.chrome.service import Service
from websockets.sync.client import connect

MIN_WIDTH = 500  # headless Chromium's narrowest window


def chromium_options(width, height):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--ignore-certificate-errors", "--disable-gpu",
                f"--window-size={width},{height}", "--disable-dev-shm-usage"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return options


class Browser:
    """One Chromium with its own profile (its own localStorage: its own paired device)."""

    def __init__(self, width=1194, height=834):
        self.driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=chromium_options(width, height))
        self.console = []

    def drain_console(self):
        self.console += self.driver.get_log("browser")
        return [entry for entry in self.console if entry["level"] == "SEVERE"]

    def quit(self):
        self.driver.quit()


class ContextChrome(webdriver.Chrome):
    """A driver whose context-wide DevTools commands (permissions, downloads), which a page's session sends to the
    default browser context, go to the context of the lease in use, where the test's page is."""

    CONTEXT_WIDE = {"Browser.grantPermissions", "Browser.resetPermissions", "Browser.setPermission",
                    "Browser.setDownloadBehavior"}
    context = None

    def execute_cdp_cmd(self, cmd, cmd_args):
        if cmd in self.CONTEXT_WIDE and self.context and "browserContextId" not in cmd_args:
            cmd_args = {**cmd_args, "browserContextId": self.context}
        return super().execute_cdp_cmd(cmd, cmd_args)


class SharedChromium:
    """One Chromium process lent to one test's browser at a time. Each lease is a new browser context — what a new
    profile gave: its own localStorage, sessionStorage, cookies, cache, permissions and downloads, so its own paired
    device — in a window of its own at the asked size (the same viewport as `--window-size` gives; the headless
    screen is 800x600 either way). Giving it back disposes the context with its windows. A context costs a few
    tenths of a second where starting Chromium cost one to three seconds on a loaded machine."""

    def __init__(self):
        self.driver = ContextChrome(service=Service("/usr/bin/chromedriver"), options=chromium_options(1194, 834))
        # The default context's window keeps the browser up between leases; no test page is ever in it.
        self.anchor = self.driver.current_window_handle
        address = self.driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
        with urllib.request.urlopen(f"http://{address}/json/version", timeout=20) as answer:
            endpoint = json.load(answer)["webSocketDebuggerUrl"]
        # Browser-level commands (contexts, targets) are refused on a page's session, so they go to the browser's.
        self.closing = contextlib.ExitStack()
        self.devtools = self.closing.enter_context(connect(endpoint, open_timeout=20, max_size=None))
        self.sent = 0

    def command(self, method, **params):
        self.sent += 1
        self.devtools.send(json.dumps({"id": self.sent, "method": method, "params": params}))
        while True:
            reply = json.loads(self.devtools.recv(timeout=30))
            if reply.get("id") == self.sent:
                assert "error" not in reply, f"{method}: {reply['error']}"
                return reply["result"]

    def lease(self, width, height):
        context = self.command("Target.createBrowserContext")["browserContextId"]
        target = self.command("Target.createTarget", url="about:blank", browserContextId=context,
                              newWindow=True)["targetId"]
        # The driver names windows by their DevTools target, and finds a new one when asked to switch to it
        # (asking for its list of windows first costs a few tenths of a second more on a loaded machine).
        deadline = time.monotonic() + 20
        while True:
            try:
                self.driver.switch_to.window(target)
                break
            except NoSuchWindowException:
                assert time.monotonic() < deadline, "chromedriver never found the new browser context's window"
                time.sleep(0.05)
        # `--window-size` never makes a window narrower than 500 px; a resize would (its viewport only).
        self.driver.set_window_size(max(width, MIN_WIDTH), height)
        self.driver.context = context
        self.driver.get_log("browser")  # the log is the driver's: nothing from an earlier lease counts
        return context

    def give_back(self, context):
        self.driver.context = None
        self.command("Target.disposeBrowserContext", browserContextId=context)
        self.driver.switch_to.window(self.anchor)

    def quit(self):
        try:
            self.closing.close()
        finally:
            self.driver.quit()


class LeasedBrowser:
    """A browser for one test from a `ChromiumPool`: the same face as `Browser` (`driver`, `console`,
    `drain_console`, `quit`), where `quit` gives the process back to the pool."""

    def __init__(self, pool, chromium, width, height):
        self.pool = pool
        self.chromium = chromium
        self.driver = chromium.driver
        self.console = []
        self.context = chromium.lease(width, height)

    def drain_console(self):
        self.console += self.driver.get_log("browser")
        return [entry for entry in self.console if entry["level"] == "SEVERE"]

    def quit(self):
        if self.chromium:
            chromium, self.chromium = self.chromium, None
            self.pool.give_back(chromium, self.context)


class ChromiumPool:
    """Chromium processes reused across tests, one per browser a test holds at the same time."""

    def __init__(self):
        self.idle = []

    def browser(self, width=1194, height=834):
        chromium = self.idle.pop() if self.idle else SharedChromium()
        try:
            return LeasedBrowser(self, chromium, width, height)
        except Exception:
            chromium.quit()
            raise

    def give_back(self, chromium, context):
        """Disposes the lease's context; a process that cannot (a test quit its driver, or it crashed) is ended."""
        try:
            chromium.give_back(context)
        except Exception:
            try:
                chromium.quit()
            except Exception:
                pass
            return
        self.idle.append(chromium)

    def close(self):
        while self.idle:
            self.idle.pop().quit()
