import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DOUBLE_TAP_MS, MODIFIERS, StickyModifiers } from '../core/modifiers.js';

test('the modifiers are the wire\'s, in its order', () => {
  assert.deepEqual(MODIFIERS, ['ctrl', 'alt', 'shift', 'super']);
});

test('a tap holds a modifier for the next key only', () => {
  const sticky = new StickyModifiers();
  assert.equal(sticky.tap('ctrl', 0), 'once');
  assert.deepEqual(sticky.held(), ['ctrl']);
  assert.equal(sticky.used(), true);
  assert.equal(sticky.state('ctrl'), 'off');
  assert.deepEqual(sticky.held(), []);
  assert.equal(sticky.used(), false, 'nothing held: nothing changes');
});

test('a second tap soon after locks it until it is tapped again', () => {
  const sticky = new StickyModifiers();
  sticky.tap('shift', 1000);
  assert.equal(sticky.tap('shift', 1000 + DOUBLE_TAP_MS), 'locked');
  sticky.used();
  sticky.used();
  assert.deepEqual(sticky.held(), ['shift'], 'a locked modifier stays through keys');
  assert.equal(sticky.tap('shift', 5000), 'off');
  assert.deepEqual(sticky.held(), []);
});

test('a slow second tap releases instead of locking', () => {
  const sticky = new StickyModifiers();
  sticky.tap('alt', 0);
  assert.equal(sticky.tap('alt', DOUBLE_TAP_MS + 1), 'off');
  // Released by a tap, the next quick tap holds it once again (no lock from a tap that turned it off).
  assert.equal(sticky.tap('alt', DOUBLE_TAP_MS + 50), 'once');
});

test('a modifier held once by a tap after a used key is not locked by the earlier tap', () => {
  const sticky = new StickyModifiers();
  sticky.tap('ctrl', 0);
  sticky.used();
  assert.equal(sticky.tap('ctrl', 100), 'once', 'off after the key: this tap starts again');
});

test('several modifiers are held together, listed in wire order; locked ones stay when the once ones go', () => {
  const sticky = new StickyModifiers();
  sticky.tap('super', 0);
  sticky.tap('shift', 10);
  sticky.tap('shift', 20);
  sticky.tap('ctrl', 30);
  assert.deepEqual(sticky.held(), ['ctrl', 'shift', 'super']);
  sticky.used();
  assert.deepEqual(sticky.held(), ['shift']);
  sticky.clear();
  assert.deepEqual(sticky.held(), []);
  assert.throws(() => sticky.tap('hyper', 0), RangeError);
});
