"""The message catalogue of PROTOCOL §2–§6: which fields each type has, and a checker.

`problems(message)` lists what is wrong with a message (empty when it follows the contract);
`with_defaults(message)` fills absent optional fields with the defaults PROTOCOL.md names.
"""

import json
import re
import unicodedata

from .primitives import b64decode

POINT, MAC = ("base64", 65), ("base64", 32)

POINTER_KINDS = {"click", "rightClick", "scroll", "down", "move", "up"}
KEYPAD_KEYS = set("0123456789.+-*/=") | {"enter", "backspace"}
PRESS_KEYS = {"esc", "tab", "shiftTab", "up", "down", "left", "right", "selectAll", "backspace", "ctrlC", "return",
              "delete", "insert", "home", "end", "pageUp", "pageDown", "space", "print", "playPause", "nextTrack",
              "previousTrack", "stopMedia", "mute", "volumeDown", "volumeUp", "brightnessUp",
              "brightnessDown"} | {f"f{n}" for n in range(1, 25)}
MODIFIERS = {"ctrl", "alt", "shift", "super"}
ERROR_CODES = {"unknownType", "badMessage", "mustBeSealed", "badSeal", "notAllowed", "unavailable"}
PAIRING_REASONS = {"wrongPin", "noPin", "expired", "badMessage"}
UNAUTHORIZED_REASONS = {"unknownDevice", "badProof", "notAuthorized"}
BUTTON_KINDS = {"app": "appId", "command": "command", "terminal": "directory", "open": "target"}
TOGGLE_STATES = {"on", "off"}
MEDIA_ACTIONS = {"playPause", "next", "previous", "stop"}
# A key's colour names (PROTOCOL §6 "Looks"; Tests/Fixtures/rules/looks.json).
PALETTE = ["red", "orange", "yellow", "lime", "green", "teal", "cyan", "blue", "indigo", "purple", "pink", "grey"]
MAX_EMOJI_BYTES = 64
# Grid sizes, landscape columns x rows (PROTOCOL §6 "Grid sizes"; Tests/Fixtures/rules/grids.json).
GRIDS = {"3x2": (3, 2), "4x3": (4, 3), "5x3": (5, 3), "8x4": (8, 4)}
PAGE_SIZES = {columns * rows for columns, rows in GRIDS.values()}
MEDIA_STATUSES = {"playing", "paused", "stopped", "none"}
RECORD_STATES = {"idle", "recording", "paused"}
RECORD_STOPS = {"requested", "diskFull", "error", "ended", "maxLength"}
CLIPBOARD_KINDS = {"text", "image"}
RECORD_DENIALS = {"notAllowed", "alreadyRecording", "notRecording", "noDisplay", "error"}

