// The viewer's geometry against the fixture DeckKit's ScreenGeometryTests and TwoFingerTests read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clampOffset, fit, normalized, TwoFinger } from '../core/geometry.js';
import { loadJSON } from './support.js';

const rules = loadJSON('Tests/Fixtures/rules/geometry.json');
const size = ([width, height]) => ({ width, height });
const close = (got, want, what) => assert.ok(Math.abs(got - want) <= 1e-9, `${what}: ${got} ≠ ${want}`);

for (const c of rules.fit) {
  test(`fit: ${c.name}`, () => {
    assert.deepEqual(fit(c.width, c.height, c.maxSide), size(c.expect));
  });
}

for (const c of rules.normalized) {
  test(`normalized: ${c.name}`, () => {
    const got = normalized({ x: c.touch[0], y: c.touch[1] }, size(c.view), size(c.video), c.zoom, size(c.offset));
    if (c.expect === null) {
      assert.equal(got, null);
      return;
    }
    close(got.x, c.expect[0], 'x');
    close(got.y, c.expect[1], 'y');
  });
}

for (const c of rules.clampOffset) {
  test(`clampOffset: ${c.name}`, () => {
    const got = clampOffset(size(c.offset), c.zoom, size(c.view), c.covered);
    close(got.width, c.expect[0], 'x');
    close(got.height, c.expect[1], 'y');
  });
}

for (const c of rules.twoFinger) {
  test(`twoFinger: ${c.name}`, () => {
    assert.equal(TwoFinger.decide(c.current, c), c.expect);
  });
}
