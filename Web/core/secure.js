// Sealed envelopes after authorization (PROTOCOL.md §5): text as {"type":"secure","seq","box"}, binary as
// seq(8, big-endian) || nonce(12) || ciphertext || tag(16). Text and binary keep separate counters, and the
// associated data names the kind ("17" vs "bin|17"), so a box cannot be moved from one kind to the other.

import { aeadOpen, aeadSealInto } from './chacha20poly1305.js';
import { Base64Error, decodeBase64, encodeBase64 } from './base64.js';
import { fromUtf8, randomBytes, readU64be, u64be, utf8 } from './bytes.js';

const NONCE = 12;
const TAG = 16;
const SEQ = 8;
/** Bytes a sealed binary frame adds to its payload. */
export const BINARY_OVERHEAD = SEQ + NONCE + TAG;

/** Why a sealed message was refused; `code` is one of the static names below. */
export class SecureChannelError extends Error {
  /** The envelope or frame is not shaped like a sealed message. */
  static NOT_SECURE = 'notSecure';
  /** The box does not open: tampered, wrong key, wrong kind, wrong seq, or reflected. */
  static BAD_SIGNATURE = 'badSignature';
  /** The seq is not greater than the last one accepted. */
  static REPLAYED = 'replayed';
  /** The box opened but its plaintext is not a JSON object with a string `type`. */
  static BAD_MESSAGE = 'badMessage';

  constructor(code, message) {
    super(message);
    this.name = 'SecureChannelError';
    this.code = code;
  }
}

function keyBytes(name, key) {
  if (!(key instanceof Uint8Array) || key.length !== 32) throw new RangeError(`${name} must be 32 bytes`);
  return key.slice();
}

function binaryAd(seq) {
  return utf8(`bin|${seq}`);
}

function parseInner(plaintext) {
  let inner;
  try {
    inner = JSON.parse(fromUtf8(plaintext));
  } catch {
    throw new SecureChannelError(SecureChannelError.BAD_MESSAGE, 'sealed text is not JSON');
  }
  if (inner === null || typeof inner !== 'object' || Array.isArray(inner) || typeof inner.type !== 'string') {
    throw new SecureChannelError(SecureChannelError.BAD_MESSAGE, 'sealed text is not a message object');
  }
  return inner;
}

/** One direction pair of session keys with the four counters; seals outgoing and opens incoming. */
export class SecureChannel {
  /** Keys are 32 bytes each: `sendKey` seals what we send, `receiveKey` opens what we receive. */
  constructor({ sendKey, receiveKey }) {
    this.sendKey = keyBytes('sendKey', sendKey);
    this.receiveKey = keyBytes('receiveKey', receiveKey);
    this.sentText = 0;
    this.sentBinary = 0n;
    this.receivedText = 0;
    this.receivedBinary = 0n;
  }

  /** Seals an inner message (object, or its JSON text) into the wire text of a `secure` envelope. */
  sealText(inner) {
    const json = typeof inner === 'string' ? inner : JSON.stringify(inner);
    this.sentText += 1;
    const plaintext = utf8(json);
    const box = new Uint8Array(NONCE + plaintext.length + TAG);
    box.set(randomBytes(NONCE), 0);
    aeadSealInto(this.sendKey, box.subarray(0, NONCE), plaintext, utf8(String(this.sentText)), box, NONCE);
    return JSON.stringify({ type: 'secure', seq: this.sentText, box: encodeBase64(box) });
  }

  /** Opens a `secure` envelope (parsed object or wire text) and returns the inner message object. */
  openText(envelope) {
    const { seq, box } = this.readEnvelope(envelope);
    const plaintext = aeadOpen(this.receiveKey, box.subarray(0, NONCE), box.subarray(NONCE), utf8(String(seq)));
    if (plaintext === null) throw new SecureChannelError(SecureChannelError.BAD_SIGNATURE, 'sealed text does not open');
    if (seq <= this.receivedText) throw new SecureChannelError(SecureChannelError.REPLAYED, 'sealed text replayed');
    this.receivedText = seq;
    return parseInner(plaintext);
  }

  readEnvelope(envelope) {
    let object = envelope;
    if (typeof envelope === 'string') {
      try {
        object = JSON.parse(envelope);
      } catch {
        throw new SecureChannelError(SecureChannelError.NOT_SECURE, 'envelope is not JSON');
      }
    }
    if (object === null || typeof object !== 'object' || object.type !== 'secure') {
      throw new SecureChannelError(SecureChannelError.NOT_SECURE, 'not a secure envelope');
    }
    if (!Number.isSafeInteger(object.seq) || object.seq < 1) {
      throw new SecureChannelError(SecureChannelError.NOT_SECURE, 'envelope seq is not a positive integer');
    }
    let box;
    try {
      box = decodeBase64(object.box);
    } catch (error) {
      if (!(error instanceof Base64Error)) throw error;
      throw new SecureChannelError(SecureChannelError.NOT_SECURE, 'envelope box is not base64');
    }
    if (box.length < NONCE + TAG) throw new SecureChannelError(SecureChannelError.NOT_SECURE, 'envelope box too short');
    return { seq: object.seq, box };
  }

  /** Seals a binary payload into one frame: seq || nonce || ciphertext || tag. */
  sealBinary(payload) {
    this.sentBinary += 1n;
    const frame = new Uint8Array(BINARY_OVERHEAD + payload.length);
    frame.set(u64be(this.sentBinary), 0);
    frame.set(randomBytes(NONCE), SEQ);
    const nonce = frame.subarray(SEQ, SEQ + NONCE);
    aeadSealInto(this.sendKey, nonce, payload, binaryAd(this.sentBinary), frame, SEQ + NONCE);
    return frame;
  }

  /** Opens a binary frame (Uint8Array or ArrayBuffer) and returns its payload. */
  openBinary(frame) {
    const bytes = frame instanceof ArrayBuffer ? new Uint8Array(frame) : frame;
    if (!(bytes instanceof Uint8Array) || bytes.length < BINARY_OVERHEAD) {
      throw new SecureChannelError(SecureChannelError.NOT_SECURE, 'binary frame too short');
    }
    const seq = readU64be(bytes, 0);
    const nonce = bytes.subarray(SEQ, SEQ + NONCE);
    const payload = aeadOpen(this.receiveKey, nonce, bytes.subarray(SEQ + NONCE), binaryAd(seq));
    if (payload === null) throw new SecureChannelError(SecureChannelError.BAD_SIGNATURE, 'binary frame does not open');
    if (seq <= this.receivedBinary) throw new SecureChannelError(SecureChannelError.REPLAYED, 'binary frame replayed');
    this.receivedBinary = seq;
    return payload;
  }
}
