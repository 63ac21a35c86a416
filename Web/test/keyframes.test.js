import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KeyframeRequests } from '../core/keyframes.js';

test('a keyframe is asked once at the start and then at most every 0.5 s while frames fail', () => {
  const k = new KeyframeRequests();
  assert.equal(k.started(1000), true);
  assert.equal(k.failed(1100), false, 'the start request is still on its way');
  assert.equal(k.failed(1500), true);
  assert.equal(k.failed(1700), false);
  assert.equal(k.failed(1999), false);
  assert.equal(k.failed(2000), true);
  const asked = [];
  for (let t = 3000; t < 6000; t += 16) if (k.failed(t)) asked.push(t);
  assert.equal(asked.length, 6, 'a burst of broken frames becomes 2 requests a second');
});

test('a held-back request knows when it may go out', () => {
  const k = new KeyframeRequests();
  k.started(1000);
  assert.equal(k.failed(1100), false);
  assert.equal(k.wait(1100), 400);
  assert.equal(k.wait(1600), 0);
});
