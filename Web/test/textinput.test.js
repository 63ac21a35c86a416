import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  MAX_BYTES, MAX_CHARACTERS, MAX_CHUNK_UTF16, MAX_SCALARS_PER_CHARACTER, cleanText, textChunks, typingAvailable,
} from '../core/textinput.js';
import { loadJSON } from './support.js';

const fixture = loadJSON('Tests/Fixtures/rules/text-input.json');

test('the limits are the fixture\'s', () => {
  assert.equal(MAX_CHARACTERS, fixture.maxCharacters);
  assert.equal(MAX_CHUNK_UTF16, fixture.maxChunkUTF16);
  assert.equal(MAX_SCALARS_PER_CHARACTER, fixture.maxScalarsPerCharacter);
  assert.equal(MAX_BYTES, fixture.maxBytes);
});

for (const { name, input, output } of fixture.clean) {
  test(`clean: ${name}`, () => assert.equal(cleanText(input), output));
}

for (const { name, input, output } of fixture.chunks) {
  test(`chunks: ${name}`, () => assert.deepEqual(textChunks(input), output));
}

test('chunks put back together give the text', () => {
  const text = '안녕하세요 café ✓ 123 👍🏽👨‍👩‍👧‍👦🇰🇷'.repeat(7);
  assert.equal(textChunks(text).join(''), text);
  assert.ok(textChunks(text).every((piece) => piece.length <= MAX_CHUNK_UTF16));
});

test('typing needs a host at protocol 2', () => {
  assert.equal(typingAvailable(2), true);
  assert.equal(typingAvailable(3), true);
  assert.equal(typingAvailable(1), false);
  assert.equal(typingAvailable(undefined), false);
});
