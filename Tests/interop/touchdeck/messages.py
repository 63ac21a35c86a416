"""The message catalogue of PROTOCOL §2–§6: which fields each type has, and a checker.

`problems(message)` lists what is wrong with a message (empty when it follows the contract);
`with_defaults(message)` fills absent optional fields with the defaults PROTOCOL.md names.
"""

import json

from .primitives import b64decode

POINT, MAC = ("base64", 65), ("base64", 32)

POINTER_KINDS = {"click", "rightClick", "scroll", "down", "move", "up"}
KEYPAD_KEYS = set("0123456789.+-*/=") | {"enter", "backspace"}
PRESS_KEYS = {"esc", "tab", "shiftTab", "up", "down", "left", "right", "selectAll", "backspace", "ctrlC", "return"}
ERROR_CODES = {"unknownType", "badMessage", "mustBeSealed", "badSeal", "notAllowed", "unavailable"}
PAIRING_REASONS = {"wrongPin", "noPin", "expired", "badMessage"}
UNAUTHORIZED_REASONS = {"unknownDevice", "badProof", "notAuthorized"}
BUTTON_KINDS = {"app": "appId", "command": "command", "terminal": "directory"}
RECORD_STATES = {"idle", "recording", "paused"}
RECORD_STOPS = {"requested", "diskFull", "error", "ended"}
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
    "error": {"code": (ERROR_CODES, True), "message": ("str", False)},
    "layout": {"pages": ("pages", True)},
    "setButton": {"page": ("int", True), "index": ("int", True), "button": ("button", True)},
    "clearButton": {"page": ("int", True), "index": ("int", True)},
    "moveButton": {"fromPage": ("int", True), "fromIndex": ("int", True), "toPage": ("int", True),
                   "toIndex": ("int", True)},
    "press": {"page": ("int", True), "index": ("int", True)},
    "pressResult": {"page": ("int", True), "index": ("int", True), "ok": ("bool", True), "reason": ("str", False)},
    "listApps": {},
    "apps": {"apps": ("list", True)},
    "volume": {"available": ("bool", True), "level": ("number", True), "muted": ("bool", True)},
    "setVolume": {"level": ("number", True)},
    "toggleMute": {},
    "keypad": {"key": (KEYPAD_KEYS, True)},
    "keypadResult": {"ok": ("bool", True), "reason": ("str", False)},
    "listDisplays": {},
    "displays": {"displays": ("list", True), "status": ({"ok", "noPermission", "notAllowed"}, True)},
    "startScreen": {"displayId": ("int", True), "maxSide": ("int", True), "fps": ("int", False),
                    "audio": ("bool", False)},
    "screenStarted": {"displayId": ("int", True), "width": ("int", True), "height": ("int", True),
                      "fps": ("int", True), "audio": ("bool", True), "viewOnly": ("str", False)},
    "screenDenied": {"reason": ({"notAllowed", "noPermission", "locked", "busy"}, True), "viewer": ("str", False)},
    "screenPending": {"reason": ({"approval"}, True)},
    "screenOptions": {"fps": ("int", True), "audio": ("bool", True)},
    "requestKeyframe": {},
    "pointer": {"kind": (POINTER_KINDS, True), "x": ("number", True), "y": ("number", True),
                "dx": ("number", False), "dy": ("number", False)},
    "stopScreen": {},
    "screenStopped": {"reason": ({"requested", "locked", "replaced", "error", "notAllowed", "ended"}, True)},
    "typeText": {"text": ("str", True), "enter": ("bool", False)},
    "pressKey": {"key": (PRESS_KEYS, True)},
    "typed": {"ok": ("bool", True), "reason": ("str", False)},
    "recordStart": {"displayId": ("int", False), "fps": ("int", False), "maxSide": ("int", False)},
    "recordPause": {},
    "recordResume": {},
    "recordStop": {},
    "recordState": {"state": (RECORD_STATES, True), "displayId": ("int", False), "fps": ("int", False),
                    "elapsedMs": ("int", False), "name": ("str", False), "reason": (RECORD_STOPS, False)},
    "recordDenied": {"reason": (RECORD_DENIALS, True), "message": ("str", False)},
    "listRecordings": {},
    "recordings": {"recordings": ("list", True)},
    "fetchRecording": {"name": ("str", True), "offset": ("int", True)},
    "recordingChunk": {"name": ("str", True), "offset": ("int", True), "size": ("int", True), "sha256": ("str", True),
                       "data": (("base64", None), True)},
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
        "pages": lambda v: isinstance(v, list) and all(is_page(page) for page in v),
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
    if not isinstance(value, dict) or not isinstance(value.get("label"), str):
        return False
    if value.get("kind") == "record":
        return all(type(value.get(field, 0)) is int for field in ("displayId", "fps"))
    needed = BUTTON_KINDS.get(value.get("kind"))
    return needed is not None and isinstance(value.get(needed), str)


def is_page(value):
    """Exactly 12 entries, each a button or null."""
    return isinstance(value, list) and len(value) == 12 and all(e is None or is_button(e) for e in value)
