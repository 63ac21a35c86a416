// The Screen tab's stream states: the table itself, then the whole path through the real DeckClient over a
// fake socket, with sealed binary opened by the real SecureChannel and routed by its first byte.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { SCREEN_TRANSITIONS, ScreenSession } from '../core/screen-session.js';
import { ViewerCore } from '../core/viewer.js';
import { DeckClient } from '../core/client.js';
import { SecureChannel } from '../core/secure.js';
import { addLogSink } from '../core/log.js';
import { loadJSON, repoRoot } from './support.js';
import { WAITING } from '../app/screen-text.js';

addLogSink(() => {});

const sends = (actions) => actions.filter((a) => a.type === 'send').map((a) => a.message.type);

test('every transition target is a known state, and every state can be closed or left', () => {
  for (const [state, events] of Object.entries(SCREEN_TRANSITIONS)) {
    for (const target of Object.values(events)) assert.ok(SCREEN_TRANSITIONS[target], `${state} → ${target}`);
    if (state !== 'off') assert.ok(events.close, `${state} can be closed`);
  }
});

test('open lists, choose starts with the device size and rate, started asks one keyframe', () => {
  const s = new ScreenSession({ fps: 60, maxSide: 2388 });
  assert.deepEqual(sends(s.handle('open')), ['listDisplays']);
  s.handle('displays', { status: 'ok', displays: [{ id: 7 }, { id: 8 }] });
  assert.equal(s.state, 'choosing');
  const start = s.handle('choose', { displayId: 7 });
  assert.deepEqual(start.find((a) => a.type === 'send').message,
    { type: 'startScreen', displayId: 7, maxSide: 2388, fps: 60, audio: false });
  assert.ok(start.some((a) => a.type === 'resetDecoder'));
  assert.deepEqual(s.handle('started', { width: 1920 }).map((a) => a.type), ['requestKeyframe', 'show']);
});

test('screenPending: the approval wait is shown, then screenStarted views; closing while waiting stops', () => {
  const s = new ScreenSession();
  s.handle('open');
  s.handle('displays', { status: 'ok', displays: [{ id: 3 }] });
  s.handle('choose', { displayId: 3 });
  const pending = ScreenSession.eventFor(loadJSON('Tests/Fixtures/messages/screenPending.json'));
  assert.equal(pending, 'pending');
  assert.deepEqual(s.handle(pending), [{ type: 'show', state: 'approval' }]);
  assert.ok(WAITING.approval.includes('approval on the computer'));
  assert.deepEqual(s.handle('started', { width: 1280 }).map((a) => a.type), ['requestKeyframe', 'show']);
  assert.equal(s.state, 'viewing');

  const waiting = new ScreenSession();
  waiting.handle('open');
  waiting.handle('displays', { status: 'ok', displays: [] });
  waiting.handle('choose', { displayId: 3 });
  waiting.handle('pending');
  assert.deepEqual(sends(waiting.handle('close')), ['stopScreen']);
  waiting.handle('open');
  waiting.handle('displays', { status: 'ok', displays: [] });
  waiting.handle('choose', { displayId: 3 });
  waiting.handle('pending');
  waiting.handle('denied', { reason: 'noPermission' });
  assert.equal(waiting.state, 'denied');
  assert.equal(waiting.reason, 'noPermission');
});

test('hidden stops the stream; shown again restarts the same monitor', () => {
  const s = new ScreenSession();
  s.handle('open');
  s.handle('displays', { status: 'ok', displays: [] });
  s.handle('choose', { displayId: 3 });
  s.handle('started', {});
  const hide = s.handle('hide');
  assert.deepEqual(sends(hide), ['stopScreen']);
  assert.ok(hide.some((a) => a.type === 'endInput'));
  assert.equal(s.state, 'hidden');
  const show = s.handle('show');
  assert.equal(show.find((a) => a.type === 'send').message.displayId, 3);
});

test('a lost connection sends nothing; back online it resumes the monitor, or lists when none was chosen', () => {
  const s = new ScreenSession();
  s.handle('open');
  s.handle('displays', { status: 'ok', displays: [] });
  s.handle('choose', { displayId: 3 });
  s.handle('started', {});
  assert.deepEqual(sends(s.handle('offline')), []);
  assert.deepEqual(sends(s.handle('online')), ['startScreen']);
  assert.equal(s.state, 'starting');
  const fresh = new ScreenSession();
  fresh.handle('open');
  fresh.handle('offline');
  assert.deepEqual(sends(fresh.handle('online')), ['listDisplays']);
});

