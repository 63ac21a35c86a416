// Deleting and renaming a profile from the header (issue 22, PROTOCOL §6 "Profiles"): the messages have the
// fixtures' shapes, and what the picker's Rename and Delete buttons send or say follows the host's rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deleteProblem, deleteProfile, renameProfile, renameRequest } from '../core/profiles.js';
import { loadJSON } from './support.js';

const fixture = (type) => loadJSON(`Tests/Fixtures/messages/${type}.json`);
const NAMES = ['Default', 'Streaming', 'Phone'];

test('deleteProfile and renameProfile are the fixtures', () => {
  assert.deepEqual(deleteProfile('Streaming'), fixture('deleteProfile'));
  assert.deepEqual(renameProfile('Streaming', 'Stream'), fixture('renameProfile'));
});

test('a rename sends the cleaned name, or says why not, or sends nothing', () => {
  assert.deepEqual(renameRequest(NAMES, 'Streaming', '  Stream \u202E'), { message: fixture('renameProfile') });
  assert.deepEqual(renameRequest(NAMES, 'Streaming', 'STREAMING'), {
    message: { type: 'renameProfile', name: 'Streaming', newName: 'STREAMING' },
  }, 'a profile may change its own case');
  assert.deepEqual(renameRequest(NAMES, 'Streaming', 'phone'), { problem: 'A profile is already called “Phone”.' });
  assert.deepEqual(renameRequest(NAMES, 'Streaming', ' \u202E '), { problem: 'A profile’s name needs a visible character.' });
  assert.deepEqual(renameRequest(NAMES, 'Streaming', null), {}, 'cancelled');
  assert.deepEqual(renameRequest(NAMES, 'Streaming', 'Streaming '), {}, 'the same name');
});

test('the last profile cannot be deleted', () => {
  assert.equal(deleteProblem(NAMES, 'Phone'), '');
  assert.equal(deleteProblem(['Default'], 'Default'), 'The last profile cannot be deleted.');
});
