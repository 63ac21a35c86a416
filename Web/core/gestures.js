// Touches and mouse input on the screen view → what they mean (DESIGN.md#viewing, seed numbers). Pure: positions are
// view points, times are milliseconds passed in, and each call returns the actions it caused:
//   {type:'click'|'rightClick'|'down'|'move'|'up', at}   a pointer action at a view point
//   {type:'scroll', at, origin, dx, dy}                  the finger's travel since the last scroll, in points
//   {type:'zoom', ratio, centre}                         local zoom by this factor (pinch)
//   {type:'pan', dx, dy}                                 move the zoomed or lifted view locally
//   {type:'ring', at}                                    show the drag ring there (at: null hides it)
import { TwoFinger } from './geometry.js';

export const TOUCH = Object.freeze({
  /** A finger held this long without moving starts a drag. */
  holdMs: 400,
  /** …"without moving" means less than this many points. */
  holdSlop: 10,
  /** A second tap this soon and this near lands where the first did, so the host sees a double click. */
  doubleTapMs: 500,
  doubleTapDistance: 8,
});

/** A mouse button held and moved this far (points) is a drag rather than a click. */
export const MOUSE_DRAG_SLOP = 4;
/** One wheel notch (100 px in Chromium and Safari) becomes 50 monitor pixels: one wheel step on the host. */
export const WHEEL_SCALE = 0.5;

const distance = (a, b) => Math.hypot(a.x - b.x, a.y - b.y);
const midpoint = (a, b) => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });

/** Touch gestures. `view()` gives `{zoom, covered}` for TwoFinger.decide. */
export class TouchGestures {
  constructor({ view = () => ({ zoom: 1, covered: 0 }) } = {}) {
    this.view = view;
    this.fingers = new Map();
    this.mode = 'idle';
    this.lastTap = null;
  }

  /** When `tick` must be called next (the hold deadline), or null. */
  get deadline() {
    return this.mode === 'pending' ? this.downAt + TOUCH.holdMs : null;
  }

  down(id, at, now) {
    this.fingers.set(id, at);
    if (this.mode === 'idle' && this.fingers.size === 1) {
      Object.assign(this, { mode: 'pending', start: at, last: at, downAt: now });
      return [];
    }
    if (this.mode === 'pending' && this.fingers.size === 2) {
      const [a, b] = [...this.fingers.values()];
      Object.assign(this, { mode: 'two', two: 'undecided', spread0: Math.max(1, distance(a, b)) });
      this.mid0 = midpoint(a, b);
      this.midLast = this.mid0;
      this.spreadLast = 1;
    }
    return [];
  }

  move(id, at, now) {
    if (!this.fingers.has(id)) return [];
    this.fingers.set(id, at);
    const actions = this.tick(now);
    switch (this.mode) {
      case 'pending':
        if (distance(at, this.start) < TOUCH.holdSlop) return actions;
        this.mode = 'scroll';
        return [...actions, ...this.#scrollTo(at)];
      case 'scroll':
        return this.#scrollTo(at);
      case 'drag':
        return [...actions, { type: 'ring', at }, { type: 'move', at }];
      case 'two':
        return this.#twoMoved();
      default:
        return actions;
    }
  }

  /**
   * Records where a finger of a two-finger gesture is, without judging yet: Pointer Events report the fingers
   * of one touch move one at a time, and a spread measured with one finger moved and the other not is wrong
   * (two fingers swiping together look like a pinch). The caller calls `settle` once per frame.
   */
  place(id, at) {
    if (this.fingers.has(id)) this.fingers.set(id, at);
  }

  /** Judges the fingers placed since the last frame. */
  settle() {
    return this.mode === 'two' ? this.#twoMoved() : [];
  }

  /** True while two fingers are down: moves then go through `place` and `settle`. */
  get twoFingers() {
    return this.mode === 'two';
  }

  up(id, at, now) {
    if (!this.fingers.has(id)) return [];
    this.fingers.set(id, at);
    const actions = this.#lift(at, now);
    this.fingers.delete(id);
    if (this.fingers.size === 0) this.mode = 'idle';
    return actions;
  }

  /** The touch was taken away (pointercancel, page hidden): a held button is let go, nothing else is sent. */
  cancel() {
    const held = this.mode === 'drag' ? [{ type: 'up', at: this.last }, { type: 'ring', at: null }] : [];
    this.fingers.clear();
    this.mode = 'idle';
    return held;
  }

  /** Turns a still finger into a drag once it has been held long enough. */
  tick(now) {
    if (this.mode !== 'pending' || now - this.downAt < TOUCH.holdMs) return [];
    this.mode = 'drag';
    this.lastTap = null;
    return [{ type: 'ring', at: this.start }, { type: 'down', at: this.start }];
  }

  #lift(at, now) {
    switch (this.mode) {
      case 'pending': {
        this.mode = 'done';
        return [{ type: 'click', at: this.#tapPlace(at, now) }];
      }
      case 'scroll':
        this.mode = 'done';
        return this.#scrollTo(at);
      case 'drag':
        this.mode = 'done';
        return [{ type: 'up', at }, { type: 'ring', at: null }];
      case 'two': {
        const tap = this.two === 'undecided';
        this.mode = 'done';
        return tap ? [{ type: 'rightClick', at: this.mid0 }] : [];
      }
      default:
        return [];
    }
  }

  /** A second tap soon and near enough lands on the first one's point. */
  #tapPlace(at, now) {
    const last = this.lastTap;
    const near = last && now - last.time <= TOUCH.doubleTapMs && distance(at, last.at) <= TOUCH.doubleTapDistance;
    const place = near ? last.at : at;
    this.lastTap = { at: place, time: now };
    return place;
  }

  #scrollTo(at) {
    const dx = at.x - this.last.x;
    const dy = at.y - this.last.y;
    this.last = at;
    if (dx === 0 && dy === 0) return [];
    return [{ type: 'scroll', at, origin: this.start, dx, dy }];
  }

