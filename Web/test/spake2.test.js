import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import * as p256 from '../core/p256.js';
import { M, N, Spake2Client, Spake2Error, passwordScalar, randomScalar } from '../core/spake2.js';
import { hkdfSha256 } from '../core/webcrypto.js';
import { loadJSON, hex, toHex } from './support.js';

const spake = loadJSON('Tests/Fixtures/vectors/rfc9382-p256.json');
const hkdf = loadJSON('Tests/Fixtures/vectors/rfc5869-hkdf.json');
const big = (text) => BigInt('0x' + text);

test('RFC 5869 HKDF-SHA256 vectors through WebCrypto', async () => {
  assert.ok(hkdf.cases.length >= 3);
  for (const c of hkdf.cases) {
    const okm = await hkdfSha256({ ikm: hex(c.ikm), salt: hex(c.salt), info: hex(c.info), length: c.length });
    assert.equal(toHex(okm), c.okm, c.name);
  }
});

test('M and N decode from the fixture and re-encode compressed', () => {
  assert.equal(toHex(p256.encodePoint(M, true)), spake.M);
  assert.equal(toHex(p256.encodePoint(N, true)), spake.N);
});

test('RFC 9382 P-256 vectors: pA, pB, K, TT, keys and both confirmations', async () => {
  assert.ok(spake.cases.length >= 4);
  for (const c of spake.cases) {
    const client = new Spake2Client(big(c.w), { x: big(c.x), idA: hex(c.idA), idB: hex(c.idB) });
    assert.equal(toHex(client.pA), c.pA, `${c.name} pA`);
    // Role B from the same arithmetic, to check the vector's pB is y·G + w·N.
    const pB = p256.add(p256.multiply(big(c.y), p256.G), p256.multiply(big(c.w), N));
    assert.equal(toHex(p256.encodePoint(pB)), c.pB, `${c.name} pB`);
    const keys = await client.finish(hex(c.pB));
    for (const field of ['K', 'TT', 'Ke', 'Ka', 'KcA', 'KcB', 'cA', 'cB']) {
      assert.equal(toHex(keys[field]), c[field], `${c.name} ${field}`);
    }
  }
});

test('password scalar is HKDF(PIN, "", "TouchDeck SPAKE2 w", 40) mod n (checked against node:crypto)', async () => {
  for (const pin of ['123456', '000000', '999999']) {
    const okm = Buffer.from(crypto.hkdfSync('sha256', pin, Buffer.alloc(0), 'TouchDeck SPAKE2 w', 40));
    assert.equal(await passwordScalar(pin), big(okm.toString('hex')) % p256.N, pin);
  }
  assert.notEqual(await passwordScalar('123456'), await passwordScalar('123457'));
});

test('two parties with the same PIN agree; a different PIN gives different confirmations', async () => {
  const w = await passwordScalar('123456');
  const client = new Spake2Client(w);
  const hostSide = (hostW) => {
    const y = randomScalar();
    const pB = p256.encodePoint(p256.add(p256.multiply(y, p256.G), p256.multiply(hostW, N)));
    const K = p256.multiply(y, p256.add(p256.decodePoint(client.pA), p256.negate(p256.multiply(hostW, M))));
    return { pB, K: p256.encodePoint(K) };
  };
  const right = hostSide(w);
  assert.equal(toHex((await client.finish(right.pB)).K), toHex(right.K));
  const wrong = hostSide(await passwordScalar('654321'));
  assert.notEqual(toHex((await client.finish(wrong.pB)).K), toHex(wrong.K));
});

test('unusable pB is refused with Spake2Error: off-curve, wrong length, compressed, and the one giving K = ∞', async () => {
  const w = await passwordScalar('123456');
  const client = new Spake2Client(w);
  const offCurve = p256.encodePoint(p256.G);
  offCurve[64] ^= 1;
  const compressed = p256.encodePoint(p256.G, true);
  // pB = w·N unblinds to the identity, so K would be the point at infinity.
  const identityMaker = p256.encodePoint(p256.multiply(w, N));
  for (const bad of [offCurve, compressed, new Uint8Array(65), new Uint8Array(3), identityMaker, 'AAAA', null]) {
    await assert.rejects(client.finish(bad), Spake2Error);
  }
});
