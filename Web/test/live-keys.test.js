import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chordMessage, keyMessage, liveInput, liveKeydown, liveText } from '../core/live-keys.js';

const key = (k, extra = {}) => ({ key: k, code: '', ctrlKey: false, altKey: false, shiftKey: false, metaKey: false,
  isComposing: false, ...extra });
const type = (text) => ({ type: 'typeText', text, enter: false });

test('a plain character is left to the field, which types it as text', () => {
  assert.equal(liveKeydown(key('s')), null);
  assert.equal(liveKeydown(key('S', { shiftKey: true })), null, 'Shift alone makes a capital, not a chord');
  assert.deepEqual(liveInput({ inputType: 'insertText', data: 's' }), [type('s')]);
  assert.deepEqual(liveInput({ inputType: 'insertText', data: '한' }), [type('한')]);
});

test('with a sticky modifier held, a character is a chord of its key', () => {
  assert.deepEqual(liveKeydown(key('s'), ['ctrl']), { type: 'pressKey', key: 's', modifiers: ['ctrl'] });
  assert.deepEqual(liveInput({ inputType: 'insertText', data: 's' }, ['ctrl']),
    [{ type: 'pressKey', key: 's', modifiers: ['ctrl'] }]);
  assert.deepEqual(liveKeydown(key('T'), ['shift', 'ctrl']),
    { type: 'pressKey', key: 't', modifiers: ['ctrl', 'shift'] }, 'Shift is a modifier: the key is t');
  assert.deepEqual(liveKeydown(key(' '), ['alt']), { type: 'pressKey', key: 'space', modifiers: ['alt'] });
  // Only the first character of a longer edit (a word the system keyboard put in) is the chord.
  assert.deepEqual(liveInput({ inputType: 'insertText', data: 'sx' }, ['ctrl']),
    [{ type: 'pressKey', key: 's', modifiers: ['ctrl'] }, type('x')]);
});

test('a hardware keyboard\'s Ctrl, Alt and Meta go through as modifiers', () => {
  assert.deepEqual(liveKeydown(key('s', { ctrlKey: true })), { type: 'pressKey', key: 's', modifiers: ['ctrl'] });
  assert.deepEqual(liveKeydown(key('T', { ctrlKey: true, shiftKey: true })),
    { type: 'pressKey', key: 't', modifiers: ['ctrl', 'shift'] });
  assert.deepEqual(liveKeydown(key('Tab', { altKey: true })), { type: 'pressKey', key: 'tab', modifiers: ['alt'] });
  assert.deepEqual(liveKeydown(key('e', { metaKey: true })), { type: 'pressKey', key: 'e', modifiers: ['super'] });
  assert.deepEqual(liveKeydown(key('ß', { altKey: true, code: 'KeyS' })),
    { type: 'pressKey', key: 's', modifiers: ['alt'] }, 'Option+S on a Mac keyboard means Alt+S');
  assert.deepEqual(liveKeydown(key('s', { ctrlKey: true }), ['ctrl']),
    { type: 'pressKey', key: 's', modifiers: ['ctrl'] }, 'each modifier once');
});

test('named keys are pressKey, with the modifiers held', () => {
  const cases = [['Backspace', 'backspace'], ['Enter', 'return'], ['Tab', 'tab'], ['Escape', 'esc'],
    ['ArrowUp', 'up'], ['ArrowDown', 'down'], ['ArrowLeft', 'left'], ['ArrowRight', 'right'], ['Delete', 'delete'],
    ['Insert', 'insert'], ['Home', 'home'], ['End', 'end'], ['PageUp', 'pageUp'], ['PageDown', 'pageDown'],
    ['F1', 'f1'], ['F5', 'f5'], ['F12', 'f12']];
  for (const [name, wire] of cases) assert.deepEqual(liveKeydown(key(name)), { type: 'pressKey', key: wire }, name);
  assert.deepEqual(liveKeydown(key('Tab', { shiftKey: true })), { type: 'pressKey', key: 'tab', modifiers: ['shift'] });
  assert.deepEqual(liveKeydown(key('F4'), ['alt']), { type: 'pressKey', key: 'f4', modifiers: ['alt'] });
});

test('the system keyboard\'s Backspace and Return arrive as edits and are their keys', () => {
  assert.deepEqual(liveInput({ inputType: 'deleteContentBackward', data: null }), [keyMessage('backspace')]);
  assert.deepEqual(liveInput({ inputType: 'deleteContentForward', data: null }), [keyMessage('delete')]);
  assert.deepEqual(liveInput({ inputType: 'insertLineBreak', data: null }), [keyMessage('return')]);
  assert.deepEqual(liveInput({ inputType: 'insertParagraph', data: null }, ['ctrl']),
    [{ type: 'pressKey', key: 'return', modifiers: ['ctrl'] }]);
  assert.deepEqual(liveInput({ inputType: 'insertFromPaste', data: 'a\nb' }), [type('a b')]);
  assert.deepEqual(liveInput({ inputType: 'deleteWordBackward', data: null }), []);
  assert.deepEqual(liveInput({ inputType: 'insertText', data: '' }), []);
});

test('keys the field or an input method must handle send nothing', () => {
  for (const name of ['Shift', 'Control', 'Alt', 'Meta', 'CapsLock', 'Process', 'Unidentified', 'Dead']) {
    assert.equal(liveKeydown(key(name, { ctrlKey: name === 'Control' })), null, name);
  }
  assert.equal(liveKeydown(key('Backspace', { isComposing: true })), null, 'Hangul composing: the IME takes it');
  assert.deepEqual(liveInput({ inputType: 'insertCompositionText', data: '아' }), [], 'still composing');
  assert.deepEqual(liveInput({ inputType: 'insertFromComposition', data: '안녕' }), [], 'sent at compositionend');
  assert.deepEqual(liveText('안녕'), [type('안녕')], 'a finished composition is typed as text');
});

test('a chord needs one printable character', () => {
  assert.equal(chordMessage('\u0007', ['ctrl']), null);
  assert.equal(chordMessage('ab', ['ctrl']), null);
  assert.deepEqual(liveText('👍🏽', ['ctrl']), [type('👍🏽')], 'no chord of half an emoji: typed as text');
});
