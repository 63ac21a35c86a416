// Hotkey keys (PROTOCOL §6 "Layout", `hotkey`): the keys a chord may name, their readable names, and the chord a
// hardware keyboard's key press stands for. The host checks the chord again (DeckKit's KeyChord); this is what the
// editor offers and records. DOM-free, so `node --test` checks it.

/** The modifiers in the order the wire lists them and the editor shows them. */
export const CHORD_MODIFIERS = ['ctrl', 'alt', 'shift', 'super'];
const MODIFIER_NAMES = { ctrl: 'Ctrl', alt: 'Alt', shift: 'Shift', super: 'Super' };

const functionKeys = Array.from({ length: 24 }, (_, n) => [`f${n + 1}`, `F${n + 1}`]);

/** The named keys a hotkey may press, in groups as the editor lists them: [group, [[name, readable], …]]. */
export const KEY_GROUPS = [
  ['Keys', [
    ['esc', 'Esc'], ['tab', 'Tab'], ['return', 'Return'], ['space', 'Space'], ['backspace', 'Backspace'],
    ['delete', 'Delete'], ['insert', 'Insert'], ['home', 'Home'], ['end', 'End'], ['pageUp', 'Page Up'],
    ['pageDown', 'Page Down'], ['up', 'Up'], ['down', 'Down'], ['left', 'Left'], ['right', 'Right'],
    ['print', 'Print Screen'],
  ]],
  ['Function keys', functionKeys],
  ['Media', [
    ['playPause', 'Play/Pause'], ['nextTrack', 'Next Track'], ['previousTrack', 'Previous Track'],
    ['stopMedia', 'Stop'], ['mute', 'Mute'], ['volumeDown', 'Volume Down'], ['volumeUp', 'Volume Up'],
    ['brightnessUp', 'Brightness Up'], ['brightnessDown', 'Brightness Down'],
  ]],
];

const READABLE = new Map(KEY_GROUPS.flatMap(([, keys]) => keys));

/** Whether `name` is one of the named keys above. */
export const isNamedKey = (name) => READABLE.has(name);

// DeckKit's KeyChord.character: one scalar, not a control, format, separator, surrogate, unassigned or private one.
const NOT_PRINTABLE = /^[\p{Cc}\p{Cf}\p{Zs}\p{Zl}\p{Zp}\p{Cs}\p{Cn}\p{Co}]$/u;

/** Whether `text` is one printable character a chord may press (`z`, `1`, `é`, `/`). */
export function isChordCharacter(text) {
  const scalars = [...String(text)];
  return scalars.length === 1 && !NOT_PRINTABLE.test(scalars[0]);
}

// pressKey's names for keys with their modifier built in: a hotkey may name them too (PROTOCOL §6), the editor does
// not list them.
const PRESS_KEY_ONLY = new Set(['shiftTab', 'selectAll', 'ctrlC']);

/**
 * Why `{key, modifiers}` is no chord the host takes, by the names DeckKit's KeyChord.Problem gives (both checked
 * against Tests/Fixtures/rules/chords.json), or null when it is one. The key first — 'noKey' (none, empty, or a
 * modifier's name), 'unknownKey' (neither a named key nor one printable character) — then the modifiers:
 * 'unknownModifier', 'repeatedModifier'.
 */
export function chordProblem({ key, modifiers = [] } = {}) {
  if (typeof key !== 'string' || key === '' || CHORD_MODIFIERS.includes(key)) return 'noKey';
  if (!(isNamedKey(key) || PRESS_KEY_ONLY.has(key) || isChordCharacter(key))) return 'unknownKey';
  if (!Array.isArray(modifiers) || !modifiers.every((m) => CHORD_MODIFIERS.includes(m))) return 'unknownModifier';
  return new Set(modifiers).size === modifiers.length ? null : 'repeatedModifier';
}

/** Whether `{key, modifiers}` is a chord the host takes: a named key or one character, each modifier at most once. */
export function isValidChord(chord) {
  return chordProblem(chord) === null;
}

/** The modifiers in wire order, each once, unknown ones dropped. */
export function orderedModifiers(modifiers = []) {
  return CHORD_MODIFIERS.filter((m) => modifiers.includes(m));
}

/** A key's readable name: "Page Up", "F13", "Play/Pause"; a letter in capitals ("T"). */
export function keyName(key) {
  if (READABLE.has(key)) return READABLE.get(key);
  return String(key ?? '').toLocaleUpperCase();
}

