// The multi-action and toggle rules the editor shares with DeckKit's CompoundRule, run against the same fixture
// file as the Swift tests (Tests/Fixtures/rules/compound-keys.json), and the editor's step helpers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { applyEdit, LayoutError } from '../core/layout.js';
import {
  compoundProblem, DELAY_MAX_MS, DELAY_MIN_MS, isToggleOn, MAX_STEPS, moveStep, parseChord, stepSummary, toggleLabel,
} from '../core/compound-keys.js';
import { isKnownKind, shownLabel } from '../core/key-kinds.js';

const fixture = JSON.parse(readFileSync(new URL('../../Tests/Fixtures/rules/compound-keys.json', import.meta.url)));

for (const c of fixture.cases) {
  test(`compound keys: ${c.name}`, () => {
    if (c.error) {
      const before = JSON.stringify(c.start);
      assert.throws(() => applyEdit(c.start, c.edit), (e) => e instanceof LayoutError && e.code === c.error);
      assert.equal(JSON.stringify(c.start), before, 'a refused edit changes nothing');
    } else {
      assert.deepEqual(applyEdit(c.start, c.edit), c.expect);
    }
  });
}

test('the limits are the host\'s', () => {
  assert.equal(MAX_STEPS, 16);
  assert.deepEqual([DELAY_MIN_MS, DELAY_MAX_MS], [10, 10000]);
  const steps = (n) => ({ kind: 'multi', label: 'M', steps: Array(n).fill({ kind: 'delay', ms: 10 }) });
  const none = () => '';
  assert.equal(compoundProblem(steps(16), none, (t) => t.length), '');
  assert.equal(compoundProblem(steps(17), none, (t) => t.length), 'stepCount');
  assert.equal(compoundProblem({ kind: 'multi', steps: [{ kind: 'delay', ms: 10.5 }] }, none, (t) => t.length), 'delayOutOfRange');
});

test('the wire example shows a toggle in its state and both kinds are known', () => {
  const [multi, , , toggle] = fixture.wire.pages[0];
  assert.ok(isKnownKind('multi') && isKnownKind('toggle'));
  assert.ok(isToggleOn(toggle));
  assert.equal(toggleLabel(toggle), 'Mic on');
  assert.equal(shownLabel(toggle), 'Mic on');
  assert.equal(toggleLabel({ ...toggle, state: 'off' }), 'Mic off');
  assert.equal(toggleLabel({ ...toggle, state: 'off', offLabel: '' }), 'Mic');
  assert.deepEqual(multi.steps.map(stepSummary), ['Ctrl+Shift+T', 'Wait 250 ms', 'Type “ls” ⏎', 'Open https://example.org/']);
});

test('a chord written as a person reads it', () => {
  assert.deepEqual(parseChord('Ctrl+Shift+T'), { key: 't', modifiers: ['ctrl', 'shift'] });
  assert.deepEqual(parseChord('shift + ctrl + t'), { key: 't', modifiers: ['ctrl', 'shift'] });
  assert.deepEqual(parseChord('Page Up'), { key: 'pageUp', modifiers: [] });
  assert.deepEqual(parseChord('Super+F5'), { key: 'f5', modifiers: ['super'] });
  assert.deepEqual(parseChord('playPause'), { key: 'playPause', modifiers: [] });
  for (const bad of ['', 'Ctrl+', 'Ctrl+Ctrl+T', 'Hyper+T', 'Ctrl+TT']) assert.equal(parseChord(bad), null, bad);
});

test('a step moves one place, never off the list', () => {
  assert.deepEqual(moveStep(['a', 'b', 'c'], 2, -1), ['a', 'c', 'b']);
  assert.deepEqual(moveStep(['a', 'b', 'c'], 0, 1), ['b', 'a', 'c']);
  assert.deepEqual(moveStep(['a', 'b'], 0, -1), ['a', 'b']);
  assert.deepEqual(moveStep(['a', 'b'], 1, 1), ['a', 'b']);
});
