// The device's side of pairing (PROTOCOL.md §3) and authentication (§4) as small state machines without
// I/O: each `receive` takes the host's message and returns what to do next; the client object sends it.
// Every field the host sends is checked before use; anything malformed is a HandshakeError, never a
// TypeError from deep inside the crypto.

import { aeadOpen } from './chacha20poly1305.js';
import { Base64Error, decodeBase64, encodeBase64 } from './base64.js';
import { concat, constantTimeEqual, u64le, utf8 } from './bytes.js';
import { SecureChannel } from './secure.js';
import { Spake2Client, Spake2Error, passwordScalar } from './spake2.js';
import { ecdhSharedSecret, generateEcdhKeyPair, hkdfSha256, hmacSha256, sha256 } from './webcrypto.js';

const POINT_BYTES = 65;
const MAC_BYTES = 32;
const SECRET_BYTES = 32;
const NONCE_BYTES = 12;
const AUTH_LABEL = utf8('TouchDeck auth v1');

/** Why a handshake stopped; `code` is one of the static names below. */
export class HandshakeError extends Error {
  /** The host's message is not valid JSON, misses a field, or a field has the wrong shape. */
  static BAD_MESSAGE = 'badMessage';
  /** The message is valid but not one this stage expects. */
  static UNEXPECTED = 'unexpectedMessage';
  /** The host's pairing confirmation cB is wrong: it does not know the PIN. */
  static BAD_CONFIRMATION = 'badConfirmation';
  /** The host's auth proof is wrong: it does not hold this device's secret. */
  static BAD_PROOF = 'badProof';

  constructor(code, message) {
    super(message);
    this.name = 'HandshakeError';
    this.code = code;
  }
}

function bad(message) {
  return new HandshakeError(HandshakeError.BAD_MESSAGE, message);
}

/** The host's message as an object with a string `type` (accepts the parsed object or the wire text). */
function asMessage(input) {
  let message = input;
  if (typeof input === 'string') {
    try {
      message = JSON.parse(input);
    } catch {
      throw bad('host message is not JSON');
    }
  }
  if (message === null || typeof message !== 'object' || Array.isArray(message) || typeof message.type !== 'string') {
    throw bad('host message is not an object with a type');
  }
  return message;
}

/** A base64 field of exactly `size` bytes. */
function bytesField(message, name, size) {
  let value;
  try {
    value = decodeBase64(message[name]);
  } catch (error) {
    if (!(error instanceof Base64Error)) throw error;
    throw bad(`${message.type}.${name} is not base64`);
  }
  if (value.length !== size) throw bad(`${message.type}.${name} must be ${size} bytes`);
  return value;
}

function unexpected(stage, message) {
  return new HandshakeError(HandshakeError.UNEXPECTED, `${message.type} is not expected ${stage}`);
}

/** `pairingFailed` fields with the protocol's defaults. */
function pairingFailure(message) {
  const failure = {
    reason: typeof message.reason === 'string' ? message.reason : 'badMessage',
    remaining: Number.isInteger(message.remaining) ? message.remaining : 0,
  };
  if (Number.isInteger(message.retryAfter)) failure.retryAfter = message.retryAfter;
  return failure;
}

/** Key for the pairing secret box: HKDF-SHA256(salt "", IKM Ke, "TouchDeck pairing secret", 32). */
export function pairingBoxKey(Ke) {
  return hkdfSha256({ ikm: Ke, info: utf8('TouchDeck pairing secret'), length: 32 });
}

/**
 * Pairing as SPAKE2 role A: `start()` gives pairStart; `receive(pairChallenge)` gives
 * `{send: pairConfirm}`; `receive(paired)` gives `{paired: {deviceId, secret}}`;
 * `receive(pairingFailed)` gives `{failed: {reason, remaining, retryAfter?}}`.
 */
