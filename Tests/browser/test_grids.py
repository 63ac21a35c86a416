"""Grid sizes on the deck (PROTOCOL §6 "Grid sizes", issue 22): the size chosen in the deck's header reaches the
host, every key is kept (what does not fit follows on the next page), the pages are drawn with the grid's columns
(transposed on a portrait screen) and the keys fit the screen. Headless Chromium against the real daemon;
screenshots at iPad landscape and portrait and phone size (test-output/browser/grids-*.png)."""


import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from pages import key_label, pair, wait
from test_key_kinds import sized

SIZES = pytest.mark.parametrize("size", [(1194, 834), (834, 1194), (390, 844)], ids=["ipad", "ipad-portrait", "phone"])
KEYS = [{"label": f"Key {n}", "kind": "command", "command": "true", **({"color": "teal"} if n % 3 == 0 else {})}
        for n in range(12)]


def grid_of(host):
    return host.saved_layout().get("grid", "4x3")


def drawn(driver):
    """Columns of the first page as drawn, the slots it holds, the keys' labels in order, whether all fit."""
    return driver.execute_script("""
        const page = document.querySelector('.page');
        const keys = [...document.querySelectorAll('.key[data-page]')];
        const area = document.querySelector('#pages').getBoundingClientRect();
        const first = [...page.querySelectorAll('.key')];
        return {columns: getComputedStyle(page).gridTemplateColumns.split(' ').length, slots: first.length,
                labels: keys.filter((k) => !k.classList.contains('empty')).map((k) => k.getAttribute('aria-label')),
                fits: first.every((k) => { const r = k.getBoundingClientRect();
                  return r.top >= area.top - 1 && r.bottom <= area.bottom + 1 && r.left >= area.left - 1 && r.right <= area.right + 1; })};""")


def clear_all(driver):
    """Every key of every page cleared (an earlier size's run left keys on following pages)."""
    wanted = driver.execute_script("""
        const full = [...document.querySelectorAll('.key[data-page]:not(.empty)')]
          .map((k) => [Number(k.dataset.page), Number(k.dataset.index)]).reverse();
        for (const [page, index] of full) window.touchdeck.send({type: 'clearButton', page, index});
        return Number(document.querySelector('#pages').dataset.layouts) + full.length;""")
    wait(driver, lambda d: d.execute_script("return Number(document.querySelector('#pages').dataset.layouts)") >= wanted,
         what="an empty deck")


def choose(driver, grid):
    Select(driver.find_element(By.ID, "grid-size")).select_by_value(grid)


@SIZES
def test_a_grid_size_chosen_on_the_deck_keeps_every_key_and_fits_the_screen(host, browsers, output, size):
    browser = sized(browsers, size)
    driver = browser.driver
    pair(browser, host)
    choose(driver, "4x3")
    wait(driver, lambda d: drawn(d)["slots"] == 12, what="the standard grid")
    clear_all(driver)
    for n, button in enumerate(KEYS):
        driver.execute_script("window.touchdeck.send({type: 'setButton', page: 0, index: arguments[0], button: arguments[1]})",
                              n, button)
    wait(driver, lambda d: key_label(d, 0, 11) == "Key 11", what="a full first page")
    landscape = size[0] > size[1]
    for grid, columns, rows in (("5x3", 5, 3), ("3x2", 3, 2), ("8x4", 8, 4)):
        choose(driver, grid)
        wait(driver, lambda d: drawn(d)["slots"] == columns * rows, what=f"the {grid} grid drawn")
        assert grid_of(host) == grid
        now = drawn(driver)
        assert now["columns"] == (columns if landscape else rows), now
        assert now["fits"], f"{grid}: every key of the page is on screen"
        assert sorted(now["labels"]) == sorted(b["label"] for b in KEYS), "every key is kept"
        driver.save_screenshot(str(output / f"grids-{grid}-{size[0]}x{size[1]}.png"))
    # From 3x2 to 8x4 nothing moved back: the order is the one the shrink left.
    assert drawn(driver)["labels"][:6] == ["Key 0", "Key 1", "Key 2", "Key 4", "Key 5", "Key 6"]
    choose(driver, "4x3")
    wait(driver, lambda d: drawn(d)["slots"] == 12, what="back to 4x3")
