import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Base64Error, decodeBase64, encodeBase64 } from '../core/base64.js';

test('RFC 4648 §10 vectors encode and decode', () => {
  const vectors = [['', ''], ['f', 'Zg=='], ['fo', 'Zm8='], ['foo', 'Zm9v'], ['foob', 'Zm9vYg=='],
    ['fooba', 'Zm9vYmE='], ['foobar', 'Zm9vYmFy']];
  for (const [plain, encoded] of vectors) {
    assert.equal(encodeBase64(new TextEncoder().encode(plain)), encoded);
    assert.equal(new TextDecoder().decode(decodeBase64(encoded)), plain);
  }
});

test('matches Node Buffer for random data of every length up to 600 and a 300 KB frame', () => {
  for (const length of [...Array(600).keys(), 300 * 1024]) {
    const bytes = new Uint8Array(length).map(() => Math.floor(Math.random() * 256));
    const expected = Buffer.from(bytes).toString('base64');
    assert.equal(encodeBase64(bytes), expected);
    assert.deepEqual(decodeBase64(expected), bytes);
  }
});

test('refuses what is not canonical padded base64', () => {
  for (const bad of ['Zg', 'Zg=', 'Zh==', 'Zm9=', 'Zm9v====', 'Z===', '=Zg=', 'Zg==Zg==', 'Zm-v', 'Zm_v', 'Zm9v\n',
    'é123', 42, null, undefined]) {
    assert.throws(() => decodeBase64(bad), Base64Error, String(bad));
  }
});
