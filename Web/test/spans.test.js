// Wide controls' covered slots (PROTOCOL §6 "Tiles and sliders") against the table DeckKit's Span runs too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { coveredSlots, drawnCovered, SpanError } from '../core/spans.js';

const table = JSON.parse(readFileSync(new URL('../../Tests/Fixtures/rules/spans.json', import.meta.url)));

for (const c of table.cases) {
  test(`spans: ${c.name}`, () => {
    if (c.error) {
      assert.throws(() => coveredSlots(c.page, c.grid), (e) => e instanceof SpanError && e.code === c.error);
      assert.equal(drawnCovered(c.page, c.grid).size, 0, 'a page the host would refuse draws every slot');
    } else {
      const covered = Object.fromEntries([...coveredSlots(c.page, c.grid)].map(([slot, owner]) => [String(slot), owner]));
      assert.deepEqual(covered, c.covered);
    }
  });
}

test('a span this client cannot read is a key of one slot', () => {
  const page = [{ kind: 'nowPlaying', label: 'x', span: 9 }, { kind: 'command', label: 'y', command: 'z' }];
  assert.equal(coveredSlots([...page, ...Array(10).fill(null)], '4x3').size, 0);
});
