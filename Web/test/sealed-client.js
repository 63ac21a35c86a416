// A DeckClient brought to `ready` over a fake socket with a see-through channel, so tests can hand it the host's
// sealed messages (`deliver`) and read what it sent (`sent`). The real sealing is tested in secure.test.js.
import { DeckClient } from '../core/client.js';

class FakeSocket {
  static last = null;
  constructor() { this.sent = []; FakeSocket.last = this; }
  send(data) { this.sent.push(data); }
  close() {}
}

const channel = {
  sealText: (text) => JSON.stringify({ type: 'secure', seq: 1, box: text }),
  openText: (envelope) => JSON.parse(envelope.box),
  openBinary: (bytes) => bytes,
};

const tick = () => new Promise((r) => setImmediate(r));

/** A ready client: { client, deliver(message), deliverPlain(message), sent() }. */
export async function readyClient() {
  const handshake = { startAuth: () => ({ first: async () => ({ type: 'authStart' }),
    receive: async () => ({ send: { type: 'authFinish' }, channel }) }) };
  const storage = new Map([['touchdeck.deviceId', 'd'], ['touchdeck.secret', 's']]);
  const client = new DeckClient({ url: 'ws://x/ws', name: 't', handshake, WebSocket: FakeSocket,
    storage: { getItem: (k) => storage.get(k) ?? null, setItem: (k, v) => storage.set(k, v), removeItem: () => {} },
    timers: { setTimeout: () => 0, clearTimeout: () => {} } });
  client.start();
  const socket = FakeSocket.last;
  socket.onopen();
  socket.onmessage({ data: JSON.stringify({ type: 'authRequired', hostName: 'desk' }) });
  await tick();
  socket.onmessage({ data: JSON.stringify({ type: 'authChallenge' }) });
  await tick();
  const deliverPlain = (message) => socket.onmessage({ data: JSON.stringify(message) });
  const deliver = (message) => deliverPlain({ type: 'secure', seq: 1, box: JSON.stringify(message) });
  deliver({ type: 'authorized', protocol: 2, hostName: 'desk' });
  const sent = () => socket.sent.map((t) => JSON.parse(t)).filter((m) => m.type === 'secure').map((m) => JSON.parse(m.box));
  return { client, deliver, deliverPlain, sent, tick };
}
