"""What the browser tests do to the web client, in one place."""

import time

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

TIMEOUT = 15


def wait(driver, condition, timeout=TIMEOUT, what="condition"):
    # The grid and the picker re-render when the host's messages arrive; an element read mid-render is
    # simply read again on the next poll.
    return WebDriverWait(
        driver, timeout, poll_frequency=0.05, ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda d: condition(d), message=f"timed out waiting for {what}")


def state(driver):
    return driver.execute_script("return window.touchdeck && window.touchdeck.state")


def wait_state(driver, wanted, timeout=TIMEOUT):
    wait(driver, lambda d: state(d) == wanted, timeout, f"client state {wanted} (now {state(driver)})")


def open_app(browser, host):
    browser.driver.get(host.https)
    wait(browser.driver, lambda d: state(d) is not None, what="the client to start")


def pair(browser, host, screenshot=None):
    driver = browser.driver
    open_app(browser, host)
    wait_state(driver, "needPin")
    pin_field = driver.find_element(By.ID, "pin")
    wait(driver, lambda d: pin_field.is_displayed(), what="the PIN sheet")
    if screenshot:
        driver.save_screenshot(str(screenshot))
    pin_field.send_keys(host.pin())
    driver.find_element(By.CSS_SELECTOR, "#pair-form button[type=submit]").click()
    wait_state(driver, "ready")
    wait_layout(driver)


def layouts_drawn(driver):
    """How many layouts the deck has drawn (each draw replaces every key element)."""
    return driver.execute_script("return Number(document.querySelector('#pages').dataset.layouts || 0)")


def wait_layout(driver):
    """Waits until the deck shows the host's layout (keys found before it would be replaced)."""
    wait(driver, lambda d: layouts_drawn(d) > 0, what="the host's layout")


def key(driver, page, index):
    return driver.find_element(By.CSS_SELECTOR, f'.key[data-page="{page}"][data-index="{index}"]')


def key_label(driver, page, index):
    return key(driver, page, index).get_attribute("aria-label")


def tap(driver, element):
    ActionChains(driver).move_to_element(element).click_and_hold().pause(0.05).release().perform()


def strip_at_rest(driver):
    """The deck's pages have stopped sliding: a key is pressed where it rests, not where it passes by."""
    return driver.execute_script("return document.querySelector('.page-strip').getAnimations().length === 0")


def long_press(driver, element):
    ActionChains(driver).move_to_element(element).click_and_hold().pause(0.7).release().perform()


def fill(driver, element_id, text):
    field = driver.find_element(By.ID, element_id)
    field.clear()
    field.send_keys(text)


def choose_kind(driver, kind):
    driver.find_element(By.CSS_SELECTOR, f'#edit-form input[value="{kind}"]').find_element(By.XPATH, "..").click()


def save(driver):
    driver.find_element(By.ID, "edit-save").click()


def eventually(check, timeout=TIMEOUT, what="condition"):
    deadline = time.monotonic() + timeout
    while True:
        result = check()
        if result:
            return result
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.03)
