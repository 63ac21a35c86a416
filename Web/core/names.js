// Names and labels shown to other people, mirroring DeckKit's DisplayName (Tests/Fixtures/rules/names.json),
// and the guess of a device's name that the PIN sheet offers. DOM-free, so `node --test` imports it.

export const MAX_NAME_CHARACTERS = 64;
export const FALLBACK_NAME = 'Device';

// C0 and C1 controls, DEL, U+200E/F, U+202A–202E and U+2066–2069: they ring, move the cursor or flip the text
// that follows in notifications, the CLI and other devices' screens.
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Control and bidi characters removed and spaces trimmed, without a length limit (labels). */
export function stripName(text) {
  // String.prototype.trim's set is the Unicode spaces, U+2028/9 and U+FEFF once controls are gone.
  return String(text).replace(HIDDEN, '').trim();
}

/** `stripName`, then at most 64 characters (never cutting one in half), trimmed again. */
export function cleanName(text) {
  const kept = [];
  for (const { segment } of graphemes.segment(stripName(text))) {
    if (kept.length === MAX_NAME_CHARACTERS) break;
    kept.push(segment);
  }
  return kept.join('').trim();
}

/** `wanted` cleaned (or "Device"), numbered " 2", " 3"… when a name in `taken` equals it ignoring case. */
export function uniqueName(wanted, taken) {
  const base = cleanName(wanted) || FALLBACK_NAME;
  const used = new Set(taken.map((name) => name.toLowerCase()));
  if (!used.has(base.toLowerCase())) return base;
  for (let number = 2; ; number++) {
    const suffix = ` ${number}`;
    const room = MAX_NAME_CHARACTERS - suffix.length;
    const head = [...graphemes.segment(base)].slice(0, room).map((s) => s.segment).join('').trim();
    const candidate = head + suffix;
    if (!used.has(candidate.toLowerCase())) return candidate;
  }
}

/**
 * A name to offer on the PIN sheet, from what the browser says about itself: "iPad", "iPhone", "Android
 * tablet", "Android phone", else "<browser> on <system>" ("Chrome on Linux"), else "Browser".
 * iPadOS 13+ Safari says "Macintosh"; a Mac with a touch screen does not exist, so touch points tell them apart.
 */
export function guessDeviceName({ userAgent = '', maxTouchPoints = 0 } = {}) {
  const ua = String(userAgent);
  if (/iPad/.test(ua) || (/Macintosh/.test(ua) && maxTouchPoints > 1)) return 'iPad';
  if (/iPhone/.test(ua)) return 'iPhone';
  if (/iPod/.test(ua)) return 'iPod';
  if (/Android/.test(ua)) return /Mobile/.test(ua) ? 'Android phone' : 'Android tablet';
  const browser = browserName(ua);
  const system = systemName(ua);
  if (browser && system) return `${browser} on ${system}`;
  return browser || system || 'Browser';
}

function browserName(ua) {
  // Order matters: Edge and Opera also say Chrome, Chrome also says Safari.
  if (/Edg\//.test(ua)) return 'Edge';
  if (/OPR\//.test(ua)) return 'Opera';
  if (/Firefox\//.test(ua)) return 'Firefox';
  if (/(Chrome|Chromium)\//.test(ua)) return 'Chrome';
  if (/Safari\//.test(ua)) return 'Safari';
  return '';
}

function systemName(ua) {
  if (/CrOS/.test(ua)) return 'ChromeOS';
  if (/Windows/.test(ua)) return 'Windows';
  if (/Macintosh|Mac OS X/.test(ua)) return 'Mac';
  if (/Linux|X11/.test(ua)) return 'Linux';
  return '';
}