  #twoMoved() {
    const [a, b] = [...this.fingers.values()];
    const mid = midpoint(a, b);
    const spread = Math.max(1, distance(a, b)) / this.spread0;
    const { zoom, covered } = this.view();
    this.two = TwoFinger.decide(this.two, { spread, moved: distance(mid, this.mid0), zoom, covered });
    if (this.two === 'undecided') return [];
    // Measured from the last decided move, so the decision's own move carries all the travel so far.
    const dx = mid.x - this.midLast.x;
    const dy = mid.y - this.midLast.y;
    const ratio = spread / this.spreadLast;
    this.midLast = mid;
    this.spreadLast = spread;
    switch (this.two) {
      case 'zoom': return [{ type: 'zoom', ratio, centre: mid }];
      case 'pan': return [{ type: 'pan', dx, dy }];
      case 'scroll': return dx || dy ? [{ type: 'scroll', at: mid, origin: this.mid0, dx, dy }] : [];
      default: return [];
    }
  }
}

/** Mouse and trackpad on a desktop browser: click, right click, drag with the left button, wheel. */
export class MouseGestures {
  constructor() {
    this.pressed = null;
  }

  down(button, at) {
    if (button === 2) return [{ type: 'rightClick', at }];
    if (button !== 0) return [];
    this.pressed = { start: at, dragging: false };
    return [];
  }

  move(at) {
    const p = this.pressed;
    if (!p) return [];
    if (!p.dragging && distance(at, p.start) < MOUSE_DRAG_SLOP) return [];
    const begin = p.dragging ? [] : [{ type: 'down', at: p.start }];
    p.dragging = true;
    return [...begin, { type: 'move', at }];
  }

  up(button, at) {
    const p = this.pressed;
    if (button !== 0 || !p) return [];
    this.pressed = null;
    return p.dragging ? [{ type: 'up', at }] : [{ type: 'click', at: p.start }];
  }

  /** A lost button (the pointer left the window while held): let it go. */
  cancel(at) {
    const p = this.pressed;
    this.pressed = null;
    return p?.dragging ? [{ type: 'up', at: at ?? p.start }] : [];
  }

  /**
   * A wheel event in CSS pixels (deltaMode already applied). The content follows the wheel as it would on the
   * computer: wheel down (positive deltaY) is the finger moving up. With Ctrl (a trackpad pinch) it zooms.
   */
  wheel(at, deltaX, deltaY, ctrlKey) {
    if (ctrlKey) return [{ type: 'zoom', ratio: Math.exp(-deltaY / 100), centre: at }];
    return [{ type: 'scroll', at, origin: at, dx: -deltaX * WHEEL_SCALE, dy: -deltaY * WHEEL_SCALE, wheel: true }];
  }
}
