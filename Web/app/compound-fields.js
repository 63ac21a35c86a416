// The edit sheet's fields for keys that hold keys (PROTOCOL §6 "Layout"): a multi-action's list of steps (add,
// remove, move up and down; a key of another kind or a delay in milliseconds) and a toggle's two actions and two
// labels. Each held key is one row: its kind and one field (a chord written "Ctrl+Shift+T", a text, a command, an
// address or path, a media action). A step of a kind the row does not edit (an app or record step made elsewhere)
// is kept as it is. The limits are Web/core/compound-keys.js's, the host's own.
import {
  DELAY_MAX_MS, DELAY_MIN_MS, MAX_STEPS, moveStep, parseChord, stepSummary,
} from '../core/compound-keys.js';
import { chordLabel } from '../core/hotkeys.js';
import { isOpenTarget, MEDIA_ACTIONS, OPEN_TARGET_RULE } from '../core/key-kinds.js';

const ROW_KINDS = { hotkey: 'Hotkey', text: 'Text', command: 'Command', open: 'Open', media: 'Media' };
const PLACEHOLDERS = {
  hotkey: 'Ctrl+Shift+T', text: 'Text to type', command: 'Command line', open: 'https://… or ~/…', delay: 'ms',
};

/** One held key (or a delay) as a row of fields; `read()` gives it back as the wire's object. */
class HeldRow {
  constructor(step, { delays }) {
    this.original = step;
    this.element = document.createElement('div');
    this.element.className = 'held-row';
    this.kind = document.createElement('select');
    this.kind.className = 'held-kind';
    this.kind.setAttribute('aria-label', 'Kind of step');
    const kinds = { ...ROW_KINDS, ...(delays ? { delay: 'Delay' } : {}) };
    this.kept = step && !(step.kind in kinds);
    if (this.kept) kinds[step.kind] = stepSummary(step);
    this.kind.replaceChildren(...Object.entries(kinds).map(([kind, name]) => new Option(name, kind)));
    this.kind.value = step?.kind ?? 'hotkey';
    this.value = document.createElement('input');
    this.value.className = 'held-value mono';
    this.value.setAttribute('aria-label', 'Step');
    this.value.autocapitalize = 'off';
    this.value.spellcheck = false;
    this.media = document.createElement('select');
    this.media.className = 'held-media';
    this.media.setAttribute('aria-label', 'Media action');
    this.media.replaceChildren(...Object.entries(MEDIA_ACTIONS).map(([action, name]) => new Option(name, action)));
    this.#fill(step);
    this.kind.addEventListener('change', () => this.#showKind());
    this.element.append(this.kind, this.value, this.media);
    this.#showKind();
  }

  #fill(step) {
    switch (step?.kind) {
      case 'hotkey': this.value.value = chordLabel(step); break;
      case 'text': this.value.value = step.text ?? ''; break;
      case 'command': this.value.value = step.command ?? ''; break;
      case 'open': this.value.value = step.target ?? ''; break;
      case 'delay': this.value.value = String(step.ms ?? ''); break;
      case 'media': this.media.value = step.action; break;
      default: this.value.value = '';
    }
  }

  #showKind() {
    const kind = this.kind.value;
    this.media.hidden = kind !== 'media';
    this.value.hidden = kind === 'media' || this.kept && kind === this.original.kind;
    this.value.inputMode = kind === 'delay' ? 'numeric' : 'text';
    this.value.placeholder = PLACEHOLDERS[kind] ?? '';
  }

  /** The held key or delay as the host takes it. */
  read() {
    const kind = this.kind.value;
    const value = this.value.value;
    switch (kind) {
      case 'delay': return { kind, ms: Number(value.trim()) };
      case 'hotkey': return { label: '', kind, ...(parseChord(value) ?? { key: value.trim() }) };
      case 'text': return { label: '', kind, text: value, enter: this.original?.kind === 'text' && this.original.enter === true };
      case 'command': return { label: '', kind, command: value.trim() };
      case 'open': return { label: '', kind, target: value.trim() };
      case 'media': return { label: '', kind, action: this.media.value };
      default: return this.original;
    }
  }

  /** What is wrong with the row, said for a person ('' when nothing). */
  problem() {
    const kind = this.kind.value;
    const value = this.value.value.trim();
    if (kind === 'delay') {
      const ms = Number(value);
      return Number.isInteger(ms) && ms >= DELAY_MIN_MS && ms <= DELAY_MAX_MS ? ''
        : `a delay is ${DELAY_MIN_MS} to ${DELAY_MAX_MS} ms`;
    }
    if (kind === 'hotkey') return parseChord(value) ? '' : 'write the keys as Ctrl+Shift+T';
    if (kind === 'text' && !this.value.value) return 'enter the text to type';
    if (kind === 'command' && !value) return 'enter a command';
    if (kind === 'open') return !value ? 'enter an address or a path' : isOpenTarget(value) ? '' : OPEN_TARGET_RULE;
    return '';
  }
}

