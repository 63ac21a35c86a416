// Issue 19 point 1: every `error` the host sends after pairing reaches the place waiting for its answer (the
// Screen tab's list or start, a recording's fetch), routed by `error.request`; errors nobody waits for become
// `unhandledError` (the UI's toast). Through the real DeckClient, sealed as the host sends them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { ViewerCore } from '../core/viewer.js';
import { FetchError, RecordingFetcher } from '../core/recording.js';
import { answers, describeError, sentence } from '../core/errors.js';
import { encodeBase64 } from '../core/base64.js';
import { addLogSink } from '../core/log.js';
import { readyClient } from './sealed-client.js';

addLogSink(() => {});

const sha256 = async (bytes) => new Uint8Array(createHash('sha256').update(bytes).digest());

function collect(client, type) {
  const seen = [];
  client.addEventListener(type, ({ detail }) => seen.push(detail));
  return seen;
}

async function viewerOn() {
  const c = await readyClient();
  const shown = [];
  const viewer = new ViewerCore({ client: c.client, perform: (a) => a.type === 'show' && shown.push(a.state),
    onVideo: () => {}, timers: { setTimeout: () => 0, clearTimeout: () => {} } });
  return { ...c, viewer, shown };
}

const TWO = [{ id: 1, name: 'A', width: 800, height: 600 }, { id: 2, name: 'B', width: 800, height: 600 }];

test('a sealed error is a hostError (as a plain one is), and one nobody takes is an unhandledError', async () => {
  const { client, deliver, deliverPlain } = await readyClient();
  const errors = collect(client, 'hostError');
  const unhandled = collect(client, 'unhandledError');
  const stray = collect(client, 'error');
  deliver({ type: 'error', code: 'unavailable', message: 'no sound server', request: 'setVolume' });
  deliverPlain({ type: 'error', code: 'badMessage', message: 'too many messages' });
  assert.deepEqual(errors.map((e) => e.code), ['unavailable', 'badMessage']);
  assert.deepEqual(unhandled.map((e) => e.code), ['unavailable', 'badMessage']);
  assert.equal(stray.length, 0, 'no event named "error" (the UI never listened to it)');
});

test('a start refused with an error ends "Starting…" with the reason; Try again starts again', async () => {
  const { client, deliver, viewer, shown, sent } = await viewerOn();
  const unhandled = collect(client, 'unhandledError');
  viewer.event('open');
  deliver({ type: 'displays', status: 'ok', displays: TWO });
  viewer.event('choose', { displayId: 2 });
  assert.equal(viewer.state, 'starting');
  deliver({ type: 'error', code: 'badMessage', message: 'no display has id 2 (ids: 7, 8)', request: 'startScreen' });
  assert.equal(viewer.state, 'failed');
  assert.equal(viewer.session.error.message, 'no display has id 2 (ids: 7, 8)');
  assert.equal(unhandled.length, 0, 'shown in the tab, not also as a toast');
  viewer.event('retry');
  assert.equal(viewer.state, 'starting');
  assert.deepEqual(sent().filter((m) => m.type === 'startScreen').map((m) => m.displayId), [2, 2]);
  assert.deepEqual(shown, ['listing', 'choosing', 'starting', 'failed', 'starting']);
});

test('Monitors works while a start hangs, and a failed list is shown and listed again on retry', async () => {
  const { deliver, viewer, sent } = await viewerOn();
  viewer.event('open');
  deliver({ type: 'displays', status: 'ok', displays: TWO });
  viewer.event('choose', { displayId: 1 });
  viewer.event('list'); // the toolbar's Monitors while "Starting…" never ends
  assert.equal(viewer.state, 'listing');
  assert.deepEqual(sent().map((m) => m.type), ['listDisplays', 'startScreen', 'stopScreen', 'listDisplays']);
  deliver({ type: 'error', code: 'unavailable', message: 'the desktop session ended', request: 'listDisplays' });
  assert.equal(viewer.state, 'failed');
  viewer.event('retry');
  assert.equal(viewer.state, 'listing');
  assert.equal(sent().at(-1).type, 'listDisplays');
});

