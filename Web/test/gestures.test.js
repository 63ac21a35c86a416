// Gesture decisions (DESIGN.md#viewing, seed numbers) and their pointer messages, with times passed in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MouseGestures, TouchGestures, TOUCH } from '../core/gestures.js';
import { MoveLimiter, PointerSender } from '../core/pointer-out.js';

const p = (x, y) => ({ x, y });
const types = (actions) => actions.map((a) => a.type);

test('a tap is a click where the finger lifted', () => {
  const g = new TouchGestures();
  assert.deepEqual(g.down(1, p(100, 100), 0), []);
  assert.deepEqual(g.up(1, p(103, 101), 80), [{ type: 'click', at: p(103, 101) }]);
});

test('a second tap within 0.5 s and 8 points lands on the first one (a double click on the host)', () => {
  const g = new TouchGestures();
  g.down(1, p(100, 100), 0);
  g.up(1, p(100, 100), 50);
  g.down(2, p(105, 104), 300);
  assert.deepEqual(g.up(2, p(105, 104), 350), [{ type: 'click', at: p(100, 100) }]);
});

test('a second tap too late or too far is a click of its own', () => {
  for (const [at, time] of [[p(105, 104), 50 + TOUCH.doubleTapMs + 1], [p(109, 100), 300]]) {
    const g = new TouchGestures();
    g.down(1, p(100, 100), 0);
    g.up(1, p(100, 100), 50);
    g.down(2, at, time - 20);
    assert.deepEqual(g.up(2, at, time), [{ type: 'click', at }]);
  }
});

test('two fingers tapped together are a right click at their midpoint', () => {
  const g = new TouchGestures();
  g.down(1, p(100, 100), 0);
  g.down(2, p(200, 100), 10);
  g.move(2, p(201, 101), 40);
  assert.deepEqual(g.up(1, p(100, 100), 90), [{ type: 'rightClick', at: p(150, 100) }]);
  assert.deepEqual(g.up(2, p(201, 101), 95), []);
});

test('a finger that moves 10 points before 0.4 s scrolls with all of its travel', () => {
  const g = new TouchGestures();
  g.down(1, p(100, 100), 0);
  assert.deepEqual(g.move(1, p(100, 105), 20), []);
  const first = g.move(1, p(100, 112), 40);
  assert.deepEqual(first, [{ type: 'scroll', at: p(100, 112), origin: p(100, 100), dx: 0, dy: 12 }]);
  assert.equal(g.move(1, p(100, 130), 600)[0].dy, 18, 'still a scroll after 0.4 s');
  assert.deepEqual(types(g.up(1, p(100, 131), 620)), ['scroll']);
});

test('hold 0.4 s still, then move: a drag with a ring under the finger', () => {
  const g = new TouchGestures();
  g.down(1, p(100, 100), 0);
  assert.equal(g.deadline, TOUCH.holdMs);
  assert.deepEqual(g.tick(399), []);
  assert.deepEqual(g.move(1, p(104, 103), 200), [], 'moving less than 10 points keeps the hold');
  assert.deepEqual(g.tick(400), [{ type: 'ring', at: p(100, 100) }, { type: 'down', at: p(100, 100) }]);
  assert.deepEqual(g.move(1, p(300, 200), 500), [{ type: 'ring', at: p(300, 200) }, { type: 'move', at: p(300, 200) }]);
  assert.deepEqual(g.up(1, p(310, 200), 600), [{ type: 'up', at: p(310, 200) }, { type: 'ring', at: null }]);
});

test('a hold found late by a move still starts the drag first', () => {
  const g = new TouchGestures();
  g.down(1, p(100, 100), 0);
  assert.deepEqual(types(g.move(1, p(150, 100), 450)), ['ring', 'down', 'ring', 'move']);
});

test('a cancelled drag lets the button go', () => {
  const g = new TouchGestures();
  g.down(1, p(100, 100), 0);
  g.tick(450);
  assert.deepEqual(types(g.cancel()), ['up', 'ring']);
  assert.deepEqual(g.cancel(), []);
});

