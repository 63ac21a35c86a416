import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import * as p256 from '../core/p256.js';
import { toHex } from './support.js';

test('k·G matches OpenSSL public keys, and compressed points round-trip', () => {
  for (let i = 0; i < 8; i++) {
    const ecdh = crypto.createECDH('prime256v1');
    ecdh.generateKeys();
    const k = BigInt('0x' + ecdh.getPrivateKey('hex'));
    const point = p256.multiply(k, p256.G);
    assert.equal(toHex(p256.encodePoint(point)), ecdh.getPublicKey('hex'));
    assert.equal(toHex(p256.encodePoint(point, true)), ecdh.getPublicKey('hex', 'compressed'));
    const decoded = p256.decodePoint(new Uint8Array(ecdh.getPublicKey(null, 'compressed')));
    assert.deepEqual(decoded, point);
  }
});

test('group laws: P + (−P) = ∞, G + G = 2G, (n−1)·G = −G, n·G = ∞, 0·G = ∞', () => {
  const P = p256.multiply(123456789n, p256.G);
  assert.ok(p256.isInfinity(p256.add(P, p256.negate(P))));
  assert.deepEqual(p256.add(p256.G, p256.G), p256.double(p256.G));
  assert.deepEqual(p256.multiply(p256.N - 1n, p256.G), p256.negate(p256.G));
  assert.ok(p256.isInfinity(p256.multiply(p256.N, p256.G)));
  assert.ok(p256.isInfinity(p256.multiply(0n, p256.G)));
  assert.deepEqual(p256.add(P, p256.INFINITY), P);
  assert.deepEqual(p256.multiply(p256.N + 5n, p256.G), p256.multiply(5n, p256.G));
  assert.equal(p256.modN(-1n), p256.N - 1n);
});

test('decodePoint refuses bad encodings with PointError', () => {
  const good = p256.encodePoint(p256.G);
  const offCurve = good.slice();
  offCurve[64] ^= 1;
  const badPrefix = good.slice();
  badPrefix[0] = 5;
  const xTooBig = new Uint8Array(33).fill(0xff);
  xTooBig[0] = 2;
  for (const bad of [offCurve, badPrefix, good.subarray(0, 64), xTooBig, new Uint8Array(0), [4, 1, 2]]) {
    assert.throws(() => p256.decodePoint(bad), p256.PointError);
  }
  assert.ok(p256.isOnCurve(p256.decodePoint(good)));
  assert.throws(() => p256.encodePoint(p256.INFINITY), p256.PointError);
});
