// Wide controls (PROTOCOL §6 "Tiles and sliders"), as DeckKit's Span has them: a now-playing tile or a slider sits in
// its first slot and covers the next `span - 1` to its right (`along: 'row'`, the default) or below it
// (`'column'`) on the landscape grid; covered slots are null. The host refuses a page that breaks the rule; the
// client needs the covered slots to draw the control across them. Run against Tests/Fixtures/rules/spans.json.
import { GRIDS } from './grids.js';

/** Why a page breaks the rule, with the host's error name (`spanOutside`, `slotCovered`). */
export class SpanError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/** The control's span: `{ slots, along }`, or null for a key of one slot (or a span this client cannot read). */
export function spanOf(button) {
  const slots = button?.span;
  if (!Number.isInteger(slots) || slots < 2 || slots > 4) return null;
  return { slots, along: button.along === 'column' ? 'column' : 'row' };
}

/** The slots a control at `index` covers besides its own on a page of `grid`; null when it would leave the page. */
export function spanSlots(span, index, grid) {
  const { columns, rows } = GRIDS[grid];
  const row = Math.floor(index / columns);
  const column = index % columns;
  const step = span.along === 'row' ? 1 : columns;
  if ((span.along === 'row' ? column : row) + span.slots > (span.along === 'row' ? columns : rows)) return null;
  return Array.from({ length: span.slots - 1 }, (_, i) => index + (i + 1) * step);
}

/** Every covered slot of `page` with the slot of the control covering it; throws SpanError as the host refuses. */
export function coveredSlots(page, grid) {
  const covered = new Map();
  page.forEach((button, index) => {
    const span = spanOf(button);
    if (!span) return;
    const slots = spanSlots(span, index, grid);
    if (!slots) throw new SpanError('spanOutside', `a control in slot ${index} would leave the page`);
    for (const slot of slots) {
      if (covered.has(slot)) throw new SpanError('slotCovered', `slot ${slot} is covered by the control in slot ${covered.get(slot)}`);
      covered.set(slot, index);
    }
  });
  for (const [slot, owner] of [...covered].sort((a, b) => a[0] - b[0])) {
    if (page[slot] != null) throw new SpanError('slotCovered', `slot ${slot} is covered by the control in slot ${owner}`);
  }
  return covered;
}

/** The covered slots of a page as drawn: a page the host would refuse (an older layout) draws every slot. */
export function drawnCovered(page, grid) {
  try {
    return coveredSlots(page, grid);
  } catch {
    return new Map();
  }
}
