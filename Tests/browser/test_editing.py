"""Moving keys, copy and paste, and undo in the web client (PROTOCOL §6 "Moving keys, copy and undo", issue 22): a
key long-pressed then dragged onto another slot moves there (the key there swaps into its place), dragged to the
deck's edge it goes to the next page; Undo in the header takes the moves back one by one, through the host; a key
copied in the edit sheet is pasted into an empty slot. Headless Chromium against the real daemon; at phone size the
drag and one undo, at iPad size all of it; screenshots while a key is dragged (test-output/browser/editing-*.png)."""

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from pages import key, key_label, layouts_drawn, long_press, pair, strip_at_rest, tap, wait
from test_key_kinds import sized

# The phone first: it leaves its three keys, which the iPad run sets again in the same slots.
SIZES = pytest.mark.parametrize("size", [(390, 844), (1194, 834)], ids=["phone", "ipad"])


def stored_labels(host, page=0):
    pages = host.saved_layout()["pages"]
    return [b["label"] if b else None for b in pages[page]] if page < len(pages) else []


def set_keys(driver, labels):
    for index, label in enumerate(labels):
        before = layouts_drawn(driver)
        driver.execute_script(
            "window.touchdeck.send({type: 'setButton', page: 0, index: arguments[0], button: arguments[1]})",
            index, {"label": label, "kind": "command", "command": "true"})
        # Each key drawn before the next is sent: no layout arrives later to redraw a key the test holds.
        wait(driver, lambda d: layouts_drawn(d) > before and key_label(d, 0, index) == label,
             what=f"the key {label}")


def drag(driver, source, target, screenshot=None, via_edge=None):
    """Long-press `source`, drag it (held at the point `via_edge` first, if given, until the page turned) onto
    `target` and let go."""
    ActionChains(driver).move_to_element(source).click_and_hold().pause(0.7).move_by_offset(16, 16).perform()
    if via_edge:
        at = driver.execute_script("const r = arguments[0].getBoundingClientRect();"
                                   "return [r.left + r.width / 2 + 16, r.top + r.height / 2 + 16]", source)
        ActionChains(driver).move_by_offset(via_edge[0] - at[0], via_edge[1] - at[1]).perform()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '.dots [aria-selected="true"]')[0]
             == d.find_elements(By.CSS_SELECTOR, ".dots button")[1] and strip_at_rest(d), what="the page turned")
    ActionChains(driver).move_to_element(target() if callable(target) else target).pause(0.1).perform()
    if screenshot:
        driver.save_screenshot(str(screenshot))
    ActionChains(driver).release().perform()


@SIZES
def test_a_key_dragged_to_another_slot_moves_and_undo_puts_it_back(host, browsers, output, size):
    browser = sized(browsers, size)
    driver = browser.driver
    pair(browser, host)
    set_keys(driver, ["One", "Two", "Three"])
    undo = driver.find_element(By.ID, "undo")

    # Onto a taken slot: the two swap.
    drag(driver, key(driver, 0, 0), key(driver, 0, 2), output / f"editing-drag-{size[0]}x{size[1]}.png")
    wait(driver, lambda d: key_label(d, 0, 0) == "Three" and key_label(d, 0, 2) == "One", what="the swap")
    assert stored_labels(host)[:3] == ["Three", "Two", "One"]
    assert not driver.find_elements(By.CSS_SELECTOR, ".drag-ghost"), "the ghost is gone"

    if size[0] < size[1]:  # the phone: the drag and an undo are the same code; the rest once, at iPad size
        tap(driver, undo)
        wait(driver, lambda d: stored_labels(host)[:3] == ["One", "Two", "Three"], what="the swap undone")
        return
    # Held at the right edge the deck turns to the next page; let go there over its first slot.
    edge = driver.execute_script("const r = document.querySelector('#pages').getBoundingClientRect();"
                                 "return [r.right - 12, r.top + r.height / 2]")
    drag(driver, key(driver, 0, 1), lambda: key(driver, 1, 0), via_edge=edge)
    wait(driver, lambda d: stored_labels(host, 1)[:1] == ["Two"], what="Two on the second page")
    assert stored_labels(host)[1] is None

    # Undo twice, through the host: back to the first order.
    tap(driver, undo)
    wait(driver, lambda d: stored_labels(host)[:3] == ["Three", "Two", "One"], what="the page move undone")
    tap(driver, undo)
    wait(driver, lambda d: stored_labels(host)[:3] == ["One", "Two", "Three"], what="the swap undone")
    wait(driver, lambda d: key_label(d, 0, 0) == "One", what="the deck drawn again")

    # Copy a key in its edit sheet, paste it into an empty slot (of the first page, shown again).
    driver.find_elements(By.CSS_SELECTOR, ".dots button")[0].click()
    wait(driver, lambda d: d.execute_script("const r = arguments[0].getBoundingClientRect();"
                                            "return r.left >= 0 && r.right <= innerWidth", key(d, 0, 5))
         and strip_at_rest(d), what="the first page shown, at rest")
    long_press(driver, key(driver, 0, 1))
    wait(driver, lambda d: d.find_element(By.ID, "edit-sheet").is_displayed(), what="the edit sheet")
    driver.find_element(By.ID, "edit-copy").click()
    tap(driver, key(driver, 0, 5))
    paste = driver.find_element(By.ID, "edit-paste")
    wait(driver, lambda d: paste.is_displayed(), what="Paste offered")
    assert paste.text == "Paste “Two”"
    paste.click()
    wait(driver, lambda d: stored_labels(host)[5] == "Two", what="the pasted key")
    assert host.saved_layout()["pages"][0][5] == host.saved_layout()["pages"][0][1]
    # Clean up for the next size: undo until the deck is as this test found it (empty), one step at a time.
    for left in (3, 2, 1):
        tap(driver, undo)
        wait(driver, lambda d: undo.get_attribute("title").startswith(f"{left} change"), what=f"{left} left")
    tap(driver, undo)
    wait(driver, lambda d: not undo.is_displayed(), what="nothing left to undo")
    assert stored_labels(host)[:6] == [None] * 6
