// Grid sizes (PROTOCOL §6 "Grid sizes"), as DeckKit's GridSize has them: columns × rows on a landscape screen,
// transposed on a portrait one, and the resize rule the host applies to `setGrid` (the device shows the result;
// the editor says beforehand what will move). Run against Tests/Fixtures/rules/grids.json.

/** Every size a deck may have, landscape columns × rows. */
export const GRIDS = {
  '3x2': { columns: 3, rows: 2 }, '4x3': { columns: 4, rows: 3 }, '5x3': { columns: 5, rows: 3 }, '8x4': { columns: 8, rows: 4 },
};
/** The size of a deck never resized, and of a layout without `grid`. */
export const STANDARD_GRID = '4x3';

/** The grid a layout message names, the standard one when absent or unknown to this app. */
export const layoutGrid = (layout) => (Object.hasOwn(GRIDS, layout?.grid) ? layout.grid : STANDARD_GRID);

/** Slots on a page of `grid`. */
export const gridSlots = (grid) => GRIDS[grid].columns * GRIDS[grid].rows;

/** Columns and rows on screen: the grid as it is on a landscape screen, transposed on a portrait one. */
export function gridShape(grid, landscape) {
  const { columns, rows } = GRIDS[grid];
  return landscape ? { columns, rows } : { columns: rows, rows: columns };
}

const isEmpty = (page) => page.every((slot) => slot == null);

function normalize(pages, size) {
  const out = pages.map((page) => page.slice());
  while (out.length > 1 && isEmpty(out.at(-1)) && isEmpty(out.at(-2))) out.pop();
  if (out.length && isEmpty(out.at(-1))) return out;
  return [...out, Array(size).fill(null)];
}

/**
 * GridSize.resize: a key whose landscape row and column exist in `to` stays there on its page; the keys that do
 * not fit, in slot order, fill new pages right after their page; a folder's pages are resized the same way.
 */
export function resizePages(pages, from, to) {
  const { columns } = GRIDS[from];
  const target = GRIDS[to];
  const size = gridSlots(to);
  const out = [];
  for (const page of pages) {
    const kept = Array(size).fill(null);
    const moved = [];
    page.forEach((button, index) => {
      if (button == null) return;
      const resized = button.kind === 'folder' && Array.isArray(button.pages)
        ? { ...button, pages: resizePages(button.pages, from, to) } : button;
      const row = Math.floor(index / columns);
      const column = index % columns;
      if (row < target.rows && column < target.columns) kept[row * target.columns + column] = resized;
      else moved.push(resized);
    });
    out.push(kept);
    for (let i = 0; i < moved.length; i += size) {
      const chunk = moved.slice(i, i + size);
      out.push([...chunk, ...Array(size - chunk.length).fill(null)]);
    }
  }
  return normalize(out, size);
}
