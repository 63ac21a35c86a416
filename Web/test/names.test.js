// Names and labels: the same fixture as DeckKit's DisplayNameTests, plus the PIN sheet's guess of a name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { cleanName, stripName, uniqueName, guessDeviceName, MAX_NAME_CHARACTERS, FALLBACK_NAME } from '../core/names.js';
import { applyEdit } from '../core/layout.js';

const fixture = JSON.parse(readFileSync(new URL('../../Tests/Fixtures/rules/names.json', import.meta.url)));

test('limits match the shared fixture', () => {
  assert.equal(MAX_NAME_CHARACTERS, fixture.maxCharacters);
  assert.equal(FALLBACK_NAME, fixture.fallback);
});
for (const c of fixture.clean) test(`clean: ${c.name}`, () => assert.equal(cleanName(c.input), c.output));
for (const c of fixture.strip) test(`strip: ${c.name}`, () => assert.equal(stripName(c.input), c.output));
for (const c of fixture.unique) {
  test(`unique: ${c.name}`, () => assert.equal(uniqueName(c.wanted, c.taken), c.output));
}

test('a setButton label loses its override, as on the host', () => {
  const empty = [Array(12).fill(null)];
  const edit = { type: 'setButton', page: 0, index: 0, button: { label: ' \u202eBlog\u0007', kind: 'command', command: 'b' } };
  assert.equal(applyEdit(empty, edit)[0][0].label, 'Blog');
});

const guesses = [
  ['iPad (iPadOS 17, desktop-class Safari)', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15', 5, 'iPad'],
  ['iPad (old UA)', 'Mozilla/5.0 (iPad; CPU OS 12_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148', 5, 'iPad'],
  ['iPhone', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1', 5, 'iPhone'],
  ['Android phone', 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36', 5, 'Android phone'],
  ['Android tablet', 'Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 Chrome/120.0 Safari/537.36', 10, 'Android tablet'],
  ['Chrome on Linux', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36', 0, 'Chrome on Linux'],
  ['Headless Chrome on Linux', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0 Safari/537.36', 0, 'Chrome on Linux'],
  ['Firefox on Windows', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0', 0, 'Firefox on Windows'],
  ['Edge on Windows', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36 Edg/120.0', 0, 'Edge on Windows'],
  ['Safari on a Mac', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15', 0, 'Safari on Mac'],
  ['nothing known', '', 0, 'Browser'],
];
for (const [name, userAgent, maxTouchPoints, expected] of guesses) {
  test(`guess: ${name}`, () => assert.equal(guessDeviceName({ userAgent, maxTouchPoints }), expected));
}
