// The primitives WebCrypto does have (SHA-256, HMAC, HKDF, ECDH P-256), wrapped to take and return
// Uint8Arrays. `crypto.subtle` exists in browsers on secure (https) pages only, and as a global from Node 19.

// Node 18 (Debian 12's and Ubuntu 24.04's own `nodejs`) has WebCrypto only as `node:crypto`'s `webcrypto`.
// Asked only under Node: a browser must never try to load a `node:` module.
const webcrypto = globalThis.crypto?.subtle
  ? globalThis.crypto
  : globalThis.process?.versions?.node
    ? (await import('node:crypto')).webcrypto
    : globalThis.crypto;

function subtle() {
  const api = webcrypto?.subtle;
  if (!api) throw new Error('WebCrypto is unavailable: open the page over https');
  return api;
}

/** Fills `bytes` with cryptographically random values and returns it. */
export function fillRandom(bytes) {
  if (!webcrypto?.getRandomValues) throw new Error('no random source: open the page over https');
  return webcrypto.getRandomValues(bytes);
}

/** SHA-256 digest. */
export async function sha256(data) {
  return new Uint8Array(await subtle().digest('SHA-256', data));
}

/** HMAC-SHA256 of `data` under `key` (any length). */
export async function hmacSha256(key, data) {
  const hmacKey = await subtle().importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await subtle().sign('HMAC', hmacKey, data));
}

/** HKDF-SHA256 (RFC 5869) giving `length` bytes; an empty salt means the RFC's string of zeros. */
export async function hkdfSha256({ ikm, salt = new Uint8Array(0), info = new Uint8Array(0), length }) {
  const key = await subtle().importKey('raw', ikm, 'HKDF', false, ['deriveBits']);
  const params = { name: 'HKDF', hash: 'SHA-256', salt, info };
  return new Uint8Array(await subtle().deriveBits(params, key, length * 8));
}

/** A fresh ephemeral P-256 ECDH key pair; `publicKey` is the 65-byte uncompressed point. */
export async function generateEcdhKeyPair() {
  const pair = await subtle().generateKey({ name: 'ECDH', namedCurve: 'P-256' }, false, ['deriveBits']);
  const publicKey = new Uint8Array(await subtle().exportKey('raw', pair.publicKey));
  return { privateKey: pair.privateKey, publicKey };
}

/** The 32-byte X coordinate of our private key times the peer's point; throws if the point is invalid. */
export async function ecdhSharedSecret(privateKey, peerPublicKey) {
  const peer = await subtle().importKey('raw', peerPublicKey, { name: 'ECDH', namedCurve: 'P-256' }, false, []);
  return new Uint8Array(await subtle().deriveBits({ name: 'ECDH', public: peer }, privateKey, 256));
}
