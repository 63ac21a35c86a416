// Small byte helpers shared by the crypto and protocol modules. DOM-free, so `node --test` can import them.
import { fillRandom } from './webcrypto.js';

const encoder = new TextEncoder();
const strictDecoder = new TextDecoder('utf-8', { fatal: true });

/** UTF-8 bytes of a string. */
export function utf8(text) {
  return encoder.encode(text);
}

/** String from UTF-8 bytes; throws TypeError on invalid UTF-8 (callers map it to their own error). */
export function fromUtf8(bytes) {
  return strictDecoder.decode(bytes);
}

/** One new array holding all the parts in order. */
export function concat(...parts) {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Equality that takes the same time wherever the first difference is (MAC checks). */
export function constantTimeEqual(a, b) {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

/** Lowercase hex of bytes. */
export function toHex(bytes) {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

/** Bytes from hex (even length, 0-9a-f either case); throws RangeError otherwise. */
export function fromHex(hex) {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) throw new RangeError('not a hex string');
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
  return out;
}

// The 64-bit helpers avoid DataView's BigInt methods, which Safari only gained in version 15.

/** 8-byte little-endian encoding of a non-negative integer (Number or BigInt), as the transcripts use. */
export function u64le(value) {
  const out = u64be(value);
  return out.reverse();
}

/** 8-byte big-endian encoding of a non-negative integer (Number or BigInt), as the binary frame's seq uses. */
export function u64be(value) {
  let rest = BigInt(value);
  const out = new Uint8Array(8);
  for (let i = 7; i >= 0; i--) {
    out[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  return out;
}

/** Reads an 8-byte big-endian unsigned integer as a BigInt. */
export function readU64be(bytes, offset = 0) {
  let value = 0n;
  for (let i = 0; i < 8; i++) value = (value << 8n) | BigInt(bytes[offset + i]);
  return value;
}

/** Cryptographically random bytes from WebCrypto. */
export function randomBytes(count) {
  return fillRandom(new Uint8Array(count));
}

/** Big-endian unsigned integer from bytes. */
export function bytesToBigInt(bytes) {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  return value;
}

/** `length`-byte big-endian encoding of a non-negative BigInt that fits. */
export function bigIntToBytes(value, length) {
  const out = new Uint8Array(length);
  for (let i = length - 1; i >= 0; i--) {
    out[i] = Number(value & 0xffn);
    value >>= 8n;
  }
  if (value !== 0n) throw new RangeError('integer does not fit');
  return out;
}
