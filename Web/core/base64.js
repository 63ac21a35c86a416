// Standard base64 with padding (RFC 4648 §4), strict on input: the wire carries keys and boxes in it, and a
// lenient decoder would let two different strings stand for the same bytes.

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const lookup = new Int16Array(128).fill(-1);
for (let i = 0; i < alphabet.length; i++) lookup[alphabet.charCodeAt(i)] = i;

/** Thrown for text that is not canonical padded base64. */
export class Base64Error extends Error {
  constructor(message) {
    super(message);
    this.name = 'Base64Error';
  }
}

/** Padded standard base64 of bytes. */
export function encodeBase64(bytes) {
  const parts = [];
  let chunk = '';
  const full = bytes.length - (bytes.length % 3);
  for (let i = 0; i < full; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    chunk += alphabet[n >> 18] + alphabet[(n >> 12) & 63] + alphabet[(n >> 6) & 63] + alphabet[n & 63];
    // Long strings built by += get slow to flatten; joining pieces keeps 300 KB frames cheap.
    if (chunk.length >= 8192) {
      parts.push(chunk);
      chunk = '';
    }
  }
  const rest = bytes.length - full;
  if (rest === 1) {
    const n = bytes[full] << 16;
    chunk += alphabet[n >> 18] + alphabet[(n >> 12) & 63] + '==';
  } else if (rest === 2) {
    const n = (bytes[full] << 16) | (bytes[full + 1] << 8);
    chunk += alphabet[n >> 18] + alphabet[(n >> 12) & 63] + alphabet[(n >> 6) & 63] + '=';
  }
  parts.push(chunk);
  return parts.join('');
}

function sextet(text, index) {
  const code = text.charCodeAt(index);
  const value = code < 128 ? lookup[code] : -1;
  if (value < 0) throw new Base64Error('invalid base64 character');
  return value;
}

/** Bytes of padded standard base64; throws Base64Error for anything else (including non-strings). */
export function decodeBase64(text) {
  if (typeof text !== 'string') throw new Base64Error('base64 value is not a string');
  if (text.length % 4 !== 0) throw new Base64Error('base64 length is not a multiple of 4');
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const out = new Uint8Array((text.length / 4) * 3 - padding);
  let o = 0;
  for (let i = 0; i < text.length; i += 4) {
    const last = i + 4 === text.length;
    const a = sextet(text, i);
    const b = sextet(text, i + 1);
    const c = last && padding === 2 ? 0 : sextet(text, i + 2);
    const d = last && padding >= 1 ? 0 : sextet(text, i + 3);
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    out[o++] = n >> 16;
    if (o < out.length) out[o++] = (n >> 8) & 255;
    if (o < out.length) out[o++] = n & 255;
    if (last && padding > 0 && (n & (padding === 2 ? 0xffff : 0xff)) !== 0) {
      throw new Base64Error('non-canonical base64 padding bits');
    }
  }
  return out;
}