/** The chord as a person reads it: "Ctrl+Shift+T", "Play/Pause", "Super+F13". */
export function chordLabel({ key, modifiers = [] } = {}) {
  if (!key) return '';
  return [...orderedModifiers(modifiers).map((m) => MODIFIER_NAMES[m]), keyName(key)].join('+');
}

// KeyboardEvent.key values of keys that have a name of ours (the UI Events "key" values).
const BY_KEY = {
  Escape: 'esc', Esc: 'esc', Tab: 'tab', Enter: 'return', Backspace: 'backspace', Delete: 'delete', Del: 'delete',
  Insert: 'insert', Home: 'home', End: 'end', PageUp: 'pageUp', PageDown: 'pageDown', ' ': 'space',
  Spacebar: 'space', ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right', Up: 'up',
  Down: 'down', Left: 'left', Right: 'right', PrintScreen: 'print', MediaPlayPause: 'playPause',
  MediaPlay: 'playPause', MediaPause: 'playPause', MediaTrackNext: 'nextTrack', MediaNextTrack: 'nextTrack',
  MediaTrackPrevious: 'previousTrack', MediaPreviousTrack: 'previousTrack', MediaStop: 'stopMedia',
  AudioVolumeMute: 'mute', VolumeMute: 'mute', AudioVolumeDown: 'volumeDown', VolumeDown: 'volumeDown',
  AudioVolumeUp: 'volumeUp', VolumeUp: 'volumeUp', BrightnessUp: 'brightnessUp', BrightnessDown: 'brightnessDown',
};
// KeyboardEvent.code values for the same keys, when `key` says nothing useful ("Unidentified" on some keyboards).
const BY_CODE = {
  Escape: 'esc', Tab: 'tab', Enter: 'return', NumpadEnter: 'return', Backspace: 'backspace', Delete: 'delete',
  Insert: 'insert', Home: 'home', End: 'end', PageUp: 'pageUp', PageDown: 'pageDown', Space: 'space',
  ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right', PrintScreen: 'print',
  MediaPlayPause: 'playPause', MediaTrackNext: 'nextTrack', MediaTrackPrevious: 'previousTrack',
  MediaStop: 'stopMedia', AudioVolumeMute: 'mute', VolumeMute: 'mute', AudioVolumeDown: 'volumeDown',
  VolumeDown: 'volumeDown', AudioVolumeUp: 'volumeUp', VolumeUp: 'volumeUp',
};
// Keys that only modify another, or lock: pressed alone they are no chord yet.
const MODIFIER_KEYS = new Set(['Control', 'Shift', 'Alt', 'AltGraph', 'Meta', 'OS', 'Super', 'Hyper', 'Fn', 'FnLock',
  'CapsLock', 'NumLock', 'ScrollLock', 'Symbol', 'SymbolLock']);

/** The letter or digit a physical key is at ("KeyT" → "t", "Digit1" → "1"), or null. */
function fromCode(code) {
  const found = /^(?:Key([A-Z])|Digit([0-9]))$/.exec(String(code ?? ''));
  return found ? (found[1] ?? found[2]).toLowerCase() : null;
}

function keyOf({ key, code, altKey, shiftKey }) {
  const fn = /^F([1-9]|1[0-9]|2[0-4])$/.exec(String(key ?? '')) ?? /^F([1-9]|1[0-9]|2[0-4])$/.exec(String(code ?? ''));
  if (fn) return `f${fn[1]}`;
  if (BY_KEY[key]) return BY_KEY[key];
  // A letter is the layout's own (Ctrl+Z on a German keyboard is the key that types z); Shift stays a modifier.
  if (isChordCharacter(key) && /^\p{L}$/u.test(key)) return key.toLocaleLowerCase();
  // Alt (Option) and Shift turn a letter or digit into another character ("Ω", "!"): the key itself is meant.
  if ((altKey || shiftKey) && fromCode(code)) return fromCode(code);
  if (isChordCharacter(key)) return key;
  return BY_CODE[code] ?? fromCode(code);
}

/**
 * The chord a keydown stands for, `{ key, modifiers }` with our names (F1–F24, arrows, MediaPlayPause →
 * playPause, AudioVolumeUp → volumeUp…), or null for a lone modifier or a key we have no name for.
 * Meta (⌘ on an iPad's keyboard, the Windows key) is Super.
 */
export function chordFromEvent(event) {
  if (!event || MODIFIER_KEYS.has(event.key)) return null;
  const key = keyOf(event);
  if (!key) return null;
  const held = { ctrl: event.ctrlKey, alt: event.altKey, shift: event.shiftKey, super: event.metaKey };
  return { key, modifiers: CHORD_MODIFIERS.filter((m) => held[m]) };
}
