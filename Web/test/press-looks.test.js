import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PressLooks } from '../core/press-looks.js';

test('a command key\'s first answer is the neutral running look, never success; its outcome follows', () => {
  const looks = new PressLooks();
  assert.deepEqual(looks.take({ page: 0, index: 2, ok: true, running: true }),
    { page: 0, index: 2, look: 'running', running: true });
  assert.equal(looks.isRunning(0, 2), true);
  assert.deepEqual(looks.take({ page: 0, index: 2, ok: false, reason: 'exit 3' }),
    { page: 0, index: 2, look: 'failed', running: false });
  assert.equal(looks.isRunning(0, 2), false);
  looks.take({ page: 0, index: 2, ok: true, running: true });
  assert.deepEqual(looks.take({ page: 0, index: 2, ok: true }), { page: 0, index: 2, look: 'ok', running: false });
});

test('other keys get one answer: ok or failed at once', () => {
  const looks = new PressLooks();
  assert.equal(looks.take({ page: 1, index: 0, ok: true }).look, 'ok');
  assert.equal(looks.take({ page: 1, index: 0, ok: false, reason: 'empty slot' }).look, 'failed');
  assert.equal(looks.isRunning(1, 0), false);
});

test('a key pressed twice runs until both of its commands ended; other keys are not touched', () => {
  const looks = new PressLooks();
  looks.take({ page: 0, index: 5, ok: true, running: true });
  looks.take({ page: 0, index: 5, ok: true, running: true });
  looks.take({ page: 1, index: 5, ok: true, running: true });
  assert.deepEqual(looks.take({ page: 0, index: 5, ok: true }), { page: 0, index: 5, look: 'ok', running: true });
  assert.equal(looks.isRunning(0, 5), true);
  assert.equal(looks.take({ page: 0, index: 5, ok: false }).running, false);
  assert.equal(looks.isRunning(0, 5), false);
  assert.equal(looks.isRunning(1, 5), true, 'the same slot on another page is another key');
});

test('a lost connection forgets the running commands and says which keys to redraw', () => {
  const looks = new PressLooks();
  looks.take({ page: 0, index: 1, ok: true, running: true });
  looks.take({ page: 2, index: 11, ok: true, running: true });
  assert.deepEqual(looks.clear(), [{ page: 0, index: 1 }, { page: 2, index: 11 }]);
  assert.equal(looks.isRunning(0, 1), false);
  assert.deepEqual(looks.clear(), []);
});
