// Extend on the device side: the monitor asked for (device pixels of the area, the ratio as scale), the placement
// remembered on this device, following the device's turns once the resizes settle, and the session's startScreen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ExtendFollower, extendRequest, PLACEMENT_KEY, PlacementMemory, RESIZE_SETTLE_MS, sameMonitor }
  from '../core/extend.js';
import { ScreenSession } from '../core/screen-session.js';

class Storage {
  constructor() { this.map = new Map(); }
  getItem(key) { return this.map.has(key) ? this.map.get(key) : null; }
  setItem(key, value) { this.map.set(key, String(value)); }
}

/** setTimeout/clearTimeout on a clock the test moves. */
class Timers {
  constructor() {
    this.now = 0;
    this.pending = new Map();
    this.next = 1;
  }

  setTimeout(run, ms) {
    this.pending.set(this.next, { at: this.now + ms, run });
    return this.next++;
  }

  clearTimeout(id) { this.pending.delete(id); }

  advance(ms) {
    this.now += ms;
    for (const [id, timer] of [...this.pending].sort((a, b) => a[1].at - b[1].at)) {
      if (timer.at > this.now) continue;
      this.pending.delete(id);
      timer.run();
    }
  }
}

test('the monitor is the area in device pixels at the device ratio: an iPad, a phone, odd ratios', () => {
  assert.deepEqual(extendRequest({ width: 1194, height: 834 }, 2, 'right'),
    { width: 2388, height: 1668, scale: 2, placement: 'right' });
  assert.deepEqual(extendRequest({ width: 390, height: 844 }, 3, 'below'),
    { width: 1170, height: 2532, scale: 3, placement: 'below' });
  // Android's fractional ratios: rounded pixels, the ratio itself as the scale.
  assert.deepEqual(extendRequest({ width: 411.5, height: 914 }, 2.625, 'left'),
    { width: 1080, height: 2399, scale: 2.625, placement: 'left' });
  // A zoomed-out desktop browser (ratio below 1) asks for scale 1; the host's limits are kept.
  assert.deepEqual(extendRequest({ width: 1600, height: 100 }, 0.8), { width: 1280, height: 240, scale: 1,
    placement: 'right' });
  assert.deepEqual(extendRequest({ width: 3000, height: 2000 }, 5, 'nowhere'),
    { width: 8192, height: 8192, scale: 4, placement: 'right' });
  assert.equal(extendRequest({ width: 800, height: 600 }, NaN).scale, 1);
});

test('the placement is remembered on this device; anything unknown reads as right', () => {
  const storage = new Storage();
  const memory = new PlacementMemory(storage);
  assert.equal(memory.get(), 'right');
  memory.set('above');
  assert.equal(new PlacementMemory(storage).get(), 'above');
  assert.equal(storage.getItem(PLACEMENT_KEY), 'above');
  assert.throws(() => memory.set('behind'), RangeError);
  storage.setItem(PLACEMENT_KEY, 'behind');
  assert.equal(memory.get(), 'right');
});

function follower(size) {
  const timers = new Timers();
  const asks = [];
  const box = { size };
  const f = new ExtendFollower({ measure: () => extendRequest(box.size, 2, 'right'), ask: (r) => asks.push(r), timers });
  return { f, timers, asks, box };
}

test('turning asks once, a settle time after the last resize, with the new size', () => {
  const { f, timers, asks, box } = follower({ width: 1194, height: 834 });
  f.asked(extendRequest(box.size, 2, 'right'));
  f.answered();
  assert.deepEqual(asks, [], 'the size asked for is the size now');
  // A turn: a storm of resizes through odd sizes, 50 ms apart.
  for (const [i, size] of [[1000, 900], [900, 1000], [834, 1194]].entries()) {
    box.size = { width: size[0], height: size[1] };
    f.resized();
    timers.advance(50 + i);
  }
  timers.advance(RESIZE_SETTLE_MS - 200);
  assert.deepEqual(asks, [], 'nothing before the resizes have settled');
  timers.advance(200);
  assert.deepEqual(asks, [{ width: 1668, height: 2388, scale: 2, placement: 'right' }]);
  // Resizes that end where they began ask for nothing.
  f.answered();
  f.resized();
  timers.advance(RESIZE_SETTLE_MS);
  assert.equal(asks.length, 1);
});

