// PROTOCOL §6 "Who may edit": the device learns its edit permission from a refusal or from `editPermission`,
// remembers it per device, counts unknown as allowed, and words the notice from the host's message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EDIT_REQUESTS, EditPermission, editNotice, isEditRefusal } from '../core/edit-permission.js';
import { addLogSink } from '../core/log.js';
import { readyClient } from './sealed-client.js';

addLogSink(() => {});

const HOST_MESSAGE = 'This device may not change the deck. On the computer, run: touchdeck devices allow-edit "iPad 2" on';

function memory() {
  const map = new Map();
  return { map, getItem: (k) => map.get(k) ?? null, setItem: (k, v) => map.set(k, String(v)), removeItem: (k) => map.delete(k) };
}

test('unknown is allowed; a refusal or editPermission{false} denies; editPermission{true} allows again', () => {
  const permission = new EditPermission(memory());
  assert.deepEqual(permission.read('dev-1'), { allowed: true, message: '' });
  assert.equal(permission.learn('dev-1', { allowed: false, message: HOST_MESSAGE }), true);
  assert.deepEqual(permission.read('dev-1'), { allowed: false, message: HOST_MESSAGE });
  assert.equal(permission.learn('dev-1', { allowed: false }), false, 'no change');
  assert.equal(permission.read('dev-1').message, HOST_MESSAGE, 'the host message outlives editPermission{false}');
  assert.equal(permission.learn('dev-1', { allowed: true }), true);
  assert.equal(permission.allowed('dev-1'), true);
});

test('remembered across a reload, for that device only; forgotten when the device pairs again', () => {
  const storage = memory();
  new EditPermission(storage).learn('dev-1', { allowed: false, message: HOST_MESSAGE });
  const again = new EditPermission(storage);
  assert.equal(again.allowed('dev-1'), false);
  assert.equal(again.allowed('dev-2'), true, 'another device id (paired anew) is unknown');
  assert.equal(again.allowed(null), true, 'not paired: unknown');
  again.forget();
  assert.equal(again.allowed('dev-1'), true);
  storage.setItem('touchdeck.editPermission', '{not json');
  assert.equal(again.allowed('dev-1'), true, 'a damaged record counts as unknown');
});

test('an edit refusal is notAllowed answering setButton, clearButton or moveButton', () => {
  for (const request of EDIT_REQUESTS) assert.equal(isEditRefusal({ code: 'notAllowed', request, message: 'x' }), true);
  assert.equal(isEditRefusal({ code: 'notAllowed', request: 'startScreen' }), false);
  assert.equal(isEditRefusal({ code: 'badMessage', request: 'setButton' }), false);
  assert.equal(isEditRefusal({ code: 'notAllowed', message: HOST_MESSAGE }), true, 'an older host without request');
  assert.equal(isEditRefusal({ code: 'notAllowed', message: 'no' }), false);
});

test('the notice names the command from the host message, else the device name; other words shown whole', () => {
  assert.deepEqual(editNotice(HOST_MESSAGE, 'iPad'), { lead: 'This device can only press keys.',
    action: 'To change the deck, run on the computer:', command: 'touchdeck devices allow-edit "iPad 2" on' });
  assert.equal(editNotice('', 'Kid\'s "phone"').command, 'touchdeck devices allow-edit "Kid\'s \\"phone\\"" on');
  assert.equal(editNotice(null, '').command, 'touchdeck devices allow-edit "NAME" on');
  assert.deepEqual(editNotice('Ask the owner.', 'x'), { lead: 'This device can only press keys.',
    action: 'Ask the owner.', command: '' });
});

test('through the client: the sealed refusal is a hostError an edit lock can take, so no toast follows', async () => {
  const { client, deliver } = await readyClient();
  const unhandled = [];
  client.addEventListener('unhandledError', ({ detail }) => unhandled.push(detail));
  client.addEventListener('hostError', (event) => { if (isEditRefusal(event.detail)) event.preventDefault(); });
  const permissions = [];
  client.addEventListener('editPermission', ({ detail }) => permissions.push(detail.allowed));
  deliver({ type: 'error', code: 'notAllowed', request: 'setButton', message: HOST_MESSAGE });
  deliver({ type: 'editPermission', allowed: true });
  deliver({ type: 'error', code: 'notAllowed', request: 'startRecording', message: 'no' });
  assert.deepEqual(permissions, [true]);
  assert.deepEqual(unhandled.map((e) => e.request), ['startRecording']);
});
