// Text typed into the host (DESIGN.md#typing, PROTOCOL §6 "Text input"): the same rules as DeckKit's TextInput, checked
// against Tests/Fixtures/rules/text-input.json. A character is an extended grapheme cluster, as in Swift.

/** The most characters (as a person counts them) one `typeText` carries. */
export const MAX_CHARACTERS = 2000;
/** The most Unicode scalars one character keeps, and the most UTF-8 bytes one text keeps (the host's limits). */
export const MAX_SCALARS_PER_CHARACTER = 16;
export const MAX_BYTES = 32768;
/** The most UTF-16 units the host types in one go. */
export const MAX_CHUNK_UTF16 = 20;
/** The protocol number that added `typeText` and `pressKey`. */
export const TYPING_PROTOCOL = 2;

// Swift's Character.isNewline: LF, VT, FF, CR, CR LF, NEL, LINE SEPARATOR, PARAGRAPH SEPARATOR.
const NEWLINES = new Set(['\n', '\u000b', '\f', '\r', '\r\n', '\u0085', '\u2028', '\u2029']);

let segmenter;
/** The characters of `text` as a person counts them (extended grapheme clusters). */
export function graphemes(text) {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return Array.from(segmenter.segment(text), (part) => part.segment);
}

/** Every line break and tab → one space; each character keeps its first MAX_SCALARS_PER_CHARACTER scalars;
 * cut after MAX_CHARACTERS characters or before the one that would pass MAX_BYTES of UTF-8, never inside one. */
export function cleanText(input) {
  let out = '';
  let count = 0;
  let bytes = 0;
  let previous = null;
  for (const character of graphemes(String(input))) {
    if (count >= MAX_CHARACTERS) break;
    let kept = NEWLINES.has(character) || character === '\t' ? ' ' : character;
    const scalars = Array.from(kept);
    if (scalars.length > MAX_SCALARS_PER_CHARACTER) kept = scalars.slice(0, MAX_SCALARS_PER_CHARACTER).join('');
    // A cut character, or the space for a line break, could join the next one: that one is left out (as the host).
    if (previous !== null && graphemes(previous + kept).length === 1) continue;
    previous = kept;
    bytes += utf8Length(kept);
    if (bytes > MAX_BYTES) break;
    out += kept;
    count += 1;
  }
  return out;
}

function utf8Length(text) {
  let length = 0;
  for (const scalar of text) {
    const code = scalar.codePointAt(0);
    length += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return length;
}

/** Pieces of at most MAX_CHUNK_UTF16 UTF-16 units, never splitting a character (a longer one stands alone). */
export function textChunks(input) {
  const result = [];
  let current = '';
  for (const character of graphemes(String(input))) {
    if (current.length > 0 && current.length + character.length > MAX_CHUNK_UTF16) {
      result.push(current);
      current = '';
    }
    current += character;
  }
  if (current.length > 0) result.push(current);
  return result;
}

/** Whether a host that said `hostProtocol` serves typing (an older one gets no keyboard button). */
export function typingAvailable(hostProtocol) {
  return Number.isInteger(hostProtocol) && hostProtocol >= TYPING_PROTOCOL;
}
