"""A command key's two answers on the deck (issue 19.12, PROTOCOL "Buttons"): `running:true` at once shows a
neutral running look, never the success glow; the outcome when the command ends (exit 3 after a second) turns
that same key red with the reason, also when the user switched pages and the deck was drawn again meanwhile;
`true` glows. In headless Chromium against the real daemon, at iPad and phone sizes."""

from selenium.webdriver.common.by import By

from pages import eventually, key, strip_at_rest, tap, wait
from viewer import emulate_size, pair_as_viewer

NAMES = (f"Command look {n}" for n in range(1000))
IPAD = (1194, 834)
PHONE = (390, 844)

# Every look a key takes, read through a MutationObserver (nothing polled, so a look of a few ms is seen too):
# 'plain', 'running', 'glow', 'failed' (or two joined with '+'), each with how many layouts the deck had drawn;
# by page and slot, so a key drawn again counts.
WATCH = """
const [name, page, index] = arguments;
const strip = document.querySelector('#pages .page-strip');
const looks = (window.looks ??= {})[name] = [];
const read = () => {
  const key = strip.querySelector(`.key[data-page="${page}"][data-index="${index}"]`);
  if (!key) return;
  const look = ['running', 'glow', 'failed'].filter((c) => key.classList.contains(c)).join('+') || 'plain';
  const layouts = Number(document.querySelector('#pages').dataset.layouts);
  const last = looks.at(-1);
  if (last?.[0] !== look || last?.[1] !== layouts) looks.push([look, layouts]);
};
new MutationObserver(read).observe(strip, { subtree: true, childList: true, attributes: true,
                                            attributeFilter: ['class'] });
read();
"""


def set_button(driver, page, index, button):
    driver.execute_script("window.touchdeck.send({type: 'setButton', page: arguments[0], index: arguments[1], "
                          "button: arguments[2]})", page, index, button)
    wait(driver, lambda d: key(d, page, index).get_attribute("aria-label") == button["label"], what="the button")


def looks(driver, name):
    """The looks in order, a look kept through a redraw counted once."""
    seen = [look for look, _ in driver.execute_script("return window.looks[arguments[0]]", name)]
    return [look for n, look in enumerate(seen) if n == 0 or seen[n - 1] != look]


def layouts(driver):
    return int(driver.execute_script("return document.querySelector('#pages').dataset.layouts"))


def test_a_command_shows_running_then_its_failure_on_its_own_key_across_a_page_switch(host, browsers, output):
    for size in (IPAD, PHONE):
        browser = browsers(width=max(size[0], 500), height=size[1])
        driver = browser.driver
        emulate_size(driver, *size)
        pair_as_viewer(browser, host, next(NAMES))
        set_button(driver, 0, 0, {"label": "Slow fail", "kind": "command", "command": "sleep 1; exit 3"})
        set_button(driver, 1, 0, {"label": "Other page", "kind": "command", "command": "true"})
        driver.execute_script(WATCH, "slow", 0, 0)
        driver.execute_script(WATCH, "other", 1, 0)
        tap(driver, key(driver, 0, 0))
        eventually(lambda: "running" in looks(driver, "slow"), what="the running look")
        driver.save_screenshot(str(output / f"command-running-{size[0]}x{size[1]}.png"))
        drawn = layouts(driver)
        # Meanwhile: the user goes to page 2, and an edit elsewhere draws the whole deck again.
        driver.find_elements(By.CSS_SELECTOR, "#dots button")[1].click()
        driver.execute_script("window.touchdeck.send({type: 'setButton', page: 0, index: 5, "
                              "button: {kind: 'command', label: 'Edit', command: 'true'}})")
        eventually(lambda: "failed" in looks(driver, "slow"), 15, "the failure")
        seen = driver.execute_script("return window.looks.slow")
        assert looks(driver, "slow")[:3] == ["plain", "running", "failed"], \
            f"running first (never the success glow), then red: {seen}"
        assert any(look == "running" and at > drawn for look, at in seen), \
            f"the deck was drawn again while the command ran and the key kept its running look: {seen}"
        toast = driver.find_element(By.ID, "toast")
        assert toast.is_displayed() and "exit 3" in toast.text.lower(), toast.text
        assert looks(driver, "other") == ["plain"], "the key in the same slot of page 2 is not marked"
        driver.find_elements(By.CSS_SELECTOR, "#dots button")[0].click()
        wait(driver, strip_at_rest, what="the slide back to page 1")
        driver.save_screenshot(str(output / f"command-failed-{size[0]}x{size[1]}.png"))


def test_a_command_that_succeeds_glows_and_leaves_no_running_look(host, browsers):
    browser = browsers()
    driver = browser.driver
    pair_as_viewer(browser, host, next(NAMES))
    set_button(driver, 0, 1, {"label": "Fine", "kind": "command", "command": "true"})
    driver.execute_script(WATCH, "fine", 0, 1)
    tap(driver, key(driver, 0, 1))
    eventually(lambda: "glow" in looks(driver, "fine"), what="the success glow")
    seen = looks(driver, "fine")
    assert "failed" not in seen and seen[seen.index("glow") - 1] in ("plain", "running"), seen
    assert "running" not in key(driver, 0, 1).get_attribute("class"), "the running look ends with the outcome"
