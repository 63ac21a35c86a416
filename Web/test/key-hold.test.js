// Keys held while pressed (PROTOCOL §6 "Hold while pressed"): which keys hold, what a finger on a key means in and
// out of edit mode, and exactly one pressUp for each pressDown, whichever way the finger leaves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { holdMessage, isHoldKey, KeyHolds, touchMeaning } from '../core/key-hold.js';
import { loadJSON } from './support.js';

const TALK = { label: 'Talk', kind: 'hotkey', key: 'm', modifiers: ['ctrl', 'shift'], hold: true };
const TAP = { label: 'Mute', kind: 'hotkey', key: 'm', modifiers: ['ctrl'] };
const fixture = (type) => loadJSON(`Tests/Fixtures/messages/${type}.json`);

test('only a hotkey with hold:true holds, and only at protocol 3', () => {
  assert.equal(isHoldKey(TALK), true);
  assert.equal(isHoldKey(TAP), false);
  assert.equal(isHoldKey({ ...TAP, hold: false }), false);
  assert.equal(isHoldKey({ ...TAP, hold: 'yes' }), false);
  assert.equal(isHoldKey({ label: 'Run', kind: 'command', command: 'x', hold: true }), false);
  assert.equal(isHoldKey(null), false);
  assert.equal(isHoldKey(TALK, 2), false);
});

test('a finger on a key: edit in edit mode (hold keys too), hold for a hold key, else a press', () => {
  assert.equal(touchMeaning(TALK), 'hold');
  assert.equal(touchMeaning(TAP), 'press');
  assert.equal(touchMeaning(null), 'press');
  assert.equal(touchMeaning(TALK, { editing: true }), 'edit');
  assert.equal(touchMeaning(TAP, { editing: true }), 'edit');
  assert.equal(touchMeaning(TALK, { hostProtocol: 2 }), 'press');
});

test('the messages have the fixtures\' shape; a folder key carries its path', () => {
  assert.deepEqual(holdMessage('pressDown', { page: 0, index: 3 }), fixture('pressDown'));
  assert.deepEqual(holdMessage('pressUp', { page: 0, index: 3, path: [] }), fixture('pressUp'));
  assert.deepEqual(holdMessage('pressDown', { page: 1, index: 2, path: [{ page: 0, index: 4, from: 1 }] }),
    { type: 'pressDown', page: 1, index: 2, path: [{ page: 0, index: 4 }] });
});

test('down then up: one pressDown, one pressUp, and the lostpointercapture after pointerup sends nothing', () => {
  const holds = new KeyHolds();
  assert.deepEqual(holds.down(1, { page: 0, index: 3 }), fixture('pressDown'));
  assert.equal(holds.isHeld({ page: 0, index: 3 }), true);
  assert.equal(holds.holds(1), true);
  assert.deepEqual(holds.up(1), fixture('pressUp'));
  assert.equal(holds.up(1), null, 'lostpointercapture after pointerup');
  assert.equal(holds.up(1), null, 'a window pointerup after that');
  assert.equal(holds.isHeld({ page: 0, index: 3 }), false);
  assert.equal(holds.size, 0);
});

test('a cancelled touch lets go like a lift; a pointer that never held a key sends nothing', () => {
  const holds = new KeyHolds();
  holds.down(7, { page: 0, index: 0 });
  assert.equal(holds.up(8), null);
  assert.deepEqual(holds.up(7), { type: 'pressUp', page: 0, index: 0 });
  assert.equal(holds.up(7), null);
});

test('a second finger on a held key neither presses again nor lets go; another key is held on its own', () => {
  const holds = new KeyHolds();
  assert.ok(holds.down(1, { page: 0, index: 3 }));
  assert.equal(holds.down(2, { page: 0, index: 3 }), null);
  assert.equal(holds.down(1, { page: 0, index: 5 }), null, 'one pointer holds one key');
  assert.equal(holds.up(2), null);
  assert.equal(holds.isHeld({ page: 0, index: 3 }), true);
  assert.deepEqual(holds.down(3, { page: 0, index: 5 }), { type: 'pressDown', page: 0, index: 5 });
  // The same slot in a folder is another key.
  assert.ok(holds.down(4, { page: 0, index: 3, path: [{ page: 0, index: 1 }] }));
  assert.equal(holds.size, 3);
});

test('the page hidden: every held key comes up once; afterwards the lifts send nothing', () => {
  const holds = new KeyHolds();
  holds.down(1, { page: 0, index: 3 });
  holds.down(2, { page: 1, index: 0, path: [{ page: 0, index: 2 }] });
  assert.deepEqual(holds.upAll(), [
    { type: 'pressUp', page: 0, index: 3 },
    { type: 'pressUp', page: 1, index: 0, path: [{ page: 0, index: 2 }] },
  ]);
  assert.deepEqual(holds.upAll(), []);
  assert.equal(holds.up(1), null);
  assert.equal(holds.up(2), null);
});

test('the connection lost: the keys are forgotten without a pressUp (the host let go when it closed)', () => {
  const holds = new KeyHolds();
  holds.down(1, { page: 0, index: 3 });
  assert.deepEqual(holds.forget(), [{ page: 0, index: 3, path: [] }]);
  assert.equal(holds.up(1), null);
  assert.deepEqual(holds.upAll(), []);
  // Held again after the reconnection: a new pair.
  assert.ok(holds.down(1, { page: 0, index: 3 }));
  assert.ok(holds.up(1));
});
