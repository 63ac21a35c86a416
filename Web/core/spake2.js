// SPAKE2 (RFC 9382), suite P256-SHA256-HKDF-HMAC, in role A (the device), as PROTOCOL.md §3 uses it.
// The point arithmetic is ours (p256.js); hashing and key derivation come from WebCrypto.

import * as p256 from './p256.js';
import { bigIntToBytes, bytesToBigInt, concat, constantTimeEqual, randomBytes, u64le, utf8 } from './bytes.js';
import { hkdfSha256, hmacSha256, sha256 } from './webcrypto.js';

/** Identity of role A (the device). */
export const ID_DEVICE = utf8('TouchDeck device');
/** Identity of role B (the host). */
export const ID_HOST = utf8('TouchDeck host');

const hexBytes = (hex) => Uint8Array.from(hex.match(/../g), (pair) => parseInt(pair, 16));
/** RFC 9382 blinding point M for P-256. */
export const M = p256.decodePoint(hexBytes('02886e2f97ace46e55ba9dd7242579f2993b64e16ef3dcab95afd497333d8fa12f'));
/** RFC 9382 blinding point N for P-256. */
export const N = p256.decodePoint(hexBytes('03d8bbd6c639c62937b04d997f38c3770719c629d7014d49a24b4f98baa1292b49'));

/** The peer's share is unusable: not a P-256 point, or K would be the point at infinity. */
export class Spake2Error extends Error {
  constructor(message) {
    super(message);
    this.name = 'Spake2Error';
  }
}

/** w = HKDF-SHA256(PIN, "", "TouchDeck SPAKE2 w", 40) mod n; 40 bytes keep the reduction unbiased. */
export async function passwordScalar(pin) {
  const okm = await hkdfSha256({ ikm: utf8(pin), info: utf8('TouchDeck SPAKE2 w'), length: 40 });
  return p256.modN(bytesToBigInt(okm));
}

/** Uniform scalar in [1, n−1] (40 random bytes, so the reduction bias is negligible). */
export function randomScalar() {
  return 1n + (bytesToBigInt(randomBytes(40)) % (p256.N - 1n));
}

/** RFC 9382 §3.3 transcript: each field after its 8-byte little-endian length. */
export function transcript({ idA, idB, pA, pB, K, w }) {
  const fields = [idA, idB, pA, pB, K, bigIntToBytes(w, 32)];
  return concat(...fields.flatMap((field) => [u64le(field.length), field]));
}

/** Ke, Ka, KcA, KcB and both confirmation MACs derived from a transcript. */
export async function transcriptKeys(TT) {
  const digest = await sha256(TT);
  const Ka = digest.slice(16);
  const confirmation = await hkdfSha256({ ikm: Ka, info: utf8('ConfirmationKeys'), length: 32 });
  const KcA = confirmation.slice(0, 16);
  const KcB = confirmation.slice(16);
  return {
    Ke: digest.slice(0, 16), Ka, KcA, KcB,
    cA: await hmacSha256(KcA, TT),
    cB: await hmacSha256(KcB, TT),
  };
}

/** Role A of one exchange: holds x and w, offers pA, and turns pB into the shared keys. */
export class Spake2Client {
  /** `w` is the password scalar; `x` is random unless a test fixes it; identities default to TouchDeck's. */
  constructor(w, { x = randomScalar(), idA = ID_DEVICE, idB = ID_HOST } = {}) {
    this.w = w;
    this.x = x;
    this.idA = idA;
    this.idB = idB;
    /** pA = x·G + w·M, 65 bytes uncompressed. */
    this.pA = p256.encodePoint(p256.add(p256.multiply(x, p256.G), p256.multiply(w, M)));
  }

  /** K = x·(pB − w·N) and the transcript keys; throws Spake2Error for an unusable pB. */
  async finish(pB) {
    if (!(pB instanceof Uint8Array) || pB.length !== 65) throw new Spake2Error('pB must be a 65-byte point');
    let peer;
    try {
      peer = p256.decodePoint(pB);
    } catch {
      throw new Spake2Error('pB is not a point on P-256');
    }
    const unblinded = p256.add(peer, p256.negate(p256.multiply(this.w, N)));
    const K = p256.multiply(this.x, unblinded);
    if (p256.isInfinity(K)) throw new Spake2Error('K is the point at infinity');
    const TT = transcript({ idA: this.idA, idB: this.idB, pA: this.pA, pB, K: p256.encodePoint(K), w: this.w });
    return { TT, K: p256.encodePoint(K), ...(await transcriptKeys(TT)) };
  }
}

/** Constant-time check of the host's confirmation cB against the expected one. */
export function confirmationMatches(expected, received) {
  return received instanceof Uint8Array && constantTimeEqual(expected, received);
}
