// Asking the computer to paste (core/clipboard.js) against Tests/Fixtures/rules/clipboard-asking.json.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeBase64 } from '../core/base64.js';
import { pasteMessage, pasteRefusal } from '../core/clipboard.js';
import { loadJSON } from './support.js';

const rules = loadJSON('Tests/Fixtures/rules/clipboard-asking.json');

test('asking sends the fixture clipboardSet{ask:true}; an ordinary paste has no ask', () => {
  const text = new TextDecoder().decode(decodeBase64(rules.ask.data));
  assert.deepEqual(pasteMessage({ kind: 'text', text }, { paste: false, ask: true }).message, rules.ask);
  assert.equal('ask' in pasteMessage({ kind: 'text', text }).message, false);
});

test('the notAllowed refusal offers to ask; each answer says what became of the question', () => {
  const first = pasteRefusal(rules.refused);
  assert.equal(first.mayAsk, true);
  assert.equal(first.title, 'Not allowed to paste');
  assert.match(first.body, /touchdeck devices allow-clipboard "Asking tablet" on/);
  assert.equal(pasteRefusal(rules.answers.deny).title, 'The computer said no');
  assert.equal(pasteRefusal(rules.answers.deny).mayAsk, true);
  assert.equal(pasteRefusal(rules.answers.timeout).title, 'Nobody answered');
  assert.equal(pasteRefusal(rules.answers.unavailable).mayAsk, false, 'no buttons: only the command');
  assert.equal(pasteRefusal(rules.answers.once), null);
  assert.equal(pasteRefusal(rules.answers.always), null);
  assert.equal(pasteRefusal({ type: 'clipboardResult', ok: false, reason: 'the text is not valid UTF-8' }), null);
});