# type → {field: (kind, required)}; kinds: int, number, bool, str, list, button, pages, a set of allowed
# strings, or ("base64", size or None).
CATALOGUE = {
    "hello": {"protocol": ("int", False), "name": ("str", False), "deviceId": ("str", False)},
    "needPairing": {"hostName": ("str", False), "protocol": ("int", False)},
    "authRequired": {"hostName": ("str", False), "protocol": ("int", False)},
    "pairStart": {"name": ("str", False), "pA": (POINT, True)},
    "pairChallenge": {"pB": (POINT, True)},
    "pairConfirm": {"cA": (MAC, True)},
    "paired": {"deviceId": ("str", True), "cB": (MAC, True), "box": (("base64", 12 + 32 + 16), True)},
    "pairingFailed": {"reason": (PAIRING_REASONS, True), "remaining": ("int", False), "retryAfter": ("int", False)},
    "authStart": {"deviceId": ("str", True), "eA": (POINT, True)},
    "authChallenge": {"eB": (POINT, True), "proof": (MAC, True)},
    "authFinish": {"proof": (MAC, True)},
    "authorized": {"protocol": ("int", False), "hostName": ("str", False)},
    "unauthorized": {"reason": (UNAUTHORIZED_REASONS, True)},
    "secure": {"seq": ("int", True), "box": (("base64", None), True)},
    "error": {"code": (ERROR_CODES, True), "message": ("str", False), "request": ("str", False)},
    "layout": {"pages": ("pages", True), "grid": (set(GRIDS), False), "profile": ("str", False),
               "undoSteps": ("int", False)},
    "setButton": {"page": ("int", True), "index": ("int", True), "button": ("button", True), "path": ("path", False)},
    "clearButton": {"page": ("int", True), "index": ("int", True), "path": ("path", False)},
    "setGrid": {"grid": (set(GRIDS), True)},
    "moveButton": {"fromPage": ("int", True), "fromIndex": ("int", True), "toPage": ("int", True),
                   "toIndex": ("int", True), "path": ("path", False)},
    "press": {"page": ("int", True), "index": ("int", True), "path": ("path", False)},
    "pressResult": {"page": ("int", True), "index": ("int", True), "ok": ("bool", True), "reason": ("str", False),
                    "running": ("bool", False), "path": ("path", False)},
    "listApps": {},
    "apps": {"apps": ("list", True)},
    "volume": {"available": ("bool", True), "level": ("number", True), "muted": ("bool", True)},
    "mediaState": {"status": (MEDIA_STATUSES, True), "player": ("str", True), "title": ("str", False),
                   "artist": ("str", False), "album": ("str", False), "art": ("str", False),
                   "position": ("number", False), "length": ("number", False)},
    "setVolume": {"level": ("number", True)},
    "setSlider": {"page": ("int", True), "index": ("int", True), "path": ("path", False), "value": ("number", True)},
    "toggleMute": {},
    "keypad": {"key": (KEYPAD_KEYS, True)},
    "keypadResult": {"ok": ("bool", True), "reason": ("str", False)},
    "listDisplays": {},
    "displays": {"displays": ("list", True), "status": ({"ok", "noPermission", "notAllowed"}, True),
                 "extend": ("extendoffer", False)},
    "startScreen": {"displayId": ("int", True), "maxSide": ("int", True), "fps": ("int", False),
                    "audio": ("bool", False), "ask": ("bool", False), "extend": ("extend", False)},
    "screenStarted": {"displayId": ("int", True), "width": ("int", True), "height": ("int", True),
                      "fps": ("int", True), "audio": ("bool", True), "viewOnly": ("str", False)},
    "screenDenied": {"reason": ({"notAllowed", "noPermission", "locked", "busy", "cannotExtend"}, True),
                     "viewer": ("str", False), "asked": ({"unavailable", "denied", "timedOut"}, False),
                     "detail": ("str", False)},
    "screenPending": {"reason": ({"approval", "asking"}, True)},
    "screenPermission": {"allowed": ("bool", True), "once": ("bool", False)},
    "editPermission": {"allowed": ("bool", True)},
    "screenOptions": {"fps": ("int", True), "audio": ("bool", True)},
    "requestKeyframe": {},
    "pointer": {"kind": (POINTER_KINDS, True), "x": ("number", True), "y": ("number", True),
                "dx": ("number", False), "dy": ("number", False)},
    "stopScreen": {},
    "screenStopped": {"reason": ({"requested", "locked", "replaced", "error", "notAllowed", "ended"}, True)},
    "typeText": {"text": ("str", True), "enter": ("bool", False)},
    "pressKey": {"key": ("presskey", True), "modifiers": ("modifiers", False)},
    "typed": {"ok": ("bool", True), "reason": ("str", False)},
    "clipboardSet": {"kind": (CLIPBOARD_KINDS, True), "data": (("base64", None), True), "paste": ("bool", False),
                     "ask": ("bool", False)},
    "clipboardResult": {"ok": ("bool", True), "reason": ("str", False), "notAllowed": ("bool", False),
                        "asked": ({"unavailable", "denied", "timedOut"}, False)},
    "clipboardOffer": {"kind": (CLIPBOARD_KINDS, True), "size": ("int", True), "data": (("base64", None), False),
                       "width": ("int", False), "height": ("int", False), "tooLarge": ("bool", False)},
    "recordStart": {"displayId": ("int", False), "fps": ("int", False), "maxSide": ("int", False),
                    "maxSeconds": ("int", False)},
    "recordPause": {},
    "recordResume": {},
    "recordStop": {},
    "recordState": {"state": (RECORD_STATES, True), "displayId": ("int", False), "fps": ("int", False),
                    "elapsedMs": ("int", False), "name": ("str", False), "reason": (RECORD_STOPS, False)},
    "recordDenied": {"reason": (RECORD_DENIALS, True), "message": ("str", False)},
    "listRecordings": {},
    "recordings": {"recordings": ("list", True)},
    "fetchRecording": {"name": ("str", True), "offset": ("int", True)},
    "deleteRecording": {"name": ("str", True)},
    "recordingChunk": {"name": ("str", True), "offset": ("int", True), "size": ("int", True), "sha256": ("str", True),
                       "data": (("base64", None), True)},
    # Profiles (PROTOCOL §6 "Profiles"): named decks; `file` is a profile file's whole text.
    "switchProfile": {"name": ("str", True)},
    "followProfile": {"follow": ("bool", True)},
    "addProfile": {"name": ("str", True)},
    "deleteProfile": {"name": ("str", True)},
    "renameProfile": {"name": ("str", True), "newName": ("str", True)},
    # Holding a key (PROTOCOL §6 "Hold while pressed"): the finger down and up on a hotkey key with `hold`.
    "pressDown": {"page": ("int", True), "index": ("int", True), "path": ("path", False)},
    "pressUp": {"page": ("int", True), "index": ("int", True), "path": ("path", False)},
    "importProfile": {"file": ("str", True)},
    "profiles": {"names": ("list", True), "current": ("str", True), "shown": ("str", True), "follows": ("bool", True),
                 "apps": ("appsbyprofile", False), "focusProfile": ("str", False)},
    # Decks that follow the focused app: the apps a profile is for (desktop entry ids, WM_CLASS names, app ids).
    "setProfileApps": {"name": ("str", True), "apps": ("strlist", True)},
    "profileImported": {"name": ("str", True)},
    "undo": {},
    # Stored icons (PROTOCOL §6 "Stored icons"): a picture from the device, kept by the host as a PNG by name.
    "storeIcon": {"data": (("base64", None), True)},
    "iconStored": {"name": ("str", True)},
    "getIcon": {"name": ("str", True)},
    "icon": {"name": ("str", True), "data": (("base64", None), False)},
    # A key's live look (PROTOCOL §6 "Live looks", issue 23).
    "keyState": {"profile": ("str", True), "page": ("int", True), "index": ("int", True), "path": ("path", False),
                 "look": ("livelook", True), "error": ("str", False)},
}

