// The rules the web client shares with DeckKit, run against the same fixture files as the Swift tests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { applyEdit, LayoutError, slotPosition, gridShape } from '../core/layout.js';
import { search, choseong } from '../core/search.js';
import { lookError, PALETTE, PALETTE_HEX } from '../core/looks.js';
import { MAX_FOLDER_DEPTH, turnPage } from '../core/folders.js';
import { GRIDS, gridShape as gridShapeOf, resizePages, STANDARD_GRID } from '../core/grids.js';

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

// Key looks: the same table DeckKit's KeyLookTests and the Python client run.
const looks = fixture('looks.json');
test('looks: the palette is the fixture\'s twelve colours', () => {
  assert.deepEqual(PALETTE, looks.palette);
  assert.equal(new Set(PALETTE).size, 12);
  assert.deepEqual(Object.keys(PALETTE_HEX), PALETTE);
});
for (const c of looks.cases) {
  test(`looks: ${c.name}`, () => {
    const empty = [Array(12).fill(null)];
    if (c.error) {
      assert.equal(lookError(c.button), c.error);
      assert.throws(() => applyEdit(empty, { type: 'setButton', page: 0, index: 0, button: c.button }),
        (e) => e instanceof LayoutError && e.code === c.error);
    } else {
      assert.equal(lookError(c.button), null);
      assert.deepEqual(applyEdit(empty, { type: 'setButton', page: 0, index: 0, button: c.button })[0][0], c.button);
    }
  });
}

// Folders and page keys: the same table DeckKit's FolderTests run.
const folders = fixture('folders.json');
test('folders: the depth is the fixture\'s', () => assert.equal(MAX_FOLDER_DEPTH, folders.maxFolderDepth));
for (const c of folders.cases) {
  test(`folders: ${c.name}`, () => {
    if (c.error) {
      const before = JSON.stringify(c.start);
      assert.throws(() => applyEdit(c.start, c.edit), (e) => e instanceof LayoutError && e.code === c.error);
      assert.equal(JSON.stringify(c.start), before, 'a refused edit changes nothing');
    } else {
      assert.deepEqual(applyEdit(c.start, c.edit), c.expect);
    }
  });
}
for (const t of folders.turns) {
  test(`page turn: ${t.name}`, () => assert.equal(turnPage(t, t.from, t.pageCount), t.expect));
}

// Grid sizes: the same table DeckKit's GridSizeTests run.
const grids = fixture('grids.json');
test('grids: the sizes and the standard one are the fixture\'s', () => {
  assert.deepEqual(GRIDS, grids.grids);
  assert.equal(STANDARD_GRID, grids.standard);
  assert.deepEqual(gridShapeOf('5x3', false), { columns: 3, rows: 5 }, 'portrait is the transposition');
});
for (const c of grids.resizes) {
  test(`grids: ${c.name}`, () => {
    const resized = resizePages(c.pages, c.from, c.to);
    assert.deepEqual(resized, c.expect);
    const labels = (pages) => pages.flat().filter(Boolean).map((b) => b.label).sort();
    assert.deepEqual(labels(resized), labels(c.pages), 'every key is kept');
  });
}