/** The multi-action's step list and the toggle's fields of the edit sheet. */
export class CompoundFields {
  /** `onChange` runs after a step is added, moved or removed (the label's hint counts the steps). */
  constructor(dialog, { onChange = () => {} } = {}) {
    this.onChange = onChange;
    this.list = dialog.querySelector('#edit-steps');
    this.addStep = dialog.querySelector('#edit-add-step');
    this.addDelay = dialog.querySelector('#edit-add-delay');
    this.onLabel = dialog.querySelector('#edit-on-label');
    this.offLabel = dialog.querySelector('#edit-off-label');
    this.onSlot = dialog.querySelector('#edit-toggle-on');
    this.offSlot = dialog.querySelector('#edit-toggle-off');
    this.rows = [];
    this.on = new HeldRow(null, { delays: false });
    this.off = new HeldRow(null, { delays: false });
    this.addStep.addEventListener('click', () => this.#add({ label: '', kind: 'hotkey', key: '' }));
    this.addDelay.addEventListener('click', () => this.#add({ kind: 'delay', ms: 250 }));
  }

  /** Fills both kinds' fields from `button` (empty when it is of another kind). */
  fill(button) {
    const toggle = button?.kind === 'toggle' ? button : {};
    this.onLabel.value = toggle.onLabel ?? '';
    this.offLabel.value = toggle.offLabel ?? '';
    this.on = new HeldRow(toggle.on, { delays: false });
    this.off = new HeldRow(toggle.off, { delays: false });
    this.onSlot.replaceChildren(this.on.element);
    this.offSlot.replaceChildren(this.off.element);
    const steps = button?.kind === 'multi' && Array.isArray(button.steps) ? button.steps : [];
    this.rows = steps.map((step) => new HeldRow(step, { delays: true }));
    this.#render();
  }

  /** The multi-action's `steps`. */
  readMulti() { return { steps: this.rows.map((row) => row.read()) }; }

  /** The toggle's actions and labels; the state is the host's. */
  readToggle() {
    return { on: this.on.read(), off: this.off.read(), onLabel: this.onLabel.value.trim(), offLabel: this.offLabel.value.trim() };
  }

  /** What keeps the key from being saved, for a person ('' when nothing). */
  problem(kind) {
    if (kind === 'multi') {
      if (this.rows.length === 0) return 'Add at least one step.';
      const bad = this.rows.findIndex((row) => row.problem());
      return bad < 0 ? '' : `Step ${bad + 1}: ${this.rows[bad].problem()}.`;
    }
    if (kind === 'toggle') {
      const [name, row] = [['Turning on', this.on], ['Turning off', this.off]].find(([, r]) => r.problem()) ?? [];
      return row ? `${name}: ${row.problem()}.` : '';
    }
    return '';
  }

  #add(step) {
    if (this.rows.length >= MAX_STEPS) return;
    this.rows.push(new HeldRow(step, { delays: true }));
    this.#render();
    this.rows.at(-1).value.focus();
  }

  #move(index, by) {
    this.rows = moveStep(this.rows, index, by);
    this.#render();
  }

  #remove(index) {
    this.rows.splice(index, 1);
    this.#render();
  }

  // Each row with its number and its up, down and remove buttons; the add buttons stop at the host's limit.
  #render() {
    this.list.replaceChildren(...this.rows.map((row, index) => {
      const item = document.createElement('li');
      item.className = 'step';
      const tools = document.createElement('span');
      tools.className = 'step-tools';
      tools.append(
        this.#tool('↑', `Move step ${index + 1} up`, index === 0, () => this.#move(index, -1)),
        this.#tool('↓', `Move step ${index + 1} down`, index === this.rows.length - 1, () => this.#move(index, 1)),
        this.#tool('✕', `Remove step ${index + 1}`, false, () => this.#remove(index)));
      item.append(row.element, tools);
      return item;
    }));
    const full = this.rows.length >= MAX_STEPS;
    this.addStep.disabled = full;
    this.addDelay.disabled = full;
    this.list.dataset.count = String(this.rows.length);
    this.onChange();
  }

  #tool(text, label, disabled, action) {
    const tool = document.createElement('button');
    tool.type = 'button';
    tool.className = 'step-tool';
    tool.textContent = text;
    tool.setAttribute('aria-label', label);
    tool.disabled = disabled;
    tool.addEventListener('click', action);
    return tool;
  }
}
