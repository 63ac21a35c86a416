// Keys that hold keys (PROTOCOL §6 "Layout"): a multi-action's steps and a toggle's two actions and looks. The
// limits mirror DeckKit's CompoundRule, both checked against Tests/Fixtures/rules/compound-keys.json; the host
// stays the authority. Also how a step reads in the editor ("Ctrl+Shift+T", "Wait 250 ms") and what a toggle
// shows in its state. DOM-free, so `node --test` checks it.
import { CHORD_MODIFIERS, chordLabel, isChordCharacter, isNamedKey, KEY_GROUPS } from './hotkeys.js';

/** Steps a multi-action has at most (CompoundRule.maxSteps), and at least 1. */
export const MAX_STEPS = 16;
/** The shortest and longest delay step, in milliseconds (CompoundRule.delayRange). */
export const DELAY_MIN_MS = 10;
export const DELAY_MAX_MS = 10_000;

/** Kinds that hold keys: never inside a multi-action or a toggle. */
export const holdsKeys = (button) => button?.kind === 'multi' || button?.kind === 'toggle';

/**
 * What the host would refuse in a multi-action or a toggle, as DeckKit's LayoutError names it ('' when nothing):
 * `stepCount`, `delayOutOfRange`, `nestedKey`, `fieldTooLong`, or what `innerProblem` says of a held key.
 */
export function compoundProblem(button, innerProblem, labelLength) {
  if (button?.kind === 'multi') {
    const steps = Array.isArray(button.steps) ? button.steps : [];
    if (steps.length < 1 || steps.length > MAX_STEPS) return 'stepCount';
    for (const step of steps) {
      const problem = step?.kind === 'delay' ? delayProblem(step.ms) : heldProblem(step, innerProblem);
      if (problem) return problem;
    }
  }
  if (button?.kind === 'toggle') {
    const problem = heldProblem(button.on, innerProblem) || heldProblem(button.off, innerProblem);
    if (problem) return problem;
    if ([button.onLabel, button.offLabel].some((label) => labelLength(label ?? '') > 64)) return 'fieldTooLong';
  }
  return '';
}

const delayProblem = (ms) => (Number.isInteger(ms) && ms >= DELAY_MIN_MS && ms <= DELAY_MAX_MS ? '' : 'delayOutOfRange');
const heldProblem = (button, innerProblem) => (holdsKeys(button) ? 'nestedKey' : innerProblem(button));

/** The host keeps a toggle's state: one set into a slot takes the state of the toggle it replaces, else off. */
export function keepToggleState(button, replaced) {
  if (button?.kind !== 'toggle') return button;
  return { ...button, state: replaced?.kind === 'toggle' && replaced.state === 'on' ? 'on' : 'off' };
}

/** Whether a toggle is on (absent state: off). */
export const isToggleOn = (button) => button?.kind === 'toggle' && button.state === 'on';

/** The label a toggle shows in its state: that state's label, else the key's own. */
export function toggleLabel(button) {
  const look = isToggleOn(button) ? button.onLabel : button?.offLabel;
  return String(look ?? '').trim() || String(button?.label ?? '').trim();
}

const BY_READABLE = new Map(KEY_GROUPS.flatMap(([, keys]) => keys).map(([name, readable]) => [readable.toLowerCase(), name]));
const MODIFIER_BY_NAME = { ctrl: 'ctrl', control: 'ctrl', alt: 'alt', shift: 'shift', super: 'super', meta: 'super' };

/** A chord typed as a person writes it ("Ctrl+Shift+T", "Super+F5", "Page Up"), or null when it names no chord. */
export function parseChord(text) {
  const parts = String(text ?? '').split('+').map((part) => part.trim());
  if (parts.some((part) => part === '')) return null;
  const last = parts.pop();
  const modifiers = parts.map((part) => MODIFIER_BY_NAME[part.toLowerCase()]);
  if (modifiers.some((m) => !m) || new Set(modifiers).size !== modifiers.length) return null;
  const key = BY_READABLE.get(last.toLowerCase()) ?? (isNamedKey(last) ? last : isChordCharacter(last.toLowerCase()) ? last.toLowerCase() : null);
  return key ? { key, modifiers: CHORD_MODIFIERS.filter((m) => modifiers.includes(m)) } : null;
}

/** How a step reads in the editor and on a key's small print. */
export function stepSummary(step) {
  switch (step?.kind) {
    case 'delay': return `Wait ${step.ms} ms`;
    case 'hotkey': return chordLabel(step);
    case 'text': return `Type “${step.text ?? ''}”${step.enter ? ' ⏎' : ''}`;
    case 'command': return `Run ${step.command ?? ''}`;
    case 'open': return `Open ${step.target ?? ''}`;
    case 'terminal': return `Terminal in ${step.directory || '~'}`;
    case 'media': return `Media: ${step.action ?? ''}`;
    case 'app': return `App ${step.appId ?? ''}`;
    case 'record': return 'Record';
    default: return String(step?.kind ?? '');
  }
}

/** Moves step `from` one place up (-1) or down (+1); the list as it was when that would leave it. */
export function moveStep(steps, from, by) {
  const to = from + by;
  if (to < 0 || to >= steps.length) return steps.slice();
  const out = steps.slice();
  [out[from], out[to]] = [out[to], out[from]];
  return out;
}
