// Keys held while pressed (PROTOCOL §6 "Hold while pressed", push-to-talk), the device's side: a `hotkey` key with
// `hold:true` sends `pressDown` when the finger lands and `pressUp` when it lifts, is cancelled, loses its capture
// or the page is hidden — exactly one `pressUp` for each `pressDown`, whichever of those comes first (they often
// come together: pointerup, then lostpointercapture). DOM-free: Web/app/deck.js feeds it pointer ids.

/** Whether pressing this key holds it (a host at protocol 3 that sent `hold` knows `pressDown`). */
export function isHoldKey(button, hostProtocol = 3) {
  return button?.kind === 'hotkey' && button.hold === true && hostProtocol >= 3;
}

/**
 * What a finger on a key means: 'edit' in edit mode (a tap opens the key's editor, nothing is pressed), 'hold' for
 * a key held while pressed (pressDown now, pressUp at the lift, a long press is part of the hold, not an edit),
 * 'press' otherwise (a tap presses; a long press lifts the key to move or edit it).
 */
export function touchMeaning(button, { editing = false, hostProtocol = 3 } = {}) {
  if (editing) return 'edit';
  return isHoldKey(button, hostProtocol) ? 'hold' : 'press';
}

/** The `pressDown` / `pressUp` message for a key; `path` only inside a folder, as `press` has it. */
export function holdMessage(type, { page, index, path = [] }) {
  return path.length ? { type, page, index, path: path.map(({ page: p, index: i }) => ({ page: p, index: i })) }
    : { type, page, index };
}

const slotId = ({ page, index, path = [] }) => [...path.map((s) => `${s.page}.${s.index}`), `${page}.${index}`].join('/');

/**
 * The keys this device holds, by pointer. `down` gives the `pressDown` to send (null when that pointer already
 * holds a key, or another pointer holds this one: a second finger on a held key neither presses nor lets go);
 * `up` gives the matching `pressUp` once, then null.
 */
export class KeyHolds {
  #byPointer = new Map(); // pointer id → {page, index, path}

  down(pointer, key) {
    if (this.#byPointer.has(pointer) || this.isHeld(key)) return null;
    const held = { page: key.page, index: key.index, path: [...(key.path ?? [])] };
    this.#byPointer.set(pointer, held);
    return holdMessage('pressDown', held);
  }

  /** The pointer lifted, was cancelled or lost its capture: its key's `pressUp`, the first time only. */
  up(pointer) {
    const held = this.#byPointer.get(pointer);
    if (!held) return null;
    this.#byPointer.delete(pointer);
    return holdMessage('pressUp', held);
  }

  /** The page was hidden (or the deck goes away): every held key's `pressUp`. */
  upAll() {
    return [...this.#byPointer.keys()].map((pointer) => this.up(pointer));
  }

  /**
   * The connection was lost: the host let go of everything this connection held, so nothing is sent; returns the
   * keys that were held, to draw them let go.
   */
  forget() {
    const keys = [...this.#byPointer.values()];
    this.#byPointer.clear();
    return keys;
  }

  /** Whether a pointer holds this key (page, index and folder path). */
  isHeld(key) {
    const id = slotId(key);
    return [...this.#byPointer.values()].some((held) => slotId(held) === id);
  }

  /** Whether this pointer holds a key. */
  holds(pointer) { return this.#byPointer.has(pointer); }

  get size() { return this.#byPointer.size; }
}
