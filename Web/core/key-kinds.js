// The kinds of deck keys this client knows (PROTOCOL §6 "Layout") and the rules the editor checks before the host
// does: an open key's target, a text key's length, a media key's action, the label a key gets when none was given.
// The host stays the authority (DeckKit's DeckLayout and OpenTarget); a refusal is shown as it says. DOM-free, so
// `node --test` checks it.
import { chordLabel } from './hotkeys.js';
import { toggleLabel } from './compound-keys.js';
import { pageTurnName } from './folders.js';
import { profileKeyLabel } from './profiles.js';
import { sliderLabel } from './slider.js';

/** The kinds this client shows and edits; a key of any other kind is pressed but never edited (it would lose fields). */
export const KNOWN_KINDS = [
  'app', 'command', 'terminal', 'record', 'hotkey', 'text', 'open', 'media', 'micMute', 'nowPlaying', 'slider', 'multi',
  'toggle', 'folder', 'page', 'profile',
];
export const isKnownKind = (kind) => KNOWN_KINDS.includes(kind);

/** The most characters a text key types (DeckLayout.maxText). */
export const MAX_TEXT = 4096;
/** The address schemes an open key opens (OpenTarget.schemes). */
export const OPEN_SCHEMES = ['http://', 'https://', 'mailto:'];

/** A media key's actions (the host's wire names) and the names the editor shows for them, in the editor's order. */
export const MEDIA_ACTIONS = { playPause: 'Play/Pause', previous: 'Previous track', next: 'Next track', stop: 'Stop' };
export const isMediaAction = (action) => Object.hasOwn(MEDIA_ACTIONS, action);

let segmenter;
/** Characters as Swift counts them (extended grapheme clusters), so a limit is the same on both sides. */
export function characterCount(text) {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return [...segmenter.segment(String(text))].length;
}

// Swift's Character.isNewline (LF, VT, FF, CR, NEL, LS, PS) and NUL: never in a target.
const BREAKS = /[\n\u000b\f\r\u0085\u2028\u2029\0]/;

/** OpenTarget.isAllowed: an http, https or mailto address with something after the scheme, or /… or ~ or ~/…. */
export function isOpenTarget(target) {
  if (typeof target !== 'string' || target === '' || BREAKS.test(target)) return false;
  const lower = target.toLowerCase();
  const scheme = OPEN_SCHEMES.find((s) => lower.startsWith(s));
  if (scheme) return characterCount(lower) > scheme.length;
  return target.startsWith('/') || target === '~' || target.startsWith('~/');
}

/** What the editor says when a target is not one the host opens (the host's own words, WireError.badTarget). */
export const OPEN_TARGET_RULE = 'An open key opens an http://, https:// or mailto: address, or a file or folder (/… or ~/…).';

/** The first line of a snippet, for a label or a key's small print. */
function firstLine(text) {
  return String(text ?? '').split(/\r\n|[\n\r\u2028\u2029]/).find((line) => line.trim())?.trim() ?? '';
}

/** The readable name of a target: a web address's host, a mail address, a path's last part ("~" for home). */
function targetName(target) {
  const text = String(target ?? '');
  const lower = text.toLowerCase();
  if (lower.startsWith('mailto:')) return text.slice(7).split('?')[0];
  if (lower.startsWith('http://') || lower.startsWith('https://')) {
    return text.replace(/^https?:\/\//i, '').split(/[/?#]/)[0].replace(/^www\./i, '');
  }
  const parts = text.split('/').filter(Boolean);
  return parts.at(-1) ?? (text.startsWith('/') ? '/' : text);
}

const cut = (text, most) => {
  const characters = [...(segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' })).segment(text)];
  return characters.length <= most ? text : `${characters.slice(0, most - 1).map((c) => c.segment).join('')}…`;
};

/** The label a key of a new kind gets when its label is left empty: "Ctrl+Shift+T", a snippet's first line, a host. */
export function defaultLabel(button) {
  switch (button?.kind) {
    case 'hotkey': return chordLabel(button);
    case 'text': return cut(firstLine(button.text), 24);
    case 'open': return isOpenTarget(button.target) ? cut(targetName(button.target), 24) : '';
    case 'media': return isMediaAction(button.action) ? MEDIA_ACTIONS[button.action] : '';
    case 'micMute': return 'Mic';
    case 'nowPlaying': return 'Now playing';
    case 'slider': return sliderLabel(button);
    case 'multi': return Array.isArray(button.steps) ? stepCount(button.steps.length) : '';
    case 'toggle': return 'Toggle';
    case 'page': return pageTurnName(button);
    case 'profile': return profileKeyLabel(button);
    default: return '';
  }
}

const stepCount = (n) => `${n} step${n === 1 ? '' : 's'}`;

/** The label a key shows: its own, else the default of its kind. */
export function shownLabel(button) {
  if (button?.kind === 'toggle') return toggleLabel(button) || defaultLabel(button);
  return String(button?.label ?? '').trim() || defaultLabel(button);
}

/** The small print under a key's label: the command, the folder, the chord, the snippet, the target. */
export function keySubtitle(button) {
  switch (button?.kind) {
    case 'command': return button.command ?? '';
    case 'terminal': return button.directory || '~';
    case 'hotkey': return chordLabel(button);
    case 'text': return firstLine(button.text);
    case 'open': return button.target ?? '';
    case 'multi': return Array.isArray(button.steps) ? stepCount(button.steps.length) : '';
    case 'toggle': return button.state === 'on' ? 'On' : 'Off';
    case 'profile': return 'Profile';
    default: return '';
  }
}