test('errors for other requests are left to others; an error to stopScreen shows nothing', async () => {
  const { client, deliver, viewer } = await viewerOn();
  const unhandled = collect(client, 'unhandledError');
  viewer.event('open');
  deliver({ type: 'error', code: 'unavailable', message: 'no sound server', request: 'setVolume' });
  assert.equal(viewer.state, 'listing');
  assert.equal(unhandled.length, 1);
  viewer.event('close');
  deliver({ type: 'error', code: 'unavailable', message: 'not viewing', request: 'stopScreen' });
  assert.equal(unhandled.length, 1);
  assert.equal(viewer.state, 'off');
});

test('without `request` (an older host) an error while the start is awaited is still its answer', async () => {
  const { deliver, viewer } = await viewerOn();
  viewer.event('open');
  deliver({ type: 'displays', status: 'ok', displays: TWO });
  viewer.event('choose', { displayId: 1 });
  deliver({ type: 'error', code: 'badMessage', message: 'no display has id 1 (ids: 3)' });
  assert.equal(viewer.state, 'failed');
});

test('screenPermission: allowed lists at once after a refusal, a refusal shows the denial at once', async () => {
  const { deliver, viewer, sent } = await viewerOn();
  viewer.event('open');
  deliver({ type: 'displays', status: 'notAllowed', displays: [] });
  assert.equal(viewer.state, 'denied');
  deliver({ type: 'screenPermission', allowed: true });
  assert.equal(viewer.state, 'listing');
  assert.equal(sent().at(-1).type, 'listDisplays');
  deliver({ type: 'displays', status: 'ok', displays: TWO });
  assert.equal(viewer.state, 'choosing');
  deliver({ type: 'screenPermission', allowed: false });
  assert.deepEqual([viewer.state, viewer.session.reason], ['denied', 'notAllowed']);
});

test('a Get of a file deleted on the computer ends with the reason, and the next Get runs', async () => {
  const { client, deliver, sent } = await readyClient();
  const unhandled = collect(client, 'unhandledError');
  const fetcher = new RecordingFetcher(client, { sha256 });
  const gone = fetcher.fetch('gone.mp4');
  const next = fetcher.fetch('b.mp4');
  await new Promise((r) => setImmediate(r));
  deliver({ type: 'error', code: 'badMessage', message: 'no such recording', request: 'fetchRecording' });
  await assert.rejects(gone, (e) => e instanceof FetchError && e.code === 'badMessage');
  assert.equal(unhandled.length, 0);
  await new Promise((r) => setImmediate(r));
  const bytes = new Uint8Array([1, 2, 3]);
  const digest = Buffer.from(await sha256(bytes)).toString('hex');
  assert.deepEqual(sent().at(-1), { type: 'fetchRecording', name: 'b.mp4', offset: 0 });
  deliver({ type: 'recordingChunk', name: 'b.mp4', offset: 0, size: 3, sha256: digest, data: encodeBase64(bytes) });
  assert.deepEqual(await next, bytes);
});

test('a file being recorded answers unavailable: the fetch ends with it, the viewer is not touched', async () => {
  const { deliver, viewer } = await viewerOn();
  const fetcher = new RecordingFetcher(viewer.client, { sha256 });
  viewer.event('open'); // the viewer waits for its list meanwhile
  const live = fetcher.fetch('now.mp4');
  await new Promise((r) => setImmediate(r));
  deliver({ type: 'error', code: 'unavailable', message: 'now.mp4 is still being recorded', request: 'fetchRecording' });
  await assert.rejects(live, (e) => e.code === 'unavailable');
  assert.equal(viewer.state, 'listing');
});

test('errors read as sentences, and routing follows `request` before any guess', () => {
  assert.equal(sentence('no display has id 7'), 'No display has id 7.');
  assert.equal(sentence('Already fine.'), 'Already fine.');
  assert.equal(describeError({ code: 'unavailable' }), 'The computer cannot do that right now.');
  assert.equal(answers({ request: 'startScreen' }, ['startScreen']), true);
  assert.equal(answers({ request: 'setVolume' }, ['startScreen'], () => true), false);
  assert.equal(answers({}, ['startScreen'], () => true), true);
});

test('the app search hint speaks the device language and names the Hangul search only where it helps', async () => {
  const { searchPlaceholder } = await import('../core/search.js');
  assert.equal(searchPlaceholder(['en-US'], [{ name: 'Firefox' }]), 'Search apps');
  assert.equal(searchPlaceholder(['en-GB'], [{ name: '메모' }]), 'Search apps (initials: ㅁㅁ finds 메모)');
  assert.equal(searchPlaceholder(['ko-KR'], []), '앱 검색 (초성: ㅁㅁ → 메모)');
});