test('pinch zooms locally; the decision sticks even when the fingers then move together', () => {
  let zoom = 1;
  const g = new TouchGestures({ view: () => ({ zoom, covered: 0 }) });
  g.down(1, p(400, 400), 0);
  g.down(2, p(600, 400), 5);
  const [action] = g.move(2, p(640, 400), 30);
  assert.equal(action.type, 'zoom');
  assert.ok(Math.abs(action.ratio - 1.2) < 1e-9);
  zoom = 1.2;
  assert.equal(g.move(1, p(400, 460), 60)[0].type, 'zoom');
});

test('two fingers swiping scroll at 1x and pan when zoomed or when the keyboard covers the bottom', () => {
  for (const [view, expected] of [[{ zoom: 1, covered: 0 }, 'scroll'], [{ zoom: 2, covered: 0 }, 'pan'],
    [{ zoom: 1, covered: 300 }, 'pan']]) {
    const g = new TouchGestures({ view: () => view });
    g.down(1, p(400, 400), 0);
    g.down(2, p(600, 400), 5);
    assert.deepEqual(g.move(1, p(400, 420), 20), [], 'one finger alone moved the midpoint 10: undecided');
    const [action] = g.move(2, p(600, 420), 30);
    assert.equal(action.type, expected);
    assert.equal(action.dy, 20);
    assert.deepEqual(g.up(1, p(400, 420), 40), [], 'not a right click');
  }
});

test('mouse: click, right click, drag past 4 points, wheel and ctrl-wheel zoom', () => {
  const m = new MouseGestures();
  m.down(0, p(10, 10));
  assert.deepEqual(m.move(p(12, 11)), []);
  assert.deepEqual(m.up(0, p(12, 11)), [{ type: 'click', at: p(10, 10) }]);
  assert.deepEqual(m.down(2, p(5, 5)), [{ type: 'rightClick', at: p(5, 5) }]);
  m.down(0, p(10, 10));
  assert.deepEqual(m.move(p(20, 10)), [{ type: 'down', at: p(10, 10) }, { type: 'move', at: p(20, 10) }]);
  assert.deepEqual(m.up(0, p(30, 10)), [{ type: 'up', at: p(30, 10) }]);
  const [wheel] = m.wheel(p(1, 2), 0, 100, false);
  assert.deepEqual([wheel.type, wheel.dx, wheel.dy, wheel.wheel], ['scroll', -0, -50, true]);
  assert.equal(m.wheel(p(1, 2), 0, -100, true)[0].type, 'zoom');
});

function clock() {
  const c = { t: 0, pending: [], now: () => c.t,
    setTimeout(fn, ms) { c.pending.push({ fn, at: c.t + ms }); return c.pending.length; },
    clearTimeout(id) { if (c.pending[id - 1]) c.pending[id - 1].fn = null; },
    advance(ms) {
      c.t += ms;
      for (const job of c.pending) if (job.fn && job.at <= c.t) { const fn = job.fn; job.fn = null; fn(); }
    } };
  return c;
}

test('moves go out at most 60 a second, the newest always; scrolls add up; a click flushes first', () => {
  const c = clock();
  const sent = [];
  const limiter = new MoveLimiter({ send: (m) => sent.push(m), now: c.now, timers: c });
  limiter.offer({ kind: 'move', x: 0.1 });
  limiter.offer({ kind: 'move', x: 0.2 });
  limiter.offer({ kind: 'move', x: 0.3 });
  assert.deepEqual(sent.map((m) => m.x), [0.1]);
  c.advance(17);
  assert.deepEqual(sent.map((m) => m.x), [0.1, 0.3], 'the newest, not every one');
  limiter.offer({ kind: 'scroll', dx: 1, dy: 2 });
  limiter.offer({ kind: 'scroll', dx: 1, dy: 3 });
  limiter.offer({ kind: 'up', x: 0.9 });
  assert.deepEqual(sent.slice(2), [{ kind: 'scroll', dx: 2, dy: 5 }, { kind: 'up', x: 0.9 }]);
  for (let i = 0; i < 600; i += 1) { limiter.offer({ kind: 'move', x: i }); c.advance(1); }
  c.advance(100);
  const moves = sent.filter((m) => m.kind === 'move').length - 2;
  assert.ok(moves <= 37 && moves >= 34, `${moves} moves in 0.6 s`);
  assert.equal(sent.at(-1).x, 599);
});

