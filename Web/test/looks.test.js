// What the deck draws from a key's looks (Web/core/looks.js); the rules themselves run in rules.test.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emojiProblem, iconApp, keyColor, keyIcon, lookFields, showsLabel } from '../core/looks.js';

const catalogue = { 'org.gnome.Nautilus.desktop': 'data:image/png;base64,AAA=' };
const iconFor = (id) => catalogue[id] ?? null;

test('an emoji icon is drawn as itself, before any app picture', () => {
  assert.deepEqual(keyIcon({ kind: 'app', appId: 'org.gnome.Nautilus.desktop', icon: { emoji: '🎵' } }, iconFor), { emoji: '🎵' });
});

test("an app icon on any kind takes the catalogue's picture; an app key without one shows its own app", () => {
  assert.deepEqual(keyIcon({ kind: 'hotkey', icon: { app: 'org.gnome.Nautilus.desktop' } }, iconFor), { src: catalogue['org.gnome.Nautilus.desktop'] });
  assert.deepEqual(keyIcon({ kind: 'app', appId: 'org.gnome.Nautilus.desktop' }, iconFor), { src: catalogue['org.gnome.Nautilus.desktop'] });
  assert.equal(keyIcon({ kind: 'command', icon: { app: 'missing.desktop' } }, iconFor), null, 'not in the catalogue (yet): no icon');
  assert.equal(keyIcon({ kind: 'command' }, iconFor), null);
});

test('the catalogue is needed for app keys and app icons only', () => {
  assert.equal(iconApp({ kind: 'command', icon: { app: 'a.desktop' } }), 'a.desktop');
  assert.equal(iconApp({ kind: 'app', appId: 'b.desktop' }), 'b.desktop');
  assert.equal(iconApp({ kind: 'command', icon: { emoji: '★' } }), null);
});

test('a hidden label is hidden only when an icon stands in for it, so no key is blank', () => {
  assert.equal(showsLabel({ hideLabel: true }, true), false);
  assert.equal(showsLabel({ hideLabel: true }, false), true);
  assert.equal(showsLabel({}, true), true);
});

test("a colour outside this client's palette paints the kind's colour", () => {
  assert.equal(keyColor({ color: 'teal' }), 'teal');
  assert.equal(keyColor({ color: 'ultraviolet' }), '');
  assert.equal(keyColor({}), '');
});

test('the editor keeps the looks it was given', () => {
  assert.deepEqual(lookFields({ kind: 'command', color: 'red', icon: { emoji: '🔥' }, hideLabel: true }),
    { color: 'red', icon: { emoji: '🔥' }, hideLabel: true });
  assert.deepEqual(lookFields({ kind: 'command', hideLabel: false }), {});
});

test("an emoji's problem is said in the host's words", () => {
  assert.equal(emojiProblem('😀'.repeat(200)), 'an emoji icon is one character, not 200');
  assert.equal(emojiProblem(''), 'an emoji icon is one character, not 0');
  assert.equal(emojiProblem(' '), 'an emoji icon must be a visible character');
  assert.equal(emojiProblem('👨‍👩‍👧‍👦'), '');
});