export class DevicePairing {
  /** Derives w from the six-digit PIN; `x` is only for known-answer tests. */
  static async create({ pin, name = '', x } = {}) {
    if (typeof pin !== 'string' || !/^[0-9]{6}$/.test(pin)) throw new RangeError('the PIN is six digits');
    return new DevicePairing(new Spake2Client(await passwordScalar(pin), x === undefined ? {} : { x }), name);
  }

  constructor(spake, name) {
    this.spake = spake;
    this.name = name;
    this.stage = 'start';
    this.keys = null;
  }

  /** The first message: `{type:"pairStart", name, pA}`. */
  start() {
    this.stage = 'challenge';
    return { type: 'pairStart', name: this.name, pA: encodeBase64(this.spake.pA) };
  }

  /** Handles the host's next message; see the class summary for the results. */
  async receive(input) {
    const message = asMessage(input);
    if (message.type === 'pairingFailed' && this.stage !== 'done') {
      this.stage = 'done';
      return { failed: pairingFailure(message) };
    }
    if (message.type === 'pairChallenge' && this.stage === 'challenge') return this.confirm(message);
    if (message.type === 'paired' && this.stage === 'paired') return this.finish(message);
    throw unexpected(`while pairing (${this.stage})`, message);
  }

  async confirm(message) {
    const pB = bytesField(message, 'pB', POINT_BYTES);
    try {
      this.keys = await this.spake.finish(pB);
    } catch (error) {
      if (!(error instanceof Spake2Error)) throw error;
      throw bad('pairChallenge.pB is not a usable point');
    }
    this.stage = 'paired';
    return { send: { type: 'pairConfirm', cA: encodeBase64(this.keys.cA) } };
  }

  /** Checks cB before trusting anything else in `paired`, then opens the secret box. */
  async finish(message) {
    const cB = bytesField(message, 'cB', MAC_BYTES);
    if (!constantTimeEqual(cB, this.keys.cB)) {
      throw new HandshakeError(HandshakeError.BAD_CONFIRMATION, 'the host does not know the PIN');
    }
    const { deviceId } = message;
    if (typeof deviceId !== 'string' || !/^[\x20-\x7e]{1,128}$/.test(deviceId)) throw bad('paired.deviceId is invalid');
    const box = bytesField(message, 'box', NONCE_BYTES + SECRET_BYTES + 16);
    const key = await pairingBoxKey(this.keys.Ke);
    const secret = aeadOpen(key, box.subarray(0, NONCE_BYTES), box.subarray(NONCE_BYTES), utf8(deviceId));
    if (secret === null) throw bad('paired.box does not open');
    this.stage = 'done';
    return { paired: { deviceId, secret } };
  }
}

function storedSecret(text) {
  try {
    return decodeBase64(text);
  } catch {
    throw new RangeError('stored secret is not base64');
  }
}

/** The §4 key schedule (both ends compute it): th and the four 32-byte keys. */
export async function authKeys({ deviceId, secret, eA, eB, Z }) {
  const id = utf8(deviceId);
  const th = await sha256(concat(AUTH_LABEL, u64le(id.length), id, eA, eB));
  const okm = await hkdfSha256({ ikm: Z, salt: secret, info: concat(AUTH_LABEL, th), length: 128 });
  return {
    th,
    hostProofKey: okm.slice(0, 32),
    deviceProofKey: okm.slice(32, 64),
    hostToDeviceKey: okm.slice(64, 96),
    deviceToHostKey: okm.slice(96, 128),
  };
}

/** HMAC-SHA256(hostProofKey, "host" || th). */
export function hostProof(keys) {
  return hmacSha256(keys.hostProofKey, concat(utf8('host'), keys.th));
}

/** HMAC-SHA256(deviceProofKey, "device" || th). */
export function deviceProof(keys) {
  return hmacSha256(keys.deviceProofKey, concat(utf8('device'), keys.th));
}

/**
 * Authentication: `start()` gives authStart; `receive(authChallenge)` checks the host's proof and gives
 * `{send: authFinish, channel}`; `receive(unauthorized)` gives `{failed: {reason}}` (`unknownDevice` means
 * pair again). The host's first sealed message on `channel` is `authorized`.
 */
