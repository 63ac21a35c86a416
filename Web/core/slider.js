// Sliders (PROTOCOL §6 "Tiles and sliders"): where a finger on a slider puts its value, and how often a drag sends
// `setSlider` — at most 20 a second, the latest value always sent last. DOM-free (the clock and the timer are passed
// in), so `node --test` checks it.

/** The host's bindings and the editor's names for them, in the editor's order. */
export const SLIDER_BINDINGS = { speakers: 'Speakers', microphone: 'Microphone', app: 'One app', script: 'Script' };
/** At most this many `setSlider` a second per drag. */
export const SLIDER_RATE = 20;

/**
 * The value 0…1 at a point of a slider's box: along a row, left is 0 and right is 1; along a column, bottom is 0 and
 * top is 1. `rect` is `{ left, top, width, height }`, `point` `{ x, y }`.
 */
export function sliderValue(rect, point, along = 'row') {
  const raw = along === 'column' ? (rect.top + rect.height - point.y) / rect.height : (point.x - rect.left) / rect.width;
  return Math.round(Math.min(1, Math.max(0, Number.isFinite(raw) ? raw : 0)) * 100) / 100;
}

/**
 * Sends a drag's values at most `rate` a second: a value that comes sooner than 1/rate after the last one sent waits,
 * a newer one replaces it, and it goes when its turn comes, so the last value is always sent. `send(value)` sends;
 * `now()` is the clock in ms; `later(fn, ms)` a timer (setTimeout).
 */
export class SliderSender {
  constructor(send, { now = () => performance.now(), later = (fn, ms) => setTimeout(fn, ms), rate = SLIDER_RATE } = {}) {
    this.send = send;
    this.now = now;
    this.later = later;
    this.gap = 1000 / rate;
    this.lastSent = -Infinity;
    this.waiting = null;
    this.planned = false;
  }

  /** The finger moved the slider to `value`. */
  move(value) {
    const due = this.lastSent + this.gap;
    if (!this.planned && this.now() >= due) {
      this.lastSent = this.now();
      this.send(value);
      return;
    }
    this.waiting = value;
    if (this.planned) return;
    this.planned = true;
    this.later(() => {
      this.planned = false;
      this.lastSent = this.now();
      const value = this.waiting;
      this.waiting = null;
      this.send(value);
    }, Math.max(0, due - this.now()));
  }
}

/** The label a slider gets when its label is left empty: what it moves. */
export function sliderLabel(button) {
  if (button?.bind === 'app') return typeof button.app === 'string' ? button.app : '';
  return SLIDER_BINDINGS[button?.bind] ?? '';
}
