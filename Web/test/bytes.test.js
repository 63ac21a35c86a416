import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as bytes from '../core/bytes.js';

test('64-bit encodings: little-endian lengths and big-endian seqs, up to 2^64 − 1', () => {
  assert.deepEqual(Array.from(bytes.u64le(65)), [65, 0, 0, 0, 0, 0, 0, 0]);
  assert.deepEqual(Array.from(bytes.u64be(0x0102030405060708n)), [1, 2, 3, 4, 5, 6, 7, 8]);
  const max = bytes.u64be(2n ** 64n - 1n);
  assert.deepEqual(Array.from(max), Array(8).fill(255));
  assert.equal(bytes.readU64be(max), 2n ** 64n - 1n);
  assert.equal(bytes.readU64be(new Uint8Array([9, 0, 0, 0, 0, 0, 0, 1, 2]), 1), 258n);
});

test('hex, big integers, constant-time equality and strict UTF-8', () => {
  assert.equal(bytes.toHex(bytes.fromHex('00ff10')), '00ff10');
  assert.throws(() => bytes.fromHex('0g'), RangeError);
  assert.throws(() => bytes.fromHex('abc'), RangeError);
  assert.equal(bytes.bytesToBigInt(bytes.bigIntToBytes(0xabcdefn, 32)), 0xabcdefn);
  assert.throws(() => bytes.bigIntToBytes(256n, 1), RangeError);
  assert.ok(bytes.constantTimeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2])));
  assert.ok(!bytes.constantTimeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 3])));
  assert.ok(!bytes.constantTimeEqual(new Uint8Array([1]), new Uint8Array([1, 2])));
  assert.equal(bytes.fromUtf8(bytes.utf8('안녕 🎛')), '안녕 🎛');
  assert.throws(() => bytes.fromUtf8(new Uint8Array([0xff])), TypeError);
  assert.deepEqual(bytes.concat(new Uint8Array([1]), new Uint8Array([]), new Uint8Array([2, 3])), new Uint8Array([1, 2, 3]));
});