DEFAULTS = {
    "hello": {"protocol": 1, "name": ""},
    "needPairing": {"protocol": 1},
    "authRequired": {"protocol": 1},
    "authorized": {"protocol": 1},
    "pairingFailed": {"remaining": 0},
    "startScreen": {"fps": 30, "audio": False},
    "pointer": {"dx": 0, "dy": 0},
    "typeText": {"enter": False},
    "clipboardSet": {"paste": True},
    "clipboardOffer": {"tooLarge": False},
    "recordStart": {"fps": 30},
}


def encode(message):
    """One wire text message: compact JSON, UTF-8 kept as-is."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def decode(text):
    """A wire text message → dict; raises ValueError unless it is a JSON object with a string `type`."""
    message = json.loads(text)
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ValueError("a message is a JSON object with a string type")
    return message


def with_defaults(message):
    return {**DEFAULTS.get(message.get("type"), {}), **message}


def problems(message):
    """Every way `message` breaks the catalogue; unknown fields are allowed (PROTOCOL §1)."""
    fields = CATALOGUE.get(message.get("type"))
    if fields is None:
        return [f"unknown type {message.get('type')!r}"]
    found = []
    for name, (kind, required) in fields.items():
        if name not in message:
            found += [f"missing {name}"] if required else []
        elif not _fits(kind, message[name]):
            found.append(f"bad {name}")
    return found


def _fits(kind, value):
    if isinstance(kind, set):
        return value in kind
    if isinstance(kind, tuple):
        return _is_base64(value, kind[1])
    checks = {
        "int": lambda v: type(v) is int,
        "number": lambda v: type(v) in (int, float),
        "bool": lambda v: type(v) is bool,
        "str": lambda v: isinstance(v, str),
        "list": lambda v: isinstance(v, list),
        "button": is_button,
        "livelook": is_live_look,
        "strlist": lambda v: isinstance(v, list) and all(isinstance(item, str) for item in v),
        "appsbyprofile": lambda v: isinstance(v, dict) and all(
            isinstance(apps, list) and all(isinstance(app, str) for app in apps) for apps in v.values()),
        # PROTOCOL §6 "Extend": the device's screen in device pixels, its scale and where the monitor goes.
        "extend": lambda v: (isinstance(v, dict) and all(type(v.get(k)) is int and 240 <= v[k] <= 8192
                                                          for k in ("width", "height"))
                             and type(v.get("scale", 1)) in (int, float) and 1 <= v.get("scale", 1) <= 4
                             and v.get("placement", "right") in {"right", "left", "above", "below"}),
        "extendoffer": lambda v: (isinstance(v, dict) and type(v.get("offered")) is bool
                                  and isinstance(v.get("reason", ""), str)),
        # A named key, or one printable character (not a space: that is the named key `space`).
        "presskey": lambda v: v in PRESS_KEYS or (isinstance(v, str) and len(v) == 1 and v.isprintable()
                                                  and not v.isspace()),
        "modifiers": lambda v: isinstance(v, list) and set(v) <= MODIFIERS and len(set(v)) == len(v),
        "pages": lambda v: isinstance(v, list) and all(is_page(page) for page in v) and len({len(p) for p in v}) <= 1,
        # The folder keys from the deck down to a folder (PROTOCOL §6 "Folders and pages").
        "path": lambda v: isinstance(v, list) and all(isinstance(step, dict) and type(step.get("page")) is int
                                                      and type(step.get("index")) is int for step in v),
    }
    return checks[kind](value)


def _is_base64(value, size):
    try:
        data = b64decode(value)
    except ValueError:
        return False
    return size is None or len(data) == size


def is_button(value):
    """{"label", "kind", and the field its kind needs}; a `record` key has an optional `displayId` and `fps`."""
    if not isinstance(value, dict) or not isinstance(value.get("label"), str) or not _is_look(value):
        return False
    if value.get("kind") == "record":
        return all(type(value.get(field, 0)) is int for field in ("displayId", "fps"))
    if value.get("kind") == "hotkey":
        return _fits("presskey", value.get("key")) and _fits("modifiers", value.get("modifiers", []))
    if value.get("kind") == "text":
        return isinstance(value.get("text"), str) and type(value.get("enter", False)) is bool
    if value.get("kind") == "media":
        return value.get("action") in MEDIA_ACTIONS
    if value.get("kind") == "multi":
        steps = value.get("steps")
        return isinstance(steps, list) and all(_is_step(step) for step in steps)
    if value.get("kind") == "toggle":
        return (all(_is_held(value.get(field)) for field in ("on", "off"))
                and all(isinstance(value.get(field, ""), str) for field in ("onLabel", "offLabel"))
                and value.get("state", "off") in TOGGLE_STATES)
    if value.get("kind") == "folder":  # its pages hold keys of their own; a folder set without them gets one page
        return "pages" not in value or (isinstance(value["pages"], list) and all(
            isinstance(page, list) and all(e is None or is_button(e) for e in page) for page in value["pages"]))
    if value.get("kind") == "profile":
        return isinstance(value.get("profile"), str)
    if value.get("kind") == "micMute":  # no fields of its own: it mutes the default microphone
        return True
    if value.get("kind") == "nowPlaying":  # a tile over 2 slots (PROTOCOL §6 "Tiles and sliders")
        return value.get("span", 2) == 2 and value.get("along", "row") in ("row", "column")
    if value.get("kind") == "slider":  # 2 to 4 slots bound to a level (PROTOCOL §6 "Tiles and sliders")
        bound = {"speakers": True, "microphone": True, "app": isinstance(value.get("app"), str),
                 "script": isinstance(value.get("command"), str) and "{value}" in value.get("command", "")}
        return (value.get("span", 2) in (2, 3, 4) and value.get("along", "row") in ("row", "column")
                and bound.get(value.get("bind"), False))
    if value.get("kind") == "page":
        return value.get("go") in ("next", "previous") or (value.get("go") == "page" and type(value.get("page")) is int)
    needed = BUTTON_KINDS.get(value.get("kind"))
    return needed is not None and isinstance(value.get(needed), str)


def is_live_look(value):
    """{label?, color?, icon?, badge? (≤ 4 characters), state? on|off, value? 0…1} (PROTOCOL §6 "Live looks")."""
    if not isinstance(value, dict) or not _is_look(value):
        return False
    return (isinstance(value.get("label", ""), str) and isinstance(value.get("badge", ""), str)
            and len(value.get("badge", "")) <= 4 and value.get("state", "off") in TOGGLE_STATES
            and type(value.get("value", 0)) in (int, float) and 0 <= value.get("value", 0) <= 1)


def _is_held(value):
    """A key inside a multi-action or a toggle: a button of another kind (the host refuses these two nested)."""
    return is_button(value) and value["kind"] not in ("multi", "toggle")


def _is_step(value):
    """A multi-action's step: a held key, or {"kind":"delay","ms":int}."""
    if isinstance(value, dict) and value.get("kind") == "delay":
        return type(value.get("ms")) is int
    return _is_held(value)
