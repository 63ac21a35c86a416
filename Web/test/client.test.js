import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DeckClient, TRANSITIONS, BACKOFF_MS, nextState } from '../core/client.js';
import { addLogSink } from '../core/log.js';

addLogSink(() => {}); // keep test output clean

class FakeSocket {
  static all = [];
  constructor(url) { this.url = url; this.sent = []; this.closed = false; FakeSocket.all.push(this); }
  send(data) { this.sent.push(data); }
  close() { this.closed = true; }
  open() { this.onopen?.(); }
  deliver(message) { this.onmessage?.({ data: typeof message === 'string' ? message : JSON.stringify(message) }); }
  drop() { this.onclose?.(); }
  get last() { return JSON.parse(this.sent.at(-1)); }
}

class MemoryStorage {
  constructor(entries = {}) { this.map = new Map(Object.entries(entries)); }
  getItem(k) { return this.map.get(k) ?? null; }
  setItem(k, v) { this.map.set(k, String(v)); }
  removeItem(k) { this.map.delete(k); }
}

// A handshake that follows the real message order but with trivial "crypto", so the state table is tested
// on its own; the real handshake is tested against the Swift and Python implementations.
const plainChannel = {
  sealText: (text) => JSON.stringify({ type: 'secure', seq: 1, box: text }),
  openText: (envelope) => JSON.parse(envelope.box),
  openBinary: (bytes) => bytes,
};
const fakeHandshake = {
  startPairing: ({ pin }) => ({
    first: async () => ({ type: 'pairStart', pA: `pin:${pin.length}` }),
    receive: async (m) => (m.type === 'pairChallenge' ? { send: { type: 'pairConfirm', cA: 'c' } }
      : m.type === 'paired' ? { paired: { deviceId: m.deviceId, secret: 'c2VjcmV0' } } : {}),
  }),
  startAuth: ({ deviceId }) => ({
    first: async () => ({ type: 'authStart', deviceId, eA: 'e' }),
    receive: async (m) => (m.type === 'authChallenge' ? { send: { type: 'authFinish', proof: 'p' }, channel: plainChannel } : {}),
  }),
};

function makeClient(storage = new MemoryStorage()) {
  const timers = { pending: [], setTimeout(fn, ms) { this.pending.push({ fn, ms }); return this.pending.length; },
    clearTimeout() {} };
  FakeSocket.all = [];
  const client = new DeckClient({ url: 'wss://host/ws', storage, handshake: fakeHandshake, WebSocket: FakeSocket,
    name: 'test', timers });
  const states = [];
  client.addEventListener('state', (e) => states.push(e.detail.state));
  return { client, timers, states, storage, socket: () => FakeSocket.all.at(-1) };
}

const tick = () => new Promise((r) => setImmediate(r));

test('every transition target is a known state', () => {
  for (const [state, events] of Object.entries(TRANSITIONS)) {
    for (const target of Object.values(events)) assert.ok(TRANSITIONS[target], `${state} → ${target}`);
    if (state !== 'idle') assert.equal(events.stop, 'idle', `${state} can be stopped`);
  }
  assert.equal(nextState('ready', 'pin'), null);
});

test('a new device pairs, then authenticates and becomes ready', async () => {
  const { client, states, storage, socket } = makeClient();
  client.start();
  assert.equal(socket().url, 'wss://host/ws', 'a new device names none');
  socket().open();
  assert.deepEqual(socket().last, { type: 'hello', protocol: 3, name: 'test' });
  socket().deliver({ type: 'needPairing', hostName: 'desk' });
  assert.equal(client.state, 'needPin');
  await client.submitPin('123456');
  assert.equal(socket().last.type, 'pairStart');
  socket().deliver({ type: 'pairChallenge', pB: 'x' });
  await tick();
  assert.equal(socket().last.type, 'pairConfirm');
  socket().deliver({ type: 'paired', deviceId: 'abc', cB: 'c', box: 'b' });
  await tick();
  await tick();
  assert.equal(storage.getItem('touchdeck.deviceId'), 'abc');
  assert.equal(socket().last.type, 'authStart');
  socket().deliver({ type: 'authChallenge', eB: 'e', proof: 'p' });
  await tick();
  assert.equal(socket().last.type, 'authFinish');
  socket().deliver({ type: 'secure', seq: 1, box: JSON.stringify({ type: 'authorized', protocol: 2, hostName: 'desk' }) });
  await tick();
  assert.equal(client.state, 'ready');
  assert.deepEqual(states, ['connecting', 'greeting', 'needPin', 'pairing', 'authenticating', 'ready']);
  assert.equal(client.hostName, 'desk');
});

