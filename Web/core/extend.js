// Extend (PROTOCOL "Extend: the device as an extra monitor"): the monitor this device asks the computer to make,
// where it goes (remembered on this device), and following the device as it turns. Pure and clock-free.

/** Where the monitor goes beside the computer's monitors, in the order the picker offers them. */
export const PLACEMENTS = ['right', 'left', 'above', 'below'];
export const PLACEMENT_KEY = 'touchdeck.extendPlacement';
/** The host's limits for a side (device pixels) and for the scale. */
const SIDES = [240, 8192];
const SCALES = [1, 4];
/** Turning a device fires many resizes over ~0.5 s: the monitor is made again once they have settled. */
export const RESIZE_SETTLE_MS = 1000;

const clamp = (value, [low, high]) => Math.min(high, Math.max(low, value));

/**
 * `startScreen.extend` for an area of `css` CSS pixels at this `ratio` (devicePixelRatio): its device pixels, so
 * the stream is drawn 1:1. A ratio below 1 (a zoomed-out desktop browser) still asks for scale 1.
 */
export function extendRequest(css, ratio, placement = 'right') {
  const r = Number.isFinite(ratio) && ratio > 0 ? ratio : 1;
  const side = (length) => clamp(Math.round(length * r), SIDES);
  return { width: side(css.width), height: side(css.height), scale: clamp(r, SCALES),
    placement: PLACEMENTS.includes(placement) ? placement : 'right' };
}

/** Whether two requests would make the same monitor. */
export const sameMonitor = (a, b) => Boolean(a && b) && a.width === b.width && a.height === b.height
  && a.scale === b.scale && a.placement === b.placement;

/** The placement chosen last on this device (`storage`: localStorage or a stand-in); right when none or unknown. */
export class PlacementMemory {
  constructor(storage) { this.storage = storage; }

  get() {
    const saved = this.storage.getItem(PLACEMENT_KEY);
    return PLACEMENTS.includes(saved) ? saved : 'right';
  }

  set(placement) {
    if (!PLACEMENTS.includes(placement)) throw new RangeError(`placement must be one of ${PLACEMENTS.join(', ')}`);
    this.storage.setItem(PLACEMENT_KEY, placement);
  }
}

/**
 * Follows the device's size while it extends: `resized()` on every resize; once they have stopped for
 * RESIZE_SETTLE_MS, `measure()` is compared with the monitor asked for last and, when it differs, `ask(request)`
 * asks again. While an ask is unanswered (`asked` until `answered`) nothing more is asked: a size that changed
 * meanwhile is asked for once the answer came.
 */
export class ExtendFollower {
  constructor({ measure, ask, timers = globalThis, settle = RESIZE_SETTLE_MS }) {
    Object.assign(this, { measure, ask, timers, settle });
    this.current = null;
    this.waiting = false;
    this.timer = null;
  }

  /** A monitor of `request` was asked for (the user chose Extend, or this follower asked). */
  asked(request) {
    this.current = request;
    this.waiting = true;
  }

  /** The host answered with screenStarted: a size that changed while it worked is asked for now. */
  answered() {
    this.waiting = false;
    if (this.timer === null) this.#settled();
  }

  resized() {
    if (this.current === null) return;
    this.timers.clearTimeout(this.timer);
    this.timer = this.timers.setTimeout(() => {
      this.timer = null;
      this.#settled();
    }, this.settle);
  }

  /** Extending ended (or the view shows a monitor of the computer's): resizes ask for nothing. */
  stop() {
    this.timers.clearTimeout(this.timer);
    this.timer = null;
    this.current = null;
    this.waiting = false;
  }

  #settled() {
    if (this.current === null || this.waiting) return;
    const request = this.measure();
    if (sameMonitor(request, this.current)) return;
    this.asked(request);
    this.ask(request);
  }
}
