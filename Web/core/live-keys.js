// The keyboard panel's live mode (PROTOCOL §6 "Text input"): each key typed into the text field is sent as it
// is typed. A plain character is typed as text (`typeText`), so any layout or input method on the device
// works; a character with a modifier held (a sticky one of the panel or one of a hardware keyboard) is a chord
// (`pressKey{key: character, modifiers}`), so Ctrl+S and Alt+Tab reach the computer; Backspace, Enter, Tab,
// the arrows and the other named keys are `pressKey`. Events come in as plain objects with the DOM's fields.
import { MODIFIERS } from './modifiers.js';
import { cleanText, graphemes } from './textinput.js';

/** `KeyboardEvent.key` → the wire's named key. */
const NAMED_KEYS = {
  Escape: 'esc', Tab: 'tab', Enter: 'return', Backspace: 'backspace', Delete: 'delete', Insert: 'insert',
  ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right', Home: 'home', End: 'end',
  PageUp: 'pageUp', PageDown: 'pageDown',
  ...Object.fromEntries(Array.from({ length: 12 }, (_, n) => [`F${n + 1}`, `f${n + 1}`])),
};

/** `InputEvent.inputType` of an edit that stands for a named key. */
const EDIT_KEYS = {
  deleteContentBackward: 'backspace', deleteContentForward: 'delete', insertLineBreak: 'return',
  insertParagraph: 'return',
};

/** `pressKey` for `key` with `modifiers` (listed only when there are any, each once, in wire order). */
export function keyMessage(key, modifiers = []) {
  const held = MODIFIERS.filter((name) => modifiers.includes(name));
  return held.length > 0 ? { type: 'pressKey', key, modifiers: held } : { type: 'pressKey', key };
}

/**
 * A chord of one character: `space` for a space; a letter typed with Shift names its own key (`t`, not `T`:
 * Shift is held by the modifiers). Null when `character` is not one printable code point.
 */
export function chordMessage(character, modifiers) {
  if (character === ' ') return keyMessage('space', modifiers);
  if ([...character].length !== 1 || /[\p{C}\p{Z}]/u.test(character)) return null;
  const lower = character.toLowerCase();
  const key = modifiers.includes('shift') && [...lower].length === 1 ? lower : character;
  return keyMessage(key, modifiers);
}

const hardwareModifiers = (event) => [
  ...(event.ctrlKey ? ['ctrl'] : []), ...(event.altKey ? ['alt'] : []), ...(event.metaKey ? ['super'] : []),
];

/**
 * The message for a `keydown` in the field, or null when the key is left to the field (a plain character,
 * which arrives as an input edit; a modifier alone; a key an input method is composing with). `sticky` is the
 * panel's held modifiers.
 */
export function liveKeydown(event, sticky = []) {
  if (event.isComposing || ['Process', 'Unidentified', 'Dead'].includes(event.key)) return null;
  const hardware = hardwareModifiers(event);
  const shift = event.shiftKey ? ['shift'] : [];
  const named = NAMED_KEYS[event.key];
  if (named) return keyMessage(named, [...sticky, ...hardware, ...shift]);
  if ([...event.key].length !== 1) return null;  // Shift, Control, CapsLock… alone send nothing
  if (hardware.length === 0 && sticky.length === 0) return null;
  // Option on a Mac keyboard turns s into ß: with Alt held the key's own letter is meant.
  const letter = /^Key([A-Z])$/.exec(event.code ?? '');
  const character = event.altKey && letter && !/^[a-z]$/i.test(event.key) ? letter[1].toLowerCase() : event.key;
  return chordMessage(character, [...sticky, ...hardware, ...shift]);
}

/**
 * The messages for an edit of the field (`beforeinput`: the system keyboard's keys and paste): text typed as
 * `typeText`, its first character as a chord when sticky modifiers are held; Backspace, Delete and Enter as
 * their keys. Empty for an edit that types nothing, and for an input method's composing (see `liveText`).
 */
export function liveInput({ inputType, data }, sticky = []) {
  if (EDIT_KEYS[inputType]) return [keyMessage(EDIT_KEYS[inputType], sticky)];
  if (inputType?.includes('Composition')) return [];  // an input method's text is sent whole when it ends
  if (!inputType?.startsWith('insert') || !data) return [];
  return liveText(data, sticky);
}

/** Text the field received in one piece (an edit, or the end of an input method's composition). */
export function liveText(data, sticky = []) {
  const [first, ...rest] = graphemes(data);
  const chord = sticky.length > 0 ? chordMessage(first, sticky) : null;
  const text = cleanText(chord ? rest.join('') : data);
  return [...(chord ? [chord] : []), ...(text ? [{ type: 'typeText', text, enter: false }] : [])];
}
