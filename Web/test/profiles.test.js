// Profiles (PROTOCOL §6 "Profiles"): the messages this client sends have the fixtures' shapes, and the host's
// `profiles` fixture reads as the header shows it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  addProfile, appsRequest, followProfile, importProfile, MAX_PROFILE_FILE_BYTES, NO_PROFILES, readProfiles,
  switchProfile,
} from '../core/profiles.js';
import { defaultLabel, isKnownKind } from '../core/key-kinds.js';
import { loadJSON } from './support.js';

const fixture = (type) => loadJSON(`Tests/Fixtures/messages/${type}.json`);

test('switchProfile, followProfile, addProfile and importProfile are the fixtures', () => {
  assert.deepEqual(switchProfile('Phone'), fixture('switchProfile'));
  assert.deepEqual(followProfile(false), fixture('followProfile'));
  assert.deepEqual(addProfile('Streaming'), fixture('addProfile'));
  assert.deepEqual(importProfile(fixture('importProfile').file).message, fixture('importProfile'));
});

test('a file past the host cap is not sent', () => {
  assert.match(importProfile('{}', MAX_PROFILE_FILE_BYTES + 1).problem, /larger than 2 MiB/);
  assert.ok(importProfile('{}', MAX_PROFILE_FILE_BYTES).message);
});

test('the profiles fixture reads as sent; a missing or broken one is no profiles', () => {
  assert.deepEqual(readProfiles(fixture('profiles')), {
    names: ['Default', 'Phone', 'Phone (2)'], current: 'Default', shown: 'Phone', follows: false,
    apps: { 'Phone (2)': ['org.gnome.TextEditor.desktop', 'gedit'] }, focusProfile: 'Phone (2)',
  });
  assert.deepEqual(readProfiles({ names: ['A'], apps: { Gone: ['x'], A: ['y', 3] }, focusProfile: 'Gone' }).apps,
    { A: ['y'] });
  assert.equal(readProfiles(undefined), NO_PROFILES);
  assert.equal(readProfiles({ names: 'Default' }), NO_PROFILES);
  assert.equal(readProfiles({ names: ['A', 'B'], shown: 'Gone', current: 'B' }).shown, 'A');
});

test('the profile key of the importProfile fixture is a kind this client knows, named after its profile', () => {
  const key = JSON.parse(fixture('importProfile').file).layout.pages[0][0];
  assert.ok(isKnownKind(key.kind));
  assert.equal(defaultLabel({ ...key, label: '' }), 'Default');
});

test('the apps typed for a profile become the setProfileApps fixture; repeats, cancel and no change send nothing', () => {
  const { message } = appsRequest('Phone (2)', [], ' org.gnome.TextEditor.desktop, gedit GEDIT ');
  assert.deepEqual(message, fixture('setProfileApps'));
  assert.deepEqual(appsRequest('Phone', ['gedit'], null), {});
  assert.deepEqual(appsRequest('Phone', ['gedit'], 'gedit'), {});
  assert.deepEqual(appsRequest('Phone', ['gedit'], '').message, { type: 'setProfileApps', name: 'Phone', apps: [] });
  assert.match(appsRequest('Phone', [], Array.from({ length: 17 }, (_, i) => `app${i}`).join(' ')).problem, /at most 16/);
  assert.match(appsRequest('Phone', [], 'x'.repeat(129)).problem, /at most 128 characters/);
});
