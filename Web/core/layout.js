// Layout rules the client shares with DeckKit's DeckLayout (DESIGN.md#deck). The host is the single source of
// truth; the client uses these to place slots and to check itself against Tests/Fixtures/rules/layout.json.

import { stripName } from './names.js';
import { isOpenTarget, MAX_TEXT } from './key-kinds.js';
import { compoundProblem, keepToggleState } from './compound-keys.js';
import { lookError } from './looks.js';
import { folderDepth, MAX_FOLDER_DEPTH, pageCount, pagesAt } from './folders.js';

/** Slots on a page of the standard 4×3 grid; a resized deck's pages say their own size (`slotsOf`). */
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
/** Slots on the pages of a deck or folder: every page has as many as the deck's grid (PROTOCOL §6 "Grid sizes"). */
export const slotsOf = (pages) => pages[0]?.length || SLOTS_PER_PAGE;

/** The last page is always empty; two trailing empty pages collapse to one; no buttons → one page. */
export function normalize(pages, size = slotsOf(pages)) {
  const emptyPage = () => Array(size).fill(null);
  const out = pages.map((page) => {
    const copy = page.slice(0, size);
    while (copy.length < size) copy.push(null);
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
  if (!Number.isInteger(index) || index < 0 || index >= slotsOf(pages)) throw new LayoutError('indexOutOfRange');
}

// Characters as Swift counts them (grapheme clusters), so a label's limit is the same on both sides.
const segmenter = globalThis.Intl?.Segmenter ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : null;
const characters = (text) => (segmenter ? [...segmenter.segment(text)].length : [...text].length);
const utf8Length = (text) => new TextEncoder().encode(text).length;

function checkFolder(pages, size) {
  if (!Array.isArray(pages) || pages.length === 0 || pages.some((p) => !Array.isArray(p) || p.length !== size)) {
    throw new LayoutError('wrongPageSize');
  }
  if (pages[0][0] != null) throw new LayoutError('backSlot');
  pages.flat().forEach((button) => checkButton(button, size));
}

function checkButton(button, size) {
  if (button == null) return;
  const held = compoundProblem(button, problemOf, characters);
  if (held) throw new LayoutError(held);
  if (characters(button.label ?? '') > MAX_LABEL) throw new LayoutError('fieldTooLong');
  const look = lookError(button);
  if (look) throw new LayoutError(look);
  if (button.kind === 'folder') return checkFolder(button.pages, size);
  if (button.kind === 'page' && button.go === 'page' && !(button.page >= 0 && button.page < MAX_PAGES)) {
    throw new LayoutError('badPageTurn');
  }
  if (button.kind === 'text') {
    if (characters(button.text ?? '') > MAX_TEXT) throw new LayoutError('fieldTooLong');
    return;
  }
  const field = button.appId ?? button.command ?? button.directory ?? button.target ?? '';
  if (utf8Length(field) > MAX_FIELD) throw new LayoutError('fieldTooLong');
  if (button.kind === 'open' && !isOpenTarget(button.target)) throw new LayoutError('badTarget');
}

// A held key's refusal as its code ('' when it is fine), for compoundProblem.
function problemOf(button) {
  try {
    checkButton(button);
    return '';
  } catch (e) {
    return e.code;
  }
}

function withinLimit(pages) {
  if (pageCount(pages) > MAX_PAGES) throw new LayoutError('tooManyPages');
  return pages;
}

// A folder set without pages gets one empty page of the deck's size; its pages (and its folders') follow the page rule.
function normalized(button, size) {
  if (button?.kind !== 'folder') return button;
  return { ...button, pages: normalize((button.pages ?? []).map((p) => p.map((b) => normalized(b, size))), size) };
}

export function setButton(pages, page, index, button) {
  checkSlot(pages, page, index);
  if (folderDepth(button) > MAX_FOLDER_DEPTH) throw new LayoutError('folderTooDeep');
  const size = slotsOf(pages);
  // Pages as sent, before the page rule pads them: a folder page of the wrong size is refused, as on the host.
  if (button?.kind === 'folder' && button.pages != null) checkFolder(button.pages, size);
  const shaped = normalized(button, size);
  checkButton(shaped, size);
  const out = pages.map((p) => p.slice());
  out[page][index] = keepToggleState(shaped, pages[page][index]);
  return withinLimit(normalize(out));
}

const BACK = { page: 0, index: 0 };
const isBack = (slot) => slot.page === BACK.page && slot.index === BACK.index;

/** Runs `edit` on the folder at `path` as on a deck of its own, then puts it back (DeckLayout.inFolder). */
function inFolder(pages, path, touching, edit) {
  if (path.length === 0) return edit(pages);
  const [{ page, index }, ...rest] = path;
  const folder = pagesAt(pages, [{ page, index }]);
  if (!folder) throw new LayoutError('notAFolder');
  if (rest.length === 0 && touching.some(isBack)) throw new LayoutError('backSlot');
  const out = pages.map((p) => p.slice());
  out[page][index] = { ...pages[page][index], pages: inFolder(folder, rest, touching, edit) };
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
  const shown = typeof button?.label === 'string' ? { ...button, label: stripName(button.label) } : button;
  if (shown?.kind !== 'toggle') return shown;
  return { ...shown, onLabel: stripName(shown.onLabel ?? ''), offLabel: stripName(shown.offLabel ?? '') };
}

/** Applies a layout message (setButton, clearButton, moveButton; in the folder its `path` names) as the host does. */
export function applyEdit(pages, edit) {
  const path = edit.path ?? [];
  switch (edit.type) {
    case 'setButton':
      if (path.length + folderDepth(edit.button) > MAX_FOLDER_DEPTH) throw new LayoutError('folderTooDeep');
      return inFolder(pages, path, [{ page: edit.page, index: edit.index }],
        (at) => setButton(at, edit.page, edit.index, withShownLabel(edit.button)));
    case 'clearButton': return inFolder(pages, path, [], (at) => clearButton(at, edit.page, edit.index));
    case 'moveButton': {
      const from = { page: edit.fromPage, index: edit.fromIndex };
      const to = { page: edit.toPage, index: edit.toIndex };
      return inFolder(pages, path, [from, to], (at) => moveButton(at, from, to));
    }
    default: throw new LayoutError('notAnEdit');
  }
}
