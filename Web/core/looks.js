// Key looks (PROTOCOL §6 "Looks"): a colour from the palette, an icon (one emoji, an app's icon from the `apps`
// catalogue, or a picture stored on the host by name), the label hidden. The host checks them (DeckKit's KeyLook);
// the editor checks first with the same rules so a mistake is said before the save, and the deck draws them.
// DOM-free, so `node --test` checks it against Tests/Fixtures/rules/looks.json.
import { characterCount } from './key-kinds.js';
import { IMAGE_NAME } from './stored-icons.js';

/** The palette's colour names, in the editor's order (KeyLook.palette). Absent: the kind's own colour. */
export const PALETTE = ['red', 'orange', 'yellow', 'lime', 'green', 'teal', 'cyan', 'blue', 'indigo', 'purple', 'pink', 'grey'];
/** The colours the deck paints for the names; the editor's swatches use the same. */
export const PALETTE_HEX = {
  red: '#ef4444', orange: '#f97316', yellow: '#eab308', lime: '#84cc16', green: '#22c55e', teal: '#14b8a6',
  cyan: '#06b6d4', blue: '#3b82f6', indigo: '#6366f1', purple: '#a855f7', pink: '#ec4899', grey: '#8b919c',
};
/** The most UTF-8 bytes of an emoji icon (KeyLook.maxEmojiBytes). */
export const MAX_EMOJI_BYTES = 64;
/** The longest app id (DeckLayout.maxField). */
const MAX_APP_ID = 4096;

const utf8Length = (text) => new TextEncoder().encode(text).length;
// What Swift's first scalar check refuses: white space, control and format characters (a lone joiner).
const INVISIBLE = /^[\p{White_Space}\p{Cc}\p{Cf}]/u;

/** Why an emoji is not an icon, in the host's words, or '' when it is one. */
export function emojiProblem(emoji) {
  const count = characterCount(emoji);
  if (count !== 1) return `an emoji icon is one character, not ${count}`;
  if (utf8Length(emoji) > MAX_EMOJI_BYTES) return `an emoji icon is at most ${MAX_EMOJI_BYTES} bytes`;
  if (INVISIBLE.test(emoji)) return 'an emoji icon must be a visible character';
  return '';
}

const isPlainObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The error code the host gives a button's looks ('badColor', 'badIcon', 'fieldTooLong'; 'malformed' when the
 * fields are of the wrong shape and the message would not even be read), or null when they are fine.
 */
export function lookError(button) {
  const { color, icon, hideLabel } = button ?? {};
  if ((color != null && typeof color !== 'string') || (hideLabel != null && typeof hideLabel !== 'boolean')) return 'malformed';
  if (icon != null && !isPlainObject(icon)) return 'malformed';
  if (color != null && !PALETTE.includes(color)) return 'badColor';
  if (icon == null) return null;
  if (typeof icon.emoji === 'string') return emojiProblem(icon.emoji) ? 'badIcon' : null;
  if (icon.emoji == null && typeof icon.image === 'string' && icon.app == null) return IMAGE_NAME.test(icon.image) ? null : 'badIcon';
  if (icon.emoji != null || typeof icon.app !== 'string') return 'malformed';
  if (icon.app === '') return 'badIcon';
  return utf8Length(icon.app) > MAX_APP_ID ? 'fieldTooLong' : null;
}

/**
 * What a key shows above its label: `{ emoji }`, `{ src }` (an app's picture from the catalogue, through
 * `iconFor(appId)`, or a stored icon's picture through `imageFor(name)`, once it is here), or null. An app key
 * without an icon of its own shows its app's picture, as it always did.
 */
export function keyIcon(button, iconFor, imageFor) {
  const icon = button?.icon;
  if (isPlainObject(icon) && typeof icon.emoji === 'string' && icon.emoji) return { emoji: icon.emoji };
  if (isPlainObject(icon) && typeof icon.image === 'string') {
    const src = imageFor?.(icon.image);
    return src ? { src, image: icon.image } : null;
  }
  const appId = isPlainObject(icon) && typeof icon.app === 'string' ? icon.app : button?.kind === 'app' ? button.appId : null;
  const src = appId ? iconFor?.(appId) : null;
  return src ? { src } : null;
}

/** Whether the keycap draws the label: always, unless the key hides it and has an icon to show instead. */
export const showsLabel = (button, hasIcon) => !(button?.hideLabel === true && hasIcon);

/** The palette name a key is painted with, or '' for the kind's colour (a later host's colour falls back too). */
export const keyColor = (button) => (PALETTE.includes(button?.color) ? button.color : '');

/** The app whose picture a key needs from the catalogue: its icon's app, else an app key's own app. */
export function iconApp(button) {
  if (isPlainObject(button?.icon) && typeof button.icon.app === 'string') return button.icon.app;
  return button?.kind === 'app' ? button.appId ?? null : null;
}

/** The look fields of a button, for the editor to keep when it writes the key again. */
export function lookFields(button) {
  const look = {};
  if (keyColor(button)) look.color = button.color;
  if (isPlainObject(button?.icon)) look.icon = { ...button.icon };
  if (button?.hideLabel === true) look.hideLabel = true;
  return look;
}
