// Hotkey keys: the chord a hardware key press records, and how a chord reads (Web/core/hotkeys.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { chordFromEvent, chordLabel, chordProblem, isValidChord, KEY_GROUPS, keyName } from '../core/hotkeys.js';

const press = (key, code, held = {}) => ({ key, code, ctrlKey: false, altKey: false, shiftKey: false, metaKey: false, ...held });

test('Ctrl+Shift+T records the letter t with both modifiers, in wire order', () => {
  assert.deepEqual(chordFromEvent(press('T', 'KeyT', { shiftKey: true, ctrlKey: true })), { key: 't', modifiers: ['ctrl', 'shift'] });
});

test('a lone modifier press is no chord yet', () => {
  for (const [key, code] of [['Control', 'ControlLeft'], ['Shift', 'ShiftRight'], ['Alt', 'AltLeft'], ['Meta', 'MetaLeft'],
    ['AltGraph', 'AltRight'], ['CapsLock', 'CapsLock']]) {
    assert.equal(chordFromEvent(press(key, code, { ctrlKey: true, shiftKey: true })), null, key);
  }
});

test('named keys map to our names: F1–F24, arrows, paging, editing keys', () => {
  const cases = [['F1', 'F1', 'f1'], ['F13', 'F13', 'f13'], ['F24', 'F24', 'f24'], ['ArrowUp', 'ArrowUp', 'up'],
    ['ArrowLeft', 'ArrowLeft', 'left'], ['PageDown', 'PageDown', 'pageDown'], ['Escape', 'Escape', 'esc'],
    ['Enter', 'Enter', 'return'], ['Enter', 'NumpadEnter', 'return'], [' ', 'Space', 'space'], ['Tab', 'Tab', 'tab'],
    ['Backspace', 'Backspace', 'backspace'], ['Delete', 'Delete', 'delete'], ['Insert', 'Insert', 'insert'],
    ['Home', 'Home', 'home'], ['End', 'End', 'end'], ['PrintScreen', 'PrintScreen', 'print']];
  for (const [key, code, name] of cases) assert.equal(chordFromEvent(press(key, code)).key, name, `${key}/${code}`);
});

test('media, volume and brightness keys map to our names', () => {
  const cases = [['MediaPlayPause', 'playPause'], ['MediaTrackNext', 'nextTrack'], ['MediaTrackPrevious', 'previousTrack'],
    ['MediaStop', 'stopMedia'], ['AudioVolumeMute', 'mute'], ['AudioVolumeDown', 'volumeDown'], ['AudioVolumeUp', 'volumeUp'],
    ['BrightnessUp', 'brightnessUp'], ['BrightnessDown', 'brightnessDown']];
  for (const [key, name] of cases) assert.deepEqual(chordFromEvent(press(key, '')), { key: name, modifiers: [] }, key);
  // Some keyboards leave `key` unidentified; the physical code still names the key.
  assert.equal(chordFromEvent(press('Unidentified', 'AudioVolumeUp')).key, 'volumeUp');
  assert.equal(chordFromEvent(press('Unidentified', 'MediaPlayPause')).key, 'playPause');
});

test('letters follow the layout; Alt and Shift symbols fall back to the physical letter or digit', () => {
  // A German keyboard: the key labelled Z is at the US Y position; Ctrl+Z means z.
  assert.deepEqual(chordFromEvent(press('z', 'KeyY', { ctrlKey: true })), { key: 'z', modifiers: ['ctrl'] });
  // Option+W on a Mac-style keyboard types ∑: the chord is Alt+W.
  assert.deepEqual(chordFromEvent(press('∑', 'KeyW', { altKey: true })), { key: 'w', modifiers: ['alt'] });
  assert.deepEqual(chordFromEvent(press('!', 'Digit1', { shiftKey: true, ctrlKey: true })), { key: '1', modifiers: ['ctrl', 'shift'] });
  assert.deepEqual(chordFromEvent(press('/', 'Slash', { ctrlKey: true })), { key: '/', modifiers: ['ctrl'] });
  assert.deepEqual(chordFromEvent(press('é', 'Digit2')), { key: 'é', modifiers: [] });
});

test('Meta (⌘, the Windows key) is Super', () => {
  assert.deepEqual(chordFromEvent(press('l', 'KeyL', { metaKey: true })), { key: 'l', modifiers: ['super'] });
});

test('a key with no name of ours is no chord', () => {
  assert.equal(chordFromEvent(press('Unidentified', 'Lang1')), null);
  assert.equal(chordFromEvent(press('Dead', 'BracketLeft')), null);
  assert.equal(chordFromEvent(press('F25', 'F25')), null);
});

test('chords read as people write them', () => {
  assert.equal(chordLabel({ key: 't', modifiers: ['shift', 'ctrl'] }), 'Ctrl+Shift+T');
  assert.equal(chordLabel({ key: 'playPause' }), 'Play/Pause');
  assert.equal(chordLabel({ key: 'f13', modifiers: ['super'] }), 'Super+F13');
  assert.equal(chordLabel({ key: 'pageUp', modifiers: ['alt'] }), 'Alt+Page Up');
  assert.equal(chordLabel({ key: '/', modifiers: ['ctrl'] }), 'Ctrl+/');
  assert.equal(keyName('volumeUp'), 'Volume Up');
});

test('the editor lists every named key the host takes, each once', () => {
  const names = KEY_GROUPS.flatMap(([, keys]) => keys.map(([name]) => name));
  const host = ['esc', 'tab', 'up', 'down', 'left', 'right', 'backspace', 'return', 'delete', 'insert', 'home', 'end',
    'pageUp', 'pageDown', 'space', ...Array.from({ length: 24 }, (_, n) => `f${n + 1}`), 'print', 'playPause',
    'nextTrack', 'previousTrack', 'stopMedia', 'mute', 'volumeDown', 'volumeUp', 'brightnessUp', 'brightnessDown'];
  assert.deepEqual([...names].sort(), [...host].sort());
});

test('a valid chord is a named key or one printable character, each modifier once', () => {
  assert.ok(isValidChord({ key: 'z', modifiers: ['ctrl'] }));
  assert.ok(isValidChord({ key: 'f24', modifiers: [] }));
  assert.ok(isValidChord({ key: 'é' }));
  assert.ok(!isValidChord({ key: '', modifiers: ['ctrl'] }));
  assert.ok(!isValidChord({ key: 'ab' }));
  assert.ok(!isValidChord({ key: ' ' }), 'a space is the named key space');
  assert.ok(!isValidChord({ key: '\u0007' }));
  assert.ok(!isValidChord({ key: 'z', modifiers: ['ctrl', 'ctrl'] }));
  assert.ok(!isValidChord({ key: 'z', modifiers: ['hyper'] }));
});

// The chord table DeckKit's KeyChordTests and the Python client read too: the same chords taken, the same refused
// for the same reason.
const chords = JSON.parse(readFileSync(new URL('../../Tests/Fixtures/rules/chords.json', import.meta.url)));
for (const c of chords.chords) {
  test(`chords: ${c.name}`, () => {
    const chord = { key: c.key, ...(c.modifiers === undefined ? {} : { modifiers: c.modifiers }) };
    assert.equal(chordProblem(chord), c.problem ?? null);
    assert.equal(isValidChord(chord), c.problem === undefined);
  });
}

test('chords: the table names every problem there is', () => {
  assert.deepEqual(new Set(chords.chords.map((c) => c.problem).filter(Boolean)), new Set(Object.keys(chords.reasons)));
});
