// The keyboard panel's sticky modifiers (PROTOCOL §6 "Text input": `pressKey.modifiers`), as iOS's Shift and
// caps lock work: a tap holds the modifier for the next key only, a second tap soon after locks it until it is
// tapped again. The clock is the caller's (`now` in ms), so the machine is tested without timers.

/** The modifiers in the order the wire lists them. */
export const MODIFIERS = ['ctrl', 'alt', 'shift', 'super'];
/** A second tap within this long of the first locks the modifier. */
export const DOUBLE_TAP_MS = 400;

/** off → tap → once → (used by a key) → off; once → a quick second tap → locked → tap → off. */
export class StickyModifiers {
  #states = new Map(MODIFIERS.map((name) => [name, 'off']));
  #tappedAt = new Map();

  /** 'off', 'once' or 'locked'. */
  state(name) {
    return this.#states.get(name);
  }

  /** A tap on a modifier's button at `now`; returns its new state. */
  tap(name, now) {
    if (!this.#states.has(name)) throw new RangeError(`not a modifier: ${name}`);
    const before = this.#states.get(name);
    const quick = now - (this.#tappedAt.get(name) ?? -Infinity) <= DOUBLE_TAP_MS;
    const after = before === 'off' ? 'once' : before === 'once' && quick ? 'locked' : 'off';
    this.#states.set(name, after);
    // A tap that turned it off starts no double tap: off → once → off → once is three slow taps' worth.
    if (after === 'once') this.#tappedAt.set(name, now);
    else this.#tappedAt.delete(name);
    return after;
  }

  /** The modifiers held now, in wire order (empty when none). */
  held() {
    return MODIFIERS.filter((name) => this.#states.get(name) !== 'off');
  }

  /** A key was sent with the held modifiers: the ones held once are released, locked ones stay. */
  used() {
    let changed = false;
    for (const [name, state] of this.#states) {
      if (state !== 'once') continue;
      this.#states.set(name, 'off');
      this.#tappedAt.delete(name);
      changed = true;
    }
    return changed;
  }

  /** Everything off (the panel closed). */
  clear() {
    for (const name of MODIFIERS) this.#states.set(name, 'off');
    this.#tappedAt.clear();
  }
}
