import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { aeadSeal, aeadOpen, aeadSealInto, poly1305, Poly1305, chacha20 } from '../core/chacha20poly1305.js';
import { loadJSON, hex, toHex } from './support.js';

const vectors = loadJSON('Tests/Fixtures/vectors/rfc8439-aead.json');
const polyVectors = loadJSON('Tests/Fixtures/vectors/rfc8439-poly1305.json');

test('RFC 8439 AEAD vectors: seal gives the ciphertext and tag', () => {
  assert.ok(vectors.cases.length >= 2);
  for (const c of vectors.cases) {
    const sealed = aeadSeal(hex(c.key), hex(c.nonce), hex(c.plaintext), hex(c.aad));
    assert.equal(toHex(sealed), c.ciphertext + c.tag, c.name);
  }
});

test('RFC 8439 AEAD vectors: open gives the plaintext, and a flipped bit gives null', () => {
  for (const c of vectors.cases) {
    const sealed = hex(c.ciphertext + c.tag);
    assert.equal(toHex(aeadOpen(hex(c.key), hex(c.nonce), sealed, hex(c.aad))), c.plaintext, c.name);
    for (const index of [0, sealed.length - 17, sealed.length - 1]) {
      const tampered = sealed.slice();
      tampered[index] ^= 1;
      assert.equal(aeadOpen(hex(c.key), hex(c.nonce), tampered, hex(c.aad)), null, `${c.name} byte ${index}`);
    }
    const otherAd = hex(c.aad);
    otherAd[0] ^= 0x80;
    assert.equal(aeadOpen(hex(c.key), hex(c.nonce), sealed, otherAd), null, `${c.name} other AD`);
  }
});

test('AEAD matches Node OpenSSL for every length 0…300 and odd offsets', () => {
  for (let length = 0; length <= 300; length++) {
    const key = crypto.randomBytes(32), nonce = crypto.randomBytes(12), ad = crypto.randomBytes(length % 23);
    const plaintext = crypto.randomBytes(length);
    const cipher = crypto.createCipheriv('chacha20-poly1305', key, nonce, { authTagLength: 16 });
    cipher.setAAD(ad);
    const expected = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
    // An unaligned view exercises the byte path next to the word path.
    const shifted = new Uint8Array(length + 1);
    shifted.set(plaintext, 1);
    const out = new Uint8Array(length + 16 + 3);
    aeadSealInto(new Uint8Array(key), new Uint8Array(nonce), shifted.subarray(1), new Uint8Array(ad), out, 3);
    assert.equal(toHex(out.subarray(3)), expected.toString('hex'), `length ${length}`);
    assert.equal(toHex(aeadSeal(key, nonce, plaintext, ad)), expected.toString('hex'), `aligned ${length}`);
  }
});

test('AEAD matches Node OpenSSL on a 300 KB frame', () => {
  const key = crypto.randomBytes(32), nonce = crypto.randomBytes(12), ad = Buffer.from('bin|7');
  const plaintext = crypto.randomBytes(300 * 1024);
  const cipher = crypto.createCipheriv('chacha20-poly1305', key, nonce, { authTagLength: 16 });
  cipher.setAAD(ad);
  const expected = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  const sealed = aeadSeal(new Uint8Array(key), new Uint8Array(nonce), new Uint8Array(plaintext), new Uint8Array(ad));
  assert.ok(expected.equals(Buffer.from(sealed)));
  assert.ok(plaintext.equals(Buffer.from(aeadOpen(new Uint8Array(key), new Uint8Array(nonce), sealed, ad))));
});

// A.3 #5-#11 sit exactly on the final reduction's and the carries' edges: a hand-written Poly1305 can pass
// every random and Wycheproof case and still fail one of these.
test('RFC 8439 A.3 Poly1305 edge vectors #5-#11, whole and fed a byte at a time', () => {
  assert.equal(polyVectors.cases.length, 7);
  for (const c of polyVectors.cases) {
    assert.equal(toHex(poly1305(hex(c.key), hex(c.message))), c.tag, c.name);
    const mac = new Poly1305(hex(c.key));
    for (const byte of hex(c.message)) mac.update(Uint8Array.of(byte));
    assert.equal(toHex(mac.digest()), c.tag, `${c.name}, byte by byte`);
  }
});

/** Straight BigInt Poly1305 from the RFC's definition, as an independent reference. */
function referencePoly1305(key, message) {
  const le = (bytes) => bytes.reduceRight((acc, b) => (acc << 8n) | BigInt(b), 0n);
  const p = (1n << 130n) - 5n;
  const r = le(key.subarray(0, 16)) & 0x0ffffffc0ffffffc0ffffffc0fffffffn;
  let acc = 0n;
  for (let i = 0; i < message.length; i += 16) {
    const block = message.subarray(i, i + 16);
    acc = ((acc + le(block) + (1n << BigInt(8 * block.length))) * r) % p;
  }
  acc = (acc + le(key.subarray(16))) & ((1n << 128n) - 1n);
  return Uint8Array.from({ length: 16 }, (_, i) => Number((acc >> BigInt(8 * i)) & 0xffn));
}

test('Poly1305 equals the BigInt definition, including all-ones keys and messages (carry edges)', () => {
  for (let n = 0; n < 600; n++) {
    const key = new Uint8Array(crypto.randomBytes(32));
    if (n % 2) key.fill(0xff, 0, 16);
    if (n % 4 === 1) key.fill(0xff, 16);
    const message = new Uint8Array(crypto.randomBytes(n % 200));
    if (n % 3) message.fill(0xff);
    assert.equal(toHex(poly1305(key, message)), toHex(referencePoly1305(key, message)), `case ${n}`);
  }
});

test('ChaCha20 is its own inverse and rejects wrong key or nonce sizes', () => {
  const key = new Uint8Array(32).fill(1), nonce = new Uint8Array(12).fill(2);
  const data = new Uint8Array(1000).map((_, i) => i);
  assert.deepEqual(chacha20(key, nonce, 1, chacha20(key, nonce, 1, data)), data);
  assert.throws(() => aeadSeal(new Uint8Array(31), nonce, data, data), RangeError);
  assert.throws(() => aeadSeal(key, new Uint8Array(8), data, data), RangeError);
});