test('denials and stops keep their reason and who views; fps changes go out only while streaming', () => {
  const s = new ScreenSession({ fps: 60 });
  assert.deepEqual(s.setOptions({ fps: 30 }), []);
  s.handle('open');
  s.handle('denied', { type: 'displays', status: 'notAllowed', displays: [] });
  assert.deepEqual([s.state, s.reason], ['denied', 'notAllowed']);
  s.handle('retry');
  s.handle('displays', { status: 'ok', displays: [] });
  s.handle('choose', { displayId: 1 });
  assert.equal(sends(s.handle('denied', { reason: 'busy', viewer: 'Phone' })).length, 0);
  assert.deepEqual([s.state, s.reason, s.viewer], ['denied', 'busy', 'Phone']);
  s.handle('list');
  s.handle('displays', { status: 'ok', displays: [] });
  s.handle('choose', { displayId: 1 });
  s.handle('started', {});
  assert.deepEqual(s.setOptions({ fps: 60 }), [{ type: 'send', message: { type: 'screenOptions', fps: 60, audio: false } }]);
  s.handle('stopped', { reason: 'locked' });
  assert.deepEqual([s.state, s.reason], ['stopped', 'locked']);
  assert.deepEqual(sends(s.handle('close')), []);
});

// The real client over a fake socket ------------------------------------------------------------------------

class FakeSocket {
  static last = null;
  constructor() { this.sent = []; FakeSocket.last = this; }
  send(data) { this.sent.push(data); }
  close() {}
}

const key = (n) => new Uint8Array(32).fill(n);

function connectedViewer() {
  const hostSide = new SecureChannel({ sendKey: key(1), receiveKey: key(2) });
  const deviceSide = new SecureChannel({ sendKey: key(2), receiveKey: key(1) });
  const channel = {
    sealText: (text) => JSON.stringify({ type: 'secure', seq: 1, box: text }),
    openText: (envelope) => JSON.parse(envelope.box),
    openBinary: (bytes) => deviceSide.openBinary(bytes),
  };
  const handshake = { startAuth: () => ({ first: async () => ({ type: 'authStart' }),
    receive: async () => ({ send: { type: 'authFinish' }, channel }) }) };
  const storage = new Map([['touchdeck.deviceId', 'd'], ['touchdeck.secret', 's']]);
  const client = new DeckClient({ url: 'ws://x/ws', name: 't', handshake, WebSocket: FakeSocket,
    storage: { getItem: (k) => storage.get(k) ?? null, setItem: (k, v) => storage.set(k, v), removeItem: () => {} },
    timers: { setTimeout: () => 0, clearTimeout: () => {} } });
  const shown = [];
  const videos = [];
  let now = 0;
  const timers = { pending: [], setTimeout(fn, ms) { this.pending.push({ fn, ms }); return this.pending.length; },
    clearTimeout() {} };
  const viewer = new ViewerCore({ client, perform: (a) => a.type === 'show' && shown.push(a.state),
    onVideo: (packet) => videos.push(packet), now: () => now, timers });
  const audio = [];
  viewer.onAudio = (bytes) => audio.push(bytes);
  const socket = () => FakeSocket.last;
  const deliver = (message) => socket().onmessage({ data: JSON.stringify({ type: 'secure', seq: 1, box: JSON.stringify(message) }) });
  const deliverBinary = (payload) => socket().onmessage({ data: hostSide.sealBinary(payload).buffer });
  const sent = () => socket().sent.map((t) => JSON.parse(t)).filter((m) => m.type === 'secure').map((m) => JSON.parse(m.box));
  return { client, viewer, shown, videos, audio, socket, deliver, deliverBinary, sent, timers,
    setNow: (t) => { now = t; } };
}

async function authorize(v) {
  v.client.start();
  v.socket().onopen();
  v.socket().onmessage({ data: JSON.stringify({ type: 'authRequired', hostName: 'desk' }) });
  await new Promise((r) => setImmediate(r));
  v.socket().onmessage({ data: JSON.stringify({ type: 'authChallenge' }) });
  await new Promise((r) => setImmediate(r));
  v.deliver({ type: 'authorized', protocol: 2, hostName: 'desk' });
  assert.equal(v.client.state, 'ready');
}

const fixturePacket = (name) => new Uint8Array(readFileSync(`${repoRoot}/Tests/Fixtures/packets/${name}`));

test('through the client: list, start, sealed video to the decoder, audio to its hook, throttled keyframes', async () => {
  const v = connectedViewer();
  await authorize(v);
  v.viewer.event('open');
  v.deliver({ type: 'displays', status: 'ok', displays: [{ id: 5, name: 'HDMI-1', width: 1920, height: 1080 },
    { id: 6, name: 'DP-1', width: 1280, height: 1024 }] });
  v.viewer.event('choose', { displayId: 5 });
  v.deliverBinary(fixturePacket('video-keyframe.bin')); // before screenStarted: already streaming
  v.deliver({ type: 'screenStarted', displayId: 5, width: 1920, height: 1080, fps: 60, audio: false });
  v.deliverBinary(fixturePacket('video-timestamped.bin'));
  v.deliverBinary(fixturePacket('video-timestamped.bin').subarray(0, 14)); // cut in the timing: dropped
  v.deliverBinary(fixturePacket('audio.bin'));
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(v.shown, ['listing', 'choosing', 'starting', 'viewing']);
  assert.deepEqual(v.videos.map((p) => [p.keyframe, p.timing?.hostProcessingMicros ?? null]), [[true, null], [true, 4321]]);
  assert.equal(v.audio.length, 1);
  assert.equal(v.audio[0][0], 2);
  v.setNow(100);
  v.viewer.decodeFailed(); // 0.1 s after the start request: held back, due at 0.5 s
  v.viewer.decodeFailed();
  assert.deepEqual(v.timers.pending.map((t) => t.ms), [400], 'one held-back request, not one per failure');
  v.setNow(500);
  v.timers.pending[0].fn(); // a still screen: no further frame fails, the held request still goes out
  v.setNow(600);
  v.viewer.decodeFailed();
  assert.deepEqual(v.sent().map((m) => m.type),
    ['listDisplays', 'startScreen', 'requestKeyframe', 'requestKeyframe']);
});

