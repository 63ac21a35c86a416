"""An image chosen on the device as a key's icon (PROTOCOL §6 "Stored icons", issue 22 "Looks"), in headless Chromium
against the real daemon: "Choose image…" in the edit sheet sends a 4000×3000 JPEG, the host stores it as a 144×108
PNG, the sheet shows what the host made of it, the saved key names it, and the keycap draws it (an <img> of natural
size 144×108 that has drawn), also after a reload (asked for with getIcon). SVG and a 20 MiB photo are refused in
the sheet in the host's words before anything is sent. Screenshots at iPad and phone sizes for a person to look at
(test-output/browser/icons-*.png)."""

import io

import pytest
from PIL import Image, ImageDraw
from selenium.webdriver.common.by import By

from pages import choose_kind, eventually, fill, key, pair, save, wait
from test_key_kinds import clear_deck, sized, stored

IPAD = (1194, 834)
PHONE = (390, 844)
SIZES = pytest.mark.parametrize("size", [IPAD, PHONE], ids=["ipad", "phone"])


def photo(path, width=4000, height=3000, padding=0):
    """A JPEG: an orange sky over a green hill with a yellow sun, under 1 MiB unless padded."""
    image = Image.new("RGB", (width, height), (250, 140, 40))
    draw = ImageDraw.Draw(image)
    draw.ellipse([-width // 4, height // 2, width * 5 // 4, height * 2], fill=(40, 150, 70))
    draw.ellipse([width * 5 // 8, height // 8, width * 7 // 8, height * 11 // 24], fill=(255, 230, 60))
    out = io.BytesIO()
    image.save(out, "JPEG", quality=85)
    path.write_bytes(out.getvalue() + bytes(padding))
    return path


def sheet_open(driver):
    return driver.execute_script("return document.getElementById('edit-sheet').open")


def add_sheet(driver, index, kind):
    key(driver, 0, index).click()
    wait(driver, sheet_open, what="the add sheet")
    choose_kind(driver, kind)


def choose_file(driver, path):
    """What a tap on "Choose image…" and a pick in the system's file chooser give the page."""
    driver.find_element(By.ID, "edit-icon-file").send_keys(str(path))


def keycap_picture(driver, index):
    """The stored icon's <img> on slot `index` of page 0: its name, natural size, drawn size, whether it loaded."""
    return driver.execute_script("""
        const k = document.querySelector(`.key[data-page="0"][data-index="${arguments[0]}"]`);
        const img = k?.querySelector('img.icon.image');
        if (!img) return null;
        const box = img.getBoundingClientRect();
        return {name: img.dataset.image, natural: [img.naturalWidth, img.naturalHeight], complete: img.complete,
                drawn: [Math.round(box.width), Math.round(box.height)], labelShown: !k.querySelector('.label').hidden};
    """, index)


def icon_names(host):
    folder = host.config_dir / "icons"
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


@SIZES
def test_an_image_chosen_in_the_editor_is_stored_and_drawn_on_the_key(host, browsers, output, size, tmp_path):
    browser = sized(browsers, size)
    driver = browser.driver
    pair(browser, host)
    clear_deck(driver)
    before = icon_names(host)
    add_sheet(driver, 0, "command")
    fill(driver, "edit-label", "Holiday")
    fill(driver, "edit-command", "true")
    assert driver.find_element(By.ID, "edit-icon-image").text == "Choose image…"
    choose_file(driver, photo(tmp_path / "holiday.jpg"))
    # The host answers with the name; the sheet then shows the picture the host made (asked for with getIcon).
    wait(driver, lambda d: d.execute_script(
        "const i = document.querySelector('#edit-icon-image img'); return i?.complete && i.naturalWidth === 144"),
        what="the stored picture on the Image button")
    assert driver.find_element(By.ID, "edit-icon-image").text == "Image"
    assert driver.find_element(By.ID, "edit-icon-note").text == ""
    assert len(set(icon_names(host)) - set(before)) <= 1 and icon_names(host), "one picture stored (the same again)"
    driver.save_screenshot(str(output / f"icons-sheet-{size[0]}x{size[1]}.png"))
    save(driver)
    saved = stored_when(host, lambda b: b and b.get("icon", {}).get("image"))
    assert saved == {"label": "Holiday", "kind": "command", "command": "true", "icon": {"image": saved["icon"]["image"]}}
    name = saved["icon"]["image"]
    assert name in icon_names(host)
    with Image.open(host.config_dir / "icons" / name) as picture:
        assert picture.size == (144, 108)

    drawn = wait(driver, lambda d: (p := keycap_picture(d, 0)) and p["complete"] and p["natural"][0] and p,
                 what="the picture on the key")
    assert drawn["name"] == name and drawn["natural"] == [144, 108], drawn
    assert drawn["drawn"][0] > 20 and drawn["drawn"][1] > 10, drawn
    assert drawn["labelShown"], "the label shows under the picture unless hidden"
    driver.save_screenshot(str(output / f"icons-deck-{size[0]}x{size[1]}.png"))

    # Label hidden: the picture stands alone, larger. After a reload the page asks the host for the picture again.
    driver.execute_script("window.touchdeck.send({type: 'setButton', page: 0, index: 1, button: arguments[0]})",
                          {"label": "Photo only", "kind": "command", "command": "true", "icon": {"image": name},
                           "hideLabel": True, "color": "indigo"})
    wait(driver, lambda d: (p := keycap_picture(d, 1)) and p["complete"] and p["natural"][0] == 144,
         what="the second key's picture")
    driver.refresh()
    again = wait(driver, lambda d: (p := keycap_picture(d, 1)) and p["complete"] and p["natural"][0] and p,
                 what="the picture after a reload")
    assert again["natural"] == [144, 108] and not again["labelShown"], again
    assert again["drawn"][0] > drawn["drawn"][0], "without its label the picture is drawn larger"
    driver.save_screenshot(str(output / f"icons-reloaded-{size[0]}x{size[1]}.png"))


def saved(host, index):
    """The button the host saved at slot `index` of page 0, or None (also while config.json is the `{}` the test
    daemon starts from)."""
    try:
        return stored(host, 0, index)
    except KeyError:
        return None


def stored_when(host, ready):
    """The button at slot 0 once `ready` says it is the one awaited."""
    return eventually(lambda: (b := saved(host, 0)) and ready(b) and b, what="the key with its stored icon")


def test_svg_and_a_20_mib_photo_are_refused_in_the_sheet_before_anything_is_sent(host, browsers, output, tmp_path):
    browser = sized(browsers, IPAD)
    driver = browser.driver
    pair(browser, host)
    clear_deck(driver)
    before = icon_names(host)
    add_sheet(driver, 2, "command")
    fill(driver, "edit-label", "Logo")
    fill(driver, "edit-command", "true")
    svg = tmp_path / "logo.svg"
    svg.write_text('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')
    choose_file(driver, svg)
    note = driver.find_element(By.ID, "edit-icon-note")
    assert note.text == "SVG is not accepted (an SVG file can carry script): choose a PNG, JPEG or WebP image."
    big = photo(tmp_path / "big.jpg", 400, 300, padding=20 << 20)
    choose_file(driver, big)
    wait(driver, lambda d: "bytes; at most 1 MiB" in note.text, what="the size refusal")
    assert note.text == f"The image is {big.stat().st_size} bytes; at most 1 MiB (1048576 bytes)."
    assert driver.find_element(By.ID, "edit-icon-image").text == "Choose image…"
    driver.save_screenshot(str(output / "icons-refused-1194x834.png"))
    save(driver)
    logo = {"label": "Logo", "kind": "command", "command": "true"}
    eventually(lambda: saved(host, 2) == logo, what="the key without an icon")
    assert icon_names(host) == before, "nothing was sent to be stored"