/** A 2000×1000 view showing a 1920×1080 monitor at 1x: the video is 2000×1125 → fitted 1777.8×1000 at x 111.1. */
function sender(extra = {}) {
  const c = clock();
  const sent = [];
  const geometry = { view: { width: 2000, height: 1000 }, video: { width: 1920, height: 1080 }, zoom: 1,
    offset: { width: 0, height: 0 }, monitor: { width: 1920, height: 1080 }, ...extra };
  const s = new PointerSender({ send: (m) => sent.push(m), geometry: () => geometry, now: c.now, timers: c });
  return { s, sent, c };
}

test('pointer messages are normalized to the video; the letterbox sends nothing', () => {
  const { s, sent } = sender();
  s.handle({ type: 'click', at: p(1000, 500) });
  s.handle({ type: 'click', at: p(50, 500) });
  s.handle({ type: 'rightClick', at: p(111.2, 0) });
  assert.equal(sent.length, 2);
  assert.deepEqual(sent[0], { type: 'pointer', kind: 'click', x: 0.5, y: 0.5 });
  assert.equal(sent[1].kind, 'rightClick');
  assert.ok(sent[1].x > 0 && sent[1].x < 1e-4);
});

test('a drag that leaves the video moves and lets go at its edge; one started on the letterbox sends nothing', () => {
  const { s, sent, c } = sender();
  s.handle({ type: 'down', at: p(1000, 500) });
  c.advance(20);
  s.handle({ type: 'move', at: p(1990, 500) });
  s.handle({ type: 'up', at: p(1995, 500) });
  assert.deepEqual(sent.map((m) => [m.kind, m.x]), [['down', 0.5], ['move', 1], ['up', 1]]);
  const other = sender();
  other.s.handle({ type: 'down', at: p(20, 500) });
  other.s.handle({ type: 'move', at: p(1000, 500) });
  other.s.handle({ type: 'up', at: p(1000, 500) });
  assert.deepEqual(other.sent, []);
});

test('touch scroll travel becomes monitor pixels at the video scale and zoom; wheel deltas pass as they are', () => {
  const { s, sent } = sender({ zoom: 2 });
  s.handle({ type: 'scroll', at: p(1000, 520), origin: p(1000, 500), dx: 0, dy: 20 });
  // 1777.78 points show 1920 pixels, and zoom 2 halves the travel: 20 × 1920 / 3555.6 = 10.8
  assert.ok(Math.abs(sent[0].dy - 10.8) < 1e-9, String(sent[0].dy));
  const wheel = sender();
  wheel.s.handle({ type: 'scroll', at: p(1000, 500), origin: p(1000, 500), dx: 0, dy: -50, wheel: true });
  assert.equal(wheel.sent[0].dy, -50);
  const letterbox = sender();
  letterbox.s.handle({ type: 'scroll', at: p(500, 500), origin: p(20, 500), dx: 0, dy: 40 });
  assert.deepEqual(letterbox.sent, []);
});

test('two fingers placed one at a time are judged together: a swipe is not mistaken for a pinch', () => {
  const g = new TouchGestures({ view: () => ({ zoom: 2, covered: 0 }) });
  g.down(1, p(500, 300), 0);
  g.down(2, p(600, 300), 5);
  assert.equal(g.twoFingers, true);
  for (let step = 1; step <= 3; step += 1) {
    g.place(2, p(600 + 8 * step, 300 + 5 * step));
    g.place(1, p(500 + 8 * step, 300 + 5 * step));
    const actions = g.settle();
    if (step === 1) assert.deepEqual(actions, [], 'moved 9.4 points: undecided');
    else assert.equal(actions[0].type, 'pan');
  }
  const judgedPerFinger = new TouchGestures({ view: () => ({ zoom: 2, covered: 0 }) });
  judgedPerFinger.down(1, p(500, 300), 0);
  judgedPerFinger.down(2, p(600, 300), 5);
  assert.equal(judgedPerFinger.move(2, p(608, 305), 20)[0].type, 'zoom', 'half a move looks like a pinch');
});