def _is_look(button):
    """The looks' shape: `color` a string, `hideLabel` a bool, `icon` {"emoji": str}, {"app": str} or {"image": str}
    (a stored icon, by file name)."""
    icon = button.get("icon")
    if icon is not None and not (isinstance(icon, dict) and (isinstance(icon.get("emoji"), str)
                                                            or ("emoji" not in icon and isinstance(icon.get("app"), str))
                                                            or (not {"emoji", "app"} & set(icon)
                                                                and isinstance(icon.get("image"), str)))):
        return False
    return (button.get("color") is None or isinstance(button["color"], str)) and \
        (button.get("hideLabel") is None or type(button["hideLabel"]) is bool)


def look_error(button):
    """The host's verdict on a well-shaped button's looks: None, "badColor", "badIcon" or "fieldTooLong"."""
    color, icon = button.get("color"), button.get("icon")
    if color is not None and color not in PALETTE:
        return "badColor"
    if icon is None:
        return None
    if "emoji" in icon:
        emoji = icon["emoji"]
        visible = emoji and not (emoji[0].isspace() or unicodedata.category(emoji[0]) in ("Cc", "Cf"))
        fits = characters(emoji) == 1 and len(emoji.encode()) <= MAX_EMOJI_BYTES
        return None if fits and visible else "badIcon"
    if "image" in icon:
        return None if re.fullmatch(r"[0-9a-f]{8,64}\.png", icon["image"]) else "badIcon"
    if icon["app"] == "":
        return "badIcon"
    return "fieldTooLong" if len(icon["app"].encode()) > 4096 else None