test('through the client: a dropped connection resumes the same monitor once authorized again', async () => {
  const v = connectedViewer();
  await authorize(v);
  v.viewer.event('open');
  v.deliver({ type: 'displays', status: 'ok', displays: [{ id: 5 }] });
  v.viewer.event('choose', { displayId: 5 });
  v.deliver({ type: 'screenStarted', displayId: 5, width: 1920, height: 1080, fps: 60, audio: false });
  v.socket().onclose();
  assert.equal(v.viewer.state, 'offline');
  v.client.wake();
  await authorize(v);
  assert.equal(v.viewer.state, 'starting');
  assert.deepEqual(v.sent().map((m) => [m.type, m.displayId]), [['startScreen', 5]]);
  v.deliverBinary(new Uint8Array([9, 9, 9])); // an unknown kind is ignored
  assert.equal(v.videos.length, 0);
});

test('opening the tab starts the only monitor, or the one viewed last; Monitors always shows the picker', () => {
  const one = new ScreenSession();
  one.handle('open');
  assert.deepEqual(sends(one.handle('displays', { status: 'ok', displays: [{ id: 4 }] })), ['startScreen']);
  assert.deepEqual([one.state, one.displayId], ['starting', 4]);
  one.handle('started', {});
  one.handle('list');
  one.handle('displays', { status: 'ok', displays: [{ id: 4 }] });
  assert.equal(one.state, 'choosing', 'the user asked for the picker');

  const remembered = new ScreenSession({ preferredDisplayId: 9 });
  remembered.handle('open');
  remembered.handle('displays', { status: 'ok', displays: [{ id: 8 }, { id: 9 }] });
  assert.deepEqual([remembered.state, remembered.displayId], ['starting', 9]);

  const gone = new ScreenSession({ preferredDisplayId: 5 });
  gone.handle('open');
  gone.handle('displays', { status: 'ok', displays: [{ id: 8 }, { id: 9 }] });
  assert.equal(gone.state, 'choosing', 'a remembered monitor that is gone: the picker');
  gone.handle('choose', { displayId: 8 });
  assert.equal(gone.preferredDisplayId, 8, 'the choice is the next preference');
});

test('asking on the computer: ask sends startScreen{ask}, screenPending{asking} waits, each answer leads on', () => {
  const rules = loadJSON('Tests/Fixtures/rules/asking.json');
  const refused = () => {
    const s = new ScreenSession({ fps: 60, maxSide: 2388 });
    s.handle('open');
    s.handle('denied', { type: 'displays', status: 'notAllowed', displays: [] });
    return s;
  };
  const s = refused();
  assert.equal(s.state, 'denied');
  assert.equal(s.mayAsk, true);
  assert.deepEqual(s.handle('ask').find((a) => a.type === 'send').message, rules.ask);
  assert.equal(ScreenSession.eventFor(rules.asking), 'pending');
  assert.deepEqual(s.handle('pending', rules.asking), [{ type: 'show', state: 'asking' }]);
  // Allow once (and Always): as if the tab opened now — list, then start the only monitor.
  assert.equal(ScreenSession.eventFor(rules.answers.once), 'allowed');
  assert.deepEqual(sends(s.handle('allowed', rules.answers.once)), ['listDisplays']);
  assert.deepEqual(sends(s.handle('displays', { status: 'ok', displays: [{ id: 4 }] })), ['startScreen']);
  assert.equal(s.state, 'starting');

  for (const answer of ['deny', 'timeout']) {
    const t = refused();
    t.handle('ask');
    t.handle('pending', rules.asking);
    t.handle(ScreenSession.eventFor(rules.answers[answer]), rules.answers[answer]);
    assert.equal(t.state, 'denied');
    assert.equal(t.asked, rules.answers[answer].asked);
    assert.equal(t.mayAsk, true, `${answer}: ask again`);
  }
  const old = refused();
  old.handle('ask');
  old.handle('denied', rules.answers.unavailable);
  assert.equal(old.mayAsk, false, 'a computer that cannot ask is not asked again');

  // Cancel withdraws the question.
  const cancel = refused();
  cancel.handle('ask');
  cancel.handle('pending', rules.asking);
  assert.deepEqual(sends(cancel.handle('list')), ['stopScreen', 'listDisplays']);
});
