// The rules the web client shares with DeckKit, run against the same fixture files as the Swift tests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { applyEdit, LayoutError, slotPosition, gridShape } from '../core/layout.js';
import { search, choseong } from '../core/search.js';

const fixture = (name) => JSON.parse(readFileSync(new URL(`../../Tests/Fixtures/rules/${name}`, import.meta.url)));

const layout = fixture('layout.json');
for (const c of layout.cases) {
  test(`layout: ${c.name}`, () => {
    if (c.error) {
      const before = JSON.stringify(c.start);
      assert.throws(() => applyEdit(c.start, c.edit), (e) => e instanceof LayoutError && e.code === c.error);
      assert.equal(JSON.stringify(c.start), before, 'a refused edit changes nothing');
    } else {
      assert.deepEqual(applyEdit(c.start, c.edit), c.expect);
    }
  });
}

test('slot numbers are shared by landscape (4×3) and portrait (3×4)', () => {
  assert.deepEqual(gridShape(true), { columns: 4, rows: 3 });
  assert.deepEqual(gridShape(false), { columns: 3, rows: 4 });
  assert.deepEqual(slotPosition(5, true), { row: 1, column: 1 });
  assert.deepEqual(slotPosition(5, false), { row: 1, column: 2 });
  assert.deepEqual(slotPosition(11, false), { row: 3, column: 2 });
});

const searchCases = fixture('search.json');
for (const c of searchCases.choseong) {
  test(`choseong: ${c.text}`, () => assert.equal(choseong(c.text), c.initials));
}
for (const c of searchCases.cases) {
  test(`search: ${c.name}`, () => {
    const got = search(searchCases.apps, c.query).map(({ app, group, field, range }) => ({ id: app.id, group, field, range }));
    assert.deepEqual(got, c.results);
  });
}
