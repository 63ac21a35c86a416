// The clipboard's rules on the device (core/clipboard.js) against the shared fixtures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeBase64 } from '../core/base64.js';
import { describeOffer, MAX_TEXT_BYTES, pasteMessage, readDeviceClipboard, writeDeviceClipboard }
  from '../core/clipboard.js';
import { loadJSON } from './support.js';

const fixture = (type) => loadJSON(`Tests/Fixtures/messages/${type}.json`);

test('a paste of text is the clipboardSet fixture', () => {
  const expected = fixture('clipboardSet');
  const text = new TextDecoder().decode(decodeBase64(expected.data));
  assert.deepEqual(pasteMessage({ kind: 'text', text }).message, expected);
  assert.equal(pasteMessage({ kind: 'text', text }, { paste: false }).message.paste, false);
});

test('what the host would refuse is explained before it is sent', () => {
  assert.match(pasteMessage({ kind: 'text', text: 'a'.repeat(MAX_TEXT_BYTES + 1) }).error, /too large to paste \(1\.0 MB/);
  assert.equal(pasteMessage({ kind: 'text', text: '' }).error, 'The clipboard of this device is empty.');
  assert.equal(pasteMessage({ kind: 'image', bytes: new Uint8Array([0x47, 0x49, 0x46, 0x38]) }).error,
    'Only PNG images can be pasted onto the computer.');
  const png = decodeBase64(fixture('clipboardOffer').data);
  assert.equal(pasteMessage({ kind: 'image', bytes: png }).message.kind, 'image');
});

test('an offer shows its text, its image or that it is too large', () => {
  const image = describeOffer(fixture('clipboardOffer'));
  assert.deepEqual([image.kind, image.width, image.height, image.bytes.length], ['image', 1, 1, 69]);
  const long = `${'안녕 '.repeat(100)}\n끝`;
  const text = describeOffer({ type: 'clipboardOffer', kind: 'text', size: 9, data: btoa(String.fromCharCode(
    ...new TextEncoder().encode(long))) });
  assert.equal(text.text, long);
  assert.equal([...text.preview].length, 121);
  assert.equal(describeOffer({ type: 'clipboardOffer', kind: 'text', size: 20971520, tooLarge: true }).tooLarge,
    'Text, 21.0 MB: too large to copy here');
});

test('the device clipboard: a PNG first, else text; a refusal is explained', async () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
  const item = (types) => ({ types: Object.keys(types),
    getType: async (type) => new Blob([types[type]], { type }) });
  const withBoth = { read: async () => [item({ 'text/plain': 'x', 'image/png': png })] };
  assert.deepEqual(await readDeviceClipboard(withBoth), { kind: 'image', bytes: png });
  const withText = { read: async () => [item({ 'text/plain': '세계 👋' })] };
  assert.deepEqual(await readDeviceClipboard(withText), { kind: 'text', text: '세계 👋' });
  const refused = { read: async () => { throw Object.assign(new Error('no'), { name: 'NotAllowedError' }); } };
  assert.equal((await readDeviceClipboard(refused)).error, 'This browser did not allow reading the clipboard.');
  const written = [];
  assert.equal(await writeDeviceClipboard({ kind: 'text', text: 'hi' }, { writeText: async (t) => written.push(t) }),
    null);
  assert.deepEqual(written, ['hi']);
});
