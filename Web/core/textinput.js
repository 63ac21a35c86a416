// Text typed into the host (SPEC §8, PROTOCOL §6 "Text input"): the same rules as DeckKit's TextInput, checked
// against Tests/Fixtures/rules/text-input.json. A character is an extended grapheme cluster, as in Swift.

/** The most characters (as a person counts them) one `typeText` carries. */
export const MAX_CHARACTERS = 2000;
/** The most UTF-16 units the host types in one go. */
export const MAX_CHUNK_UTF16 = 20;
/** The protocol number that added `typeText` and `pressKey`. */
export const TYPING_PROTOCOL = 2;

// Swift's Character.isNewline: LF, VT, FF, CR, CR LF, NEL, LINE SEPARATOR, PARAGRAPH SEPARATOR.
const NEWLINES = new Set(['\n', '\u000b', '\f', '\r', '\r\n', '\u0085', '\u2028', '\u2029']);

let segmenter;
function graphemes(text) {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return Array.from(segmenter.segment(text), (part) => part.segment);
}

/** Every line break and tab → one space; cut after MAX_CHARACTERS characters, never inside one. */
export function cleanText(input) {
  let out = '';
  let count = 0;
  for (const character of graphemes(String(input))) {
    if (count >= MAX_CHARACTERS) break;
    out += NEWLINES.has(character) || character === '\t' ? ' ' : character;
    count += 1;
  }
  return out;
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
