import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REPEAT_DELAY_MS, REPEAT_INTERVAL_MS, coveredBy, createRepeater, textMessage } from '../app/keyboard.js';

/** A clock whose time moves only when the test says so. */
function fakeClock() {
  let now = 0;
  let next = 1;
  const timers = new Map();
  return {
    setTimeout(fn, ms) { timers.set(next, { at: now + ms, fn }); return next++; },
    clearTimeout(id) { timers.delete(id); },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].fn();
      }
      now = end;
    },
    get pending() { return timers.size; },
  };
}

test('backspace repeats after 0.4 s, then every 0.08 s while held', () => {
  assert.equal(REPEAT_DELAY_MS, 400);
  assert.equal(REPEAT_INTERVAL_MS, 80);
  const clock = fakeClock();
  let presses = 0;
  const repeater = createRepeater(() => { presses += 1; }, clock);
  repeater.start();
  assert.equal(presses, 1, 'the touch itself presses once');
  clock.advance(399);
  assert.equal(presses, 1, 'no repeat before 0.4 s');
  clock.advance(1);
  assert.equal(presses, 2);
  clock.advance(79);
  assert.equal(presses, 2);
  clock.advance(1);
  assert.equal(presses, 3);
  clock.advance(800);
  assert.equal(presses, 13);
});

test('the repeat stops when the touch ends and never fires again', () => {
  const clock = fakeClock();
  let presses = 0;
  const repeater = createRepeater(() => { presses += 1; }, clock);
  repeater.start();
  clock.advance(500);
  assert.equal(presses, 3);
  repeater.stop();
  assert.equal(repeater.running, false);
  assert.equal(clock.pending, 0);
  clock.advance(5000);
  assert.equal(presses, 3);
});

test('a release before 0.4 s gives exactly one press, and a second start while held does not double it', () => {
  const clock = fakeClock();
  let presses = 0;
  const repeater = createRepeater(() => { presses += 1; }, clock);
  repeater.start();
  repeater.start();  // pointerdown and touchstart both arrive on a touch screen
  clock.advance(300);
  repeater.stop();
  clock.advance(1000);
  assert.equal(presses, 1);
  repeater.start();
  clock.advance(400);
  assert.equal(presses, 3, 'it can be held again');
  repeater.stop();
});

test('Send sends the cleaned text; Send + Enter asks for Enter after it; nothing to send sends nothing', () => {
  assert.deepEqual(textMessage('ls -la\n', false), { type: 'typeText', text: 'ls -la ', enter: false });
  assert.deepEqual(textMessage('안녕하세요 café ✓ 123', true),
    { type: 'typeText', text: '안녕하세요 café ✓ 123', enter: true });
  assert.equal(textMessage('', false), null);
  assert.deepEqual(textMessage('', true), { type: 'pressKey', key: 'return' });
  assert.equal(textMessage('가'.repeat(2001), false).text.length, 2000);
});

test('the covered height is the panel plus the system keyboard under it, and 0 when closed', () => {
  assert.equal(coveredBy({ open: false, panelHeight: 120, innerHeight: 1000, viewportHeight: 600 }), 0);
  assert.equal(coveredBy({ open: true, panelHeight: 120, innerHeight: 1000, viewportHeight: 1000 }), 120);
  assert.equal(coveredBy({ open: true, panelHeight: 120.4, innerHeight: 1000, viewportHeight: 640 }), 480);
  assert.equal(coveredBy({ open: true, panelHeight: 100, innerHeight: 1000, viewportHeight: 600, viewportTop: 50 }),
    450);
  assert.equal(coveredBy({ open: true, panelHeight: 100, innerHeight: 800 }), 100, 'no visualViewport');
});
