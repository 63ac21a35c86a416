// Live looks (Web/core/key-state.js, issue 23): the host's keyState messages, kept per key and laid over the
// configured look; the edit sheet's state command kept when a key is saved.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadJSON } from './support.js';
import {
  isCleared, KeyStates, liveButton, readKeyState, readLook, readStateCommand, stateCommandFields, withStateCommand,
} from '../core/key-state.js';

const fixture = loadJSON('Tests/Fixtures/messages/keyState.json');
const command = { kind: 'command', label: 'Mic', command: 'true', color: 'blue', stateCommand: { command: 'mic-state', every: 5 } };

test('the fixture keyState is read whole: every look field and the error', () => {
  const state = readKeyState(fixture);
  assert.deepEqual(state, {
    profile: 'Default', path: [], page: 0, index: 2, error: 'invalid JSON: {oops',
    look: { label: 'Muted', color: 'red', icon: { emoji: '🎙' }, badge: '3', state: 'on', value: 0.5 },
  });
});

test('a live look lies over the configured one; the marks come beside it', () => {
  const shown = liveButton(command, readKeyState(fixture));
  assert.equal(shown.button.label, 'Muted');
  assert.equal(shown.button.color, 'red');
  assert.deepEqual(shown.button.icon, { emoji: '🎙' });
  assert.equal(shown.button.command, 'true', 'the key is still the same key');
  assert.deepEqual(shown.button.stateCommand, command.stateCommand);
  assert.deepEqual([shown.badge, shown.state, shown.value, shown.error], ['3', 'on', 0.5, 'invalid JSON: {oops']);
  assert.deepEqual(command.label, 'Mic', 'the configured button is not changed');
});

test('fields a live look leaves out keep the configured look; no live look is the configured look', () => {
  const shown = liveButton(command, readKeyState({ ...fixture, look: { badge: 7 }, error: undefined }));
  assert.equal(shown.button.label, 'Mic');
  assert.equal(shown.button.color, 'blue');
  assert.equal(shown.badge, '7', 'a number badge is drawn as its digits');
  assert.deepEqual(liveButton(command, null), { button: command, badge: '', state: '', value: null, error: '' });
});

test('what the look rules refuse is left out, so the configured look shows there', () => {
  assert.deepEqual(readLook({ color: 'ultraviolet', icon: { emoji: 'ab' }, badge: 'toolong', state: 'maybe', value: 'x' }), {});
  assert.deepEqual(readLook({ icon: { image: 'a1b2.png' }, badge: '9+', value: 3 }), { badge: '9+', value: 1 });
  assert.deepEqual(readLook({ icon: { app: 'org.gnome.Nautilus.desktop' }, value: -1 }),
    { icon: { app: 'org.gnome.Nautilus.desktop' }, value: 0 });
  assert.deepEqual(readLook({ badge: '한국어' }), { badge: '한국어' }, 'four characters, not bytes');
  assert.equal(readKeyState({ type: 'keyState', profile: 'Default', page: 'x', index: 0, look: {} }), null);
});

test('an empty look without an error clears the key; an error alone still shows', () => {
  const states = new KeyStates();
  states.receive(fixture, command);
  assert.equal(states.get('Default', [], 0, 2).look.label, 'Muted');
  const cleared = states.receive({ ...fixture, look: {}, error: undefined });
  assert.ok(isCleared(cleared));
  assert.equal(states.get('Default', [], 0, 2), null);
  states.receive({ ...fixture, look: {} }, command);
  assert.deepEqual(states.get('Default', [], 0, 2), { look: {}, error: 'invalid JSON: {oops' });
});

test('the newest look of a key replaces the one before; keys in folders and profiles are apart', () => {
  const states = new KeyStates();
  states.receive({ ...fixture, look: { label: 'n1' } });
  states.receive({ ...fixture, look: { label: 'n2' }, error: undefined });
  states.receive({ ...fixture, path: [{ page: 0, index: 2 }], look: { label: 'inside' } });
  states.receive({ ...fixture, profile: 'Work', look: { label: 'work' } });
  assert.deepEqual(states.get('Default', [], 0, 2), { look: { label: 'n2' }, error: '' });
  assert.equal(states.get('Default', [{ page: 0, index: 2 }], 0, 2).look.label, 'inside');
  assert.equal(states.get('Work', [], 0, 2).look.label, 'work');
  assert.equal(states.size, 3);
});

test('a new layout keeps the live looks of keys still in their place, drops others and other profiles', () => {
  const states = new KeyStates();
  const other = { ...command, label: 'Other' };
  states.receive({ ...fixture, index: 1, look: { label: 'kept' } }, command);
  states.receive({ ...fixture, index: 2, look: { label: 'moved away' } }, command);
  states.receive({ ...fixture, index: 3, look: { label: 'before its layout' } }); // key not known yet
  states.receive({ ...fixture, profile: 'Work', look: { label: 'work' } });
  const layout = { 1: command, 2: other, 3: command };
  assert.equal(states.keepSame('Default', (path, page, index) => layout[index] ?? null), 2);
  assert.equal(states.get('Default', [], 0, 1).look.label, 'kept');
  assert.equal(states.get('Default', [], 0, 2), null, 'another key is there now');
  assert.equal(states.get('Default', [], 0, 3).look.label, 'before its layout', 'adopted by the key there');
  assert.equal(states.get('Work', [], 0, 2), null);
  layout[3] = other;
  states.keepSame('Default', (path, page, index) => layout[index] ?? null);
  assert.equal(states.get('Default', [], 0, 3), null, 'the key it was adopted by was replaced');
});

test('the edit sheet shows a key\'s state command and saving keeps it', () => {
  const fields = stateCommandFields(command);
  assert.deepEqual(fields, { command: 'mic-state', every: '5' });
  // What the sheet builds from its known fields, then the state command from its own fields.
  const built = { kind: 'command', label: 'Mic', command: 'true', color: 'blue' };
  assert.deepEqual(withStateCommand(built, fields), command);
  assert.deepEqual(withStateCommand(built, { command: 'watch-it', every: '' }),
    { ...built, stateCommand: { command: 'watch-it' } }, 'kept running: no every');
  assert.deepEqual(withStateCommand({ ...built, stateCommand: { command: 'old' } }, { command: ' ', every: '' }), built,
    'an emptied field removes it');
  assert.deepEqual(stateCommandFields({ kind: 'command' }), { command: '', every: '' });
});

test('a state command the host would refuse is said in the sheet', () => {
  assert.match(readStateCommand({ command: 'x', every: '0' }).problem, /1 second/);
  assert.match(readStateCommand({ command: 'x', every: '2.5' }).problem, /1 second/);
  assert.match(readStateCommand({ command: '', every: '3' }).problem, /state command/);
  assert.match(readStateCommand({ command: 'é'.repeat(2049), every: '' }).problem, /4096 bytes/);
  assert.deepEqual(readStateCommand({ command: 'x', every: '10' }), { stateCommand: { command: 'x', every: 10 } });
});