export class DeviceAuth {
  /** Makes a fresh ephemeral ECDH key for one authentication. */
  /** `secret` is the 32 bytes from pairing, as a Uint8Array or its base64 text (as stored). */
  static async create({ deviceId, secret }) {
    if (typeof deviceId !== 'string' || deviceId.length === 0) throw new RangeError('deviceId is required');
    const bytes = typeof secret === 'string' ? storedSecret(secret) : secret;
    if (!(bytes instanceof Uint8Array) || bytes.length !== SECRET_BYTES) throw new RangeError('secret is 32 bytes');
    return new DeviceAuth(deviceId, bytes.slice(), await generateEcdhKeyPair());
  }

  constructor(deviceId, secret, keyPair) {
    this.deviceId = deviceId;
    this.secret = secret;
    this.keyPair = keyPair;
    this.stage = 'start';
  }

  /** The first message: `{type:"authStart", deviceId, eA}`. */
  start() {
    this.stage = 'challenge';
    return { type: 'authStart', deviceId: this.deviceId, eA: encodeBase64(this.keyPair.publicKey) };
  }

  /** Handles the host's reply to authStart; see the class summary for the results. */
  async receive(input) {
    const message = asMessage(input);
    if (this.stage !== 'challenge') throw unexpected(`after authentication (${this.stage})`, message);
    if (message.type === 'unauthorized') {
      this.stage = 'done';
      return { failed: { reason: typeof message.reason === 'string' ? message.reason : 'badMessage' } };
    }
    if (message.type !== 'authChallenge') throw unexpected('while authenticating', message);
    return this.finish(message);
  }

  async finish(message) {
    const eB = bytesField(message, 'eB', POINT_BYTES);
    const proof = bytesField(message, 'proof', MAC_BYTES);
    let Z;
    try {
      Z = await ecdhSharedSecret(this.keyPair.privateKey, eB);
    } catch {
      // WebCrypto refuses points off the curve with a DOMException; the host sent a bad eB.
      throw bad('authChallenge.eB is not a usable point');
    }
    const eA = this.keyPair.publicKey;
    const keys = await authKeys({ deviceId: this.deviceId, secret: this.secret, eA, eB, Z });
    if (!constantTimeEqual(proof, await hostProof(keys))) {
      throw new HandshakeError(HandshakeError.BAD_PROOF, 'the host does not hold this device\'s secret');
    }
    // Forward secrecy: the ephemeral key is not kept past the handshake.
    this.keyPair = null;
    this.stage = 'done';
    const channel = new SecureChannel({ sendKey: keys.deviceToHostKey, receiveKey: keys.hostToDeviceKey });
    return { send: { type: 'authFinish', proof: encodeBase64(await deviceProof(keys)) }, channel };
  }
}

/**
 * Pairing as the client object drives it: `await first()` gives pairStart, `receive` as DevicePairing's,
 * except that `paired.secret` is base64 text, ready for storage.
 */
export function startPairing({ pin, name = '' }) {
  let pairing = null;
  return {
    async first() {
      pairing = await DevicePairing.create({ pin, name });
      return pairing.start();
    },
    async receive(message) {
      if (!pairing) throw new HandshakeError(HandshakeError.UNEXPECTED, 'pairing has not started');
      const step = await pairing.receive(message);
      if (step.paired) step.paired = { deviceId: step.paired.deviceId, secret: encodeBase64(step.paired.secret) };
      return step;
    },
  };
}

/** Authentication as the client object drives it: `await first()` gives authStart; `receive` as DeviceAuth's. */
export function startAuth({ deviceId, secret }) {
  let auth = null;
  return {
    async first() {
      auth = await DeviceAuth.create({ deviceId, secret });
      return auth.start();
    },
    async receive(message) {
      if (!auth) throw new HandshakeError(HandshakeError.UNEXPECTED, 'authentication has not started');
      return auth.receive(message);
    },
  };
}
