// Live looks (issue 23, PROTOCOL §6 "Live looks"): the host's `keyState` messages, the latest per key, and what a
// key shows when its live look lies over its configured one; plus the edit sheet's "State command" fields, so a
// key saved from the sheet keeps its `stateCommand`. DOM-free, so `node --test` checks it against the fixture.
import { characterCount } from './key-kinds.js';
import { lookError, PALETTE } from './looks.js';

const isPlainObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
/** The most characters of a badge that is not a number (LiveLook). */
export const MAX_BADGE = 4;
/** The most bytes of a state command (DeckLayout.maxField). */
export const MAX_STATE_COMMAND = 4096;

const readPath = (path) => (Array.isArray(path)
  ? path.filter((s) => Number.isInteger(s?.page) && Number.isInteger(s?.index)).map(({ page, index }) => ({ page, index }))
  : []);

/** A place's key in the store: profile, folder path, page and slot. */
export const placeKey = (profile, path, page, index) =>
  `${profile ?? ''}\u0000${readPath(path).map((s) => `${s.page}.${s.index}`).join('/')}\u0000${page}.${index}`;

/**
 * The parts of a live look this client can draw, each checked as the look rules allow (a field it cannot draw is
 * left out, so the configured look shows there): label, colour from the palette, icon (emoji, app or stored
 * image), badge (a number, or at most 4 characters), state on/off, value 0…1.
 */
export function readLook(look) {
  const out = {};
  if (!isPlainObject(look)) return out;
  if (typeof look.label === 'string' && look.label) out.label = look.label;
  if (PALETTE.includes(look.color)) out.color = look.color;
  if (isPlainObject(look.icon) && lookError({ icon: look.icon }) === null) out.icon = { ...look.icon };
  if (typeof look.badge === 'number' && Number.isFinite(look.badge)) out.badge = String(look.badge);
  else if (typeof look.badge === 'string' && look.badge && characterCount(look.badge) <= MAX_BADGE) out.badge = look.badge;
  if (look.state === 'on' || look.state === 'off') out.state = look.state;
  if (typeof look.value === 'number' && Number.isFinite(look.value)) out.value = Math.min(1, Math.max(0, look.value));
  return out;
}

/** A `keyState` message read: `{ profile, path, page, index, look, error }`, or null when it names no key. */
export function readKeyState(message) {
  if (!isPlainObject(message) || !Number.isInteger(message.page) || !Number.isInteger(message.index)) return null;
  if (message.page < 0 || message.index < 0) return null;
  const error = typeof message.error === 'string' && message.error ? message.error : '';
  return {
    profile: typeof message.profile === 'string' ? message.profile : '',
    path: readPath(message.path), page: message.page, index: message.index, look: readLook(message.look), error,
  };
}

/** Whether a read live look shows nothing: the key shows its configured look again. */
export const isCleared = (state) => !state || (Object.keys(state.look).length === 0 && !state.error);

/** The same key, for "does this place still hold the key the live look came for". */
const sameKey = (a, b) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The latest live look of each key, by profile, folder path, page and slot. Each `keyState` carries the key's
 * whole live look (the host merges a command's partial lines), so the newest replaces the one before; an empty
 * look without an error removes it. A look remembers the key it came for: a layout whose place holds another key
 * there drops it (the host also clears it; this keeps a stale look off a key that moved in meanwhile).
 */
export class KeyStates {
  #states = new Map();

  /** Takes a `keyState`; `button` is the key at its place when known (the profile is shown). Returns it read. */
  receive(message, button) {
    const state = readKeyState(message);
    if (!state) return null;
    const key = placeKey(state.profile, state.path, state.page, state.index);
    if (isCleared(state)) this.#states.delete(key);
    else this.#states.set(key, { ...state, button: button === undefined ? undefined : structuredClone(button) });
    return state;
  }

  /** The live look at a place, or null. */
  get(profile, path, page, index) {
    const state = this.#states.get(placeKey(profile, path, page, index));
    return state ? { look: state.look, error: state.error } : null;
  }

  /**
   * A new layout of `profile` came: live looks of other profiles go (the host sends them again when one shows),
   * and so do those whose place now holds another key than the one they came for. `buttonAt(path, page, index)`
   * gives the key at a place of the layout. Returns how many were dropped.
   */
  keepSame(profile, buttonAt) {
    let dropped = 0;
    for (const [key, state] of this.#states) {
      const button = state.profile === profile ? buttonAt(state.path, state.page, state.index) : null;
      if (state.profile === profile && button && (state.button === undefined || sameKey(state.button, button))) {
        state.button ??= structuredClone(button);
        continue;
      }
      this.#states.delete(key);
      dropped += 1;
    }
    return dropped;
  }

  /** Forgets every live look (the connection was lost; the host sends them again after authorization). */
  clear() { this.#states.clear(); }

  get size() { return this.#states.size; }
}

/**
 * The key as it shows with its live look over it: label, colour and icon replace the configured ones (an icon
 * shown live is never hidden behind `hideLabel`'s absent label either way: the key's own rule still applies), and
 * the marks beside: `badge`, `state`, `value`, `error` ('' when none).
 */
export function liveButton(button, state) {
  if (!button) return null;
  const look = state?.look ?? {};
  const shown = { ...button };
  if (look.label) shown.label = look.label;
  if (look.color) shown.color = look.color;
  if (look.icon) shown.icon = look.icon;
  return {
    button: shown,
    badge: look.badge ?? '', state: look.state ?? '', value: look.value ?? null, error: state?.error ?? '',
  };
}

/** The edit sheet's "State command" fields for a key: its command and seconds ('' each when none). */
export function stateCommandFields(button) {
  const source = button?.stateCommand;
  if (!isPlainObject(source) || typeof source.command !== 'string') return { command: '', every: '' };
  return { command: source.command, every: Number.isInteger(source.every) ? String(source.every) : '' };
}

/**
 * The `stateCommand` the sheet's fields make: `{ stateCommand }` (nothing when the command is empty) or
 * `{ problem }` in the host's words.
 */
export function readStateCommand({ command = '', every = '' } = {}) {
  const text = String(command).trim();
  const seconds = String(every).trim();
  if (!text) return seconds ? { problem: 'Enter the state command to run every so many seconds.' } : {};
  if (new TextEncoder().encode(text).length > MAX_STATE_COMMAND) {
    return { problem: `A state command is at most ${MAX_STATE_COMMAND} bytes.` };
  }
  if (!seconds) return { stateCommand: { command: text } };
  if (!/^\d+$/.test(seconds) || Number(seconds) < 1) return { problem: 'Run the state command every 1 second or more.' };
  return { stateCommand: { command: text, every: Number(seconds) } };
}

/** A button the sheet built, with the state command its fields hold (kept as it was when they were not changed). */
export function withStateCommand(built, fields) {
  const { stateCommand } = readStateCommand(fields);
  const button = { ...built };
  delete button.stateCommand;
  if (stateCommand) button.stateCommand = stateCommand;
  return button;
}