test('a paired device says its id and authenticates silently', async () => {
  const storage = new MemoryStorage({ 'touchdeck.deviceId': 'abc', 'touchdeck.secret': 'c2VjcmV0' });
  const { client, socket } = makeClient(storage);
  client.start();
  assert.equal(socket().url, 'wss://host/ws?device=abc', 'named in the upgrade too: the front door keeps its place');
  socket().open();
  assert.equal(socket().last.deviceId, 'abc');
  socket().deliver({ type: 'authRequired', hostName: 'desk' });
  await tick();
  assert.equal(socket().last.type, 'authStart');
});

test('a revoked device forgets its secret and asks for a PIN', async () => {
  const storage = new MemoryStorage({ 'touchdeck.deviceId': 'abc', 'touchdeck.secret': 'c2VjcmV0' });
  const { client, socket } = makeClient(storage);
  let revoked = false;
  client.addEventListener('revoked', () => { revoked = true; });
  client.start();
  socket().open();
  socket().deliver({ type: 'needPairing', hostName: 'desk' });
  assert.equal(client.state, 'needPin');
  assert.equal(storage.getItem('touchdeck.secret'), null);
  assert.ok(revoked);
});

test('messages after authorization arrive as events; sends are sealed', async () => {
  const storage = new MemoryStorage({ 'touchdeck.deviceId': 'abc', 'touchdeck.secret': 'c2VjcmV0' });
  const { client, socket } = makeClient(storage);
  assert.equal(client.send({ type: 'press', page: 0, index: 1 }), false, 'nothing is sent before ready');
  client.start();
  socket().open();
  socket().deliver({ type: 'authRequired' });
  await tick();
  socket().deliver({ type: 'authChallenge' });
  await tick();
  socket().deliver({ type: 'secure', seq: 1, box: JSON.stringify({ type: 'authorized' }) });
  await tick();
  assert.equal(client.hostProtocol, 1, 'absent protocol means 1');
  let layout = null;
  client.addEventListener('layout', (e) => { layout = e.detail; });
  socket().deliver({ type: 'secure', seq: 2, box: JSON.stringify({ type: 'layout', pages: [[]] }) });
  await tick();
  assert.deepEqual(layout, { type: 'layout', pages: [[]] });
  assert.equal(client.send({ type: 'press', page: 0, index: 1 }), true);
  assert.equal(socket().last.type, 'secure');
});

test('a dropped connection waits with growing back-off and retries; wake retries at once', () => {
  const { client, timers, socket } = makeClient();
  client.start();
  socket().drop();
  assert.equal(client.state, 'waiting');
  assert.equal(timers.pending.at(-1).ms, BACKOFF_MS[0]);
  timers.pending.at(-1).fn();
  assert.equal(client.state, 'connecting');
  socket().drop();
  assert.equal(timers.pending.at(-1).ms, BACKOFF_MS[1]);
  const sockets = FakeSocket.all.length;
  client.wake();
  assert.equal(client.state, 'connecting');
  assert.equal(FakeSocket.all.length, sockets + 1);
});

test('stop closes the socket and stays idle', () => {
  const { client, socket } = makeClient();
  client.start();
  const s = socket();
  client.stop();
  assert.equal(client.state, 'idle');
  assert.ok(s.closed);
  s.drop();
  assert.equal(client.state, 'idle');
});
