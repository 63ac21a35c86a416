"""Headless Chromium through selenium, for the browser tests (and the Wayland tests that look at the web client)."""

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


class Browser:
    """One Chromium with its own profile (its own localStorage: its own paired device)."""

    def __init__(self, width=1194, height=834):
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for arg in ("--headless=new", "--no-sandbox", "--ignore-certificate-errors", "--disable-gpu",
                    f"--window-size={width},{height}", "--disable-dev-shm-usage"):
            options.add_argument(arg)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        self.console = []

    def drain_console(self):
        self.console += self.driver.get_log("browser")
        return [entry for entry in self.console if entry["level"] == "SEVERE"]

    def quit(self):
        self.driver.quit()