test('a turn while the host is still answering is asked for once the answer came; a stopped follower asks nothing',
  () => {
    const { f, timers, asks, box } = follower({ width: 1194, height: 834 });
    f.asked(extendRequest(box.size, 2, 'right'));
    box.size = { width: 834, height: 1194 };
    f.resized();
    timers.advance(RESIZE_SETTLE_MS);
    assert.deepEqual(asks, [], 'the first monitor is still being made');
    f.answered();
    assert.deepEqual(asks.map((r) => [r.width, r.height]), [[1668, 2388]]);
    f.stop();
    box.size = { width: 1194, height: 834 };
    f.resized();
    timers.advance(RESIZE_SETTLE_MS);
    f.answered();
    assert.equal(asks.length, 1);
    assert.ok(sameMonitor(extendRequest(box.size, 2), extendRequest(box.size, 2)));
    assert.ok(!sameMonitor(null, extendRequest(box.size, 2)));
  });

test('the session extends with startScreen.extend, maxSide at least its long side, and asks again on a turn', () => {
  const s = new ScreenSession({ fps: 30, maxSide: 1920, preferredDisplayId: 5 });
  s.handle('open');
  s.handle('displays', { status: 'ok', displays: [{ id: 5 }, { id: 6 }], extend: { offered: true } });
  assert.deepEqual(s.extendOffer, { offered: true });
  const extend = { width: 2388, height: 1668, scale: 2, placement: 'left' };
  // Two monitors, the one viewed last is listed: it starts by itself.
  assert.equal(s.state, 'starting');
  s.handle('started', { displayId: 5, width: 1920, height: 1080 });
  s.handle('list');
  s.handle('displays', { status: 'ok', displays: [{ id: 5 }, { id: 6 }], extend: { offered: true } });
  const start = s.handle('choose', { extend }).find((a) => a.type === 'send').message;
  assert.deepEqual(start, { type: 'startScreen', displayId: 0, maxSide: 2388, fps: 30, audio: false, extend });
  s.handle('started', { displayId: 77, width: 2388, height: 1668 });
  const turned = { ...extend, width: 1668, height: 2388 };
  const again = s.handle('choose', { extend: turned });
  assert.deepEqual(again.filter((a) => a.type === 'send').map((a) => a.message.extend), [turned]);
  assert.ok(!again.some((a) => a.type === 'send' && a.message.type === 'stopScreen'), 'asked again, not stopped');
  // Extending is not the monitor the tab starts when it opens again.
  assert.equal(s.preferredDisplayId, 5);
  s.handle('close');
  assert.equal(s.extend, null);
  s.handle('open');
  s.handle('displays', { status: 'ok', displays: [{ id: 5 }, { id: 6 }], extend: { offered: true } });
  assert.deepEqual([s.state, s.displayId, s.extend], ['starting', 5, null]);
});

test('a refused Extend keeps the host\'s words; a monitor chosen after Extend is viewed as usual', () => {
  const s = new ScreenSession();
  s.handle('open');
  s.handle('displays', { status: 'ok', displays: [{ id: 1 }, { id: 2 }],
    extend: { offered: false, reason: 'Extend is not available on X11 yet' } });
  assert.deepEqual(s.extendOffer, { offered: false, reason: 'Extend is not available on X11 yet' });
  s.handle('choose', { extend: { width: 800, height: 600, scale: 1, placement: 'right' } });
  s.handle('denied', { reason: 'cannotExtend', detail: 'sway could not make an output' });
  assert.equal(s.state, 'denied');
  assert.deepEqual([s.reason, s.detail], ['cannotExtend', 'sway could not make an output']);
  s.handle('list');
  s.handle('displays', { status: 'ok', displays: [{ id: 1 }, { id: 2 }] });
  assert.equal(s.extendOffer, null, 'a host before Extend says nothing of it');
  const start = s.handle('choose', { displayId: 2 }).find((a) => a.type === 'send').message;
  assert.deepEqual(start, { type: 'startScreen', displayId: 2, maxSide: 1920, fps: 60, audio: false });
});
