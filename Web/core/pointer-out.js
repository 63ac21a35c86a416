// Gesture actions → `pointer` messages (PROTOCOL §6): positions normalized to the video after undoing the
// letterbox, zoom and pan; nothing for touches on the letterbox; moves and scrolls at most 60 a second with the
// newest always sent; a drag that wanders onto the letterbox still moves and lets go at the video's edge.
import { normalized, videoRect } from './geometry.js';

/** Moves and scrolls per second at most (the host applies no more either). */
export const MOVES_PER_SECOND = 60;

const clamp01 = (v) => Math.min(1, Math.max(0, v));

/** Like `normalized`, but a point off the video is pulled to its nearest edge instead of dropped. */
export function normalizedClamped(touch, view, video, zoom, offset) {
  const rect = videoRect(video, view);
  if (!(zoom > 0 && rect.width > 0 && rect.height > 0)) return null;
  const x = view.width / 2 + (touch.x - offset.width - view.width / 2) / zoom;
  const y = view.height / 2 + (touch.y - offset.height - view.height / 2) / zoom;
  return { x: clamp01((x - rect.x) / rect.width), y: clamp01((y - rect.y) / rect.height) };
}

/**
 * Sends moves and scrolls at most `perSecond` times a second. Moves replace a waiting move; scrolls add up,
 * so no travel is lost; anything else (click, down, up) first flushes what waits, keeping the order.
 */
export class MoveLimiter {
  constructor({ send, now, timers = globalThis, perSecond = MOVES_PER_SECOND }) {
    Object.assign(this, { send, now, timers, interval: 1000 / perSecond });
    this.lastSent = -Infinity;
    this.waiting = null;
    this.timer = null;
  }

  offer(message) {
    if (message.kind !== 'move' && message.kind !== 'scroll') {
      this.flush();
      this.send(message);
      return;
    }
    if (this.waiting && this.waiting.kind !== message.kind) this.flush();
    if (this.waiting?.kind === 'scroll') {
      message = { ...message, dx: this.waiting.dx + message.dx, dy: this.waiting.dy + message.dy };
    }
    this.waiting = message;
    const due = this.lastSent + this.interval;
    if (this.now() >= due) this.flush();
    else if (this.timer === null) this.timer = this.timers.setTimeout(() => this.flush(), due - this.now());
  }

  flush() {
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
    const message = this.waiting;
    this.waiting = null;
    if (!message) return;
    this.lastSent = this.now();
    this.send(message);
  }

  /** Forgets what waits (viewing ended). */
  drop() {
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
    this.waiting = null;
  }
}

/**
 * Turns gesture actions into `pointer` messages. `geometry()` gives
 * `{view, video, zoom, offset, monitor}` (sizes as {width, height}; `monitor` is the display's own pixels).
 */
export class PointerSender {
  constructor({ send, geometry, now = () => performance.now(), timers = globalThis }) {
    this.geometry = geometry;
    this.limiter = new MoveLimiter({ send, now, timers });
    this.dragging = false;
  }

  handle(action) {
    const g = this.geometry();
    const at = (p) => normalized(p, g.view, g.video, g.zoom, g.offset);
    const edge = (p) => normalizedClamped(p, g.view, g.video, g.zoom, g.offset);
    switch (action.type) {
      case 'click':
      case 'rightClick':
        return this.#send(action.type, at(action.at));
      case 'down': {
        const p = at(action.at);
        this.dragging = p !== null;
        return this.#send('down', p);
      }
      case 'move':
        return this.dragging ? this.#send('move', edge(action.at)) : undefined;
      case 'up': {
        const was = this.dragging;
        this.dragging = false;
        return was ? this.#send('up', edge(action.at)) : undefined;
      }
      case 'scroll':
        return this.#scroll(action, g, at(action.origin));
      default:
        return undefined;
    }
  }

  /** Viewing ended: nothing waiting is sent later; the host has let go of any held button. */
  reset() {
    this.limiter.drop();
    this.dragging = false;
  }

  #scroll(action, g, origin) {
    if (!origin) return; // a scroll that started on the letterbox sends nothing
    const p = normalizedClamped(action.at, g.view, g.video, g.zoom, g.offset);
    // Touch travel is in view points: scale it to the monitor's pixels. Wheel deltas already are.
    const scale = action.wheel ? 1 : g.monitor.width / (videoRect(g.video, g.view).width * g.zoom);
    this.limiter.offer({ type: 'pointer', kind: 'scroll', x: p.x, y: p.y, dx: action.dx * scale, dy: action.dy * scale });
  }

  #send(kind, p) {
    if (!p) return;
    this.limiter.offer({ type: 'pointer', kind, x: p.x, y: p.y });
  }
}
