// Layout rules the client shares with DeckKit's DeckLayout (SPEC §4). The host is the single source of
// truth; the client uses these to place slots and to check itself against Tests/Fixtures/rules/layout.json.

import { stripName } from './names.js';

export const SLOTS_PER_PAGE = 12;
/** Limits the host enforces (DeckLayout.maxPages, maxLabel, maxField). */
export const MAX_PAGES = 100;
export const MAX_LABEL = 64;
export const MAX_FIELD = 4096;

/** Columns and rows for an orientation: 4×3 landscape, 3×4 portrait; slot numbers are the same. */
export function gridShape(landscape) {
  return landscape ? { columns: 4, rows: 3 } : { columns: 3, rows: 4 };
}

/** Row and column of a slot number in the given orientation. */
export function slotPosition(index, landscape) {
  const { columns } = gridShape(landscape);
  return { row: Math.floor(index / columns), column: index % columns };
}

const isEmptyPage = (page) => page.every((slot) => slot == null);
const emptyPage = () => Array(SLOTS_PER_PAGE).fill(null);

/** The last page is always empty; two trailing empty pages collapse to one; no buttons → one page. */
export function normalize(pages) {
  const out = pages.map((page) => {
    const copy = page.slice(0, SLOTS_PER_PAGE);
    while (copy.length < SLOTS_PER_PAGE) copy.push(null);
    return copy;
  });
  while (out.length > 0 && isEmptyPage(out[out.length - 1])) out.pop();
  out.push(emptyPage());
  return out;
}

/** A refused edit; `code` is pageOutOfRange, indexOutOfRange or emptySlot, as in DeckKit. */
export class LayoutError extends Error {
  constructor(code) {
    super(code);
    this.code = code;
  }
}

function checkSlot(pages, page, index) {
  if (!Number.isInteger(page) || page < 0 || page >= pages.length) throw new LayoutError('pageOutOfRange');
  if (!Number.isInteger(index) || index < 0 || index >= SLOTS_PER_PAGE) throw new LayoutError('indexOutOfRange');
}

// Characters as Swift counts them (grapheme clusters), so a label's limit is the same on both sides.
const segmenter = globalThis.Intl?.Segmenter ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : null;
const characters = (text) => (segmenter ? [...segmenter.segment(text)].length : [...text].length);
const utf8Length = (text) => new TextEncoder().encode(text).length;

function checkButton(button) {
  if (button == null) return;
  if (characters(button.label ?? '') > MAX_LABEL) throw new LayoutError('fieldTooLong');
  const field = button.appId ?? button.command ?? button.directory ?? '';
  if (utf8Length(field) > MAX_FIELD) throw new LayoutError('fieldTooLong');
}

function withinLimit(pages) {
  if (pages.length > MAX_PAGES) throw new LayoutError('tooManyPages');
  return pages;
}

export function setButton(pages, page, index, button) {
  checkSlot(pages, page, index);
  checkButton(button);
  const out = pages.map((p) => p.slice());
  out[page][index] = button;
  return withinLimit(normalize(out));
}

export function clearButton(pages, page, index) {
  return setButton(pages, page, index, null);
}

/** Moves a button; onto another button the two swap. Moving an empty slot is refused. */
export function moveButton(pages, from, to) {
  checkSlot(pages, from.page, from.index);
  checkSlot(pages, to.page, to.index);
  const out = pages.map((p) => p.slice());
  const moving = out[from.page][from.index];
  if (moving == null) throw new LayoutError('emptySlot');
  out[from.page][from.index] = out[to.page][to.index];
  out[to.page][to.index] = moving;
  return withinLimit(normalize(out));
}

// The host cleans a label as it takes it (DisplayName.strip in DeckKit): every device shows it.
function withShownLabel(button) {
  return typeof button?.label === 'string' ? { ...button, label: stripName(button.label) } : button;
}

/** Applies a layout message (setButton, clearButton, moveButton) the way the host does. */
export function applyEdit(pages, edit) {
  switch (edit.type) {
    case 'setButton': return setButton(pages, edit.page, edit.index, withShownLabel(edit.button));
    case 'clearButton': return clearButton(pages, edit.page, edit.index);
    case 'moveButton':
      return moveButton(pages, { page: edit.fromPage, index: edit.fromIndex }, { page: edit.toPage, index: edit.toIndex });
    default: throw new LayoutError('notAnEdit');
  }
}