def characters(text):
    """Characters as the host counts them (extended grapheme clusters), for the emoji a key icon holds: a mark,
    a variation selector, a skin tone, a tag, the scalar after a zero-width joiner and the second regional
    indicator of a flag join the one before. An approximation of UAX #29, enough for emoji."""
    count, joined, flag_open = 0, False, False
    for char in text:
        code = ord(char)
        regional = 0x1F1E6 <= code <= 0x1F1FF
        joins = (joined or unicodedata.category(char).startswith("M") or code in (0x200D, 0xFE0E, 0xFE0F)
                 or 0x1F3FB <= code <= 0x1F3FF or 0xE0020 <= code <= 0xE007F or (regional and flag_open))
        if count == 0 or not joins:
            count += 1
        flag_open = regional and not (joins and flag_open)
        joined = code == 0x200D and count > 0
    return count


MAX_FOLDER_DEPTH = 4


def folder_depth(button):
    """How many folders deep a button reaches: 0 for a key, 1 for a folder of keys (DeckLayout.depth)."""
    if not isinstance(button, dict) or button.get("kind") != "folder":
        return 0
    return 1 + max([folder_depth(b) for page in button.get("pages", []) for b in page] + [0])


def turn_page(button, current, page_count):
    """The page a page key shows (PageTurn.destination); None when a numbered page is not one with keys."""
    shown = max(1, page_count - 1)
    if button["go"] == "next":
        return current + 1 if current + 1 < shown else 0
    if button["go"] == "previous":
        return current - 1 if 0 < current <= shown else shown - 1
    return button["page"] if 0 <= button["page"] < shown else None


def is_page(value):
    """As many entries as a grid size has slots (12 for the standard 4x3), each a button or null."""
    return isinstance(value, list) and len(value) in PAGE_SIZES and all(e is None or is_button(e) for e in value)
