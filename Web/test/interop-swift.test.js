// Interop with the Swift host side: `touchdeck-peer host --pin 123456` over stdin/stdout, one message per
// line, binary as {"binary":"<base64>"}. The peer is $TOUCHDECK_PEER, else .build/debug/touchdeck-peer.
// A missing peer FAILS: these tests are the proof that the JS device and the Swift host agree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { DeviceAuth, DevicePairing } from '../core/handshake.js';
import { decodeBase64, encodeBase64 } from '../core/base64.js';
import { repoRoot } from './support.js';

const PIN = '123456';
const WRONG_PIN = '654321';
// Guards against a hung peer only; nothing here asserts on speed.
const HANG_GUARD = { timeout: 120_000 };

function peerPath() {
  const configured = process.env.TOUCHDECK_PEER ?? path.join('.build', 'debug', 'touchdeck-peer');
  const resolved = path.resolve(repoRoot, configured);
  if (!existsSync(resolved)) {
    assert.fail(`touchdeck-peer not found at ${resolved}: run \`swift build --product touchdeck-peer\` ` +
      'or point TOUCHDECK_PEER at the binary');
  }
  return resolved;
}

/** The peer process as a message pipe: `send` writes a line, `recv` resolves with the next line's message. */
class LinePeer {
  constructor(executable) {
    this.process = spawn(executable, ['host', '--pin', PIN], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.stderr = '';
    this.process.stderr.on('data', (chunk) => { this.stderr += chunk; });
    this.lines = [];
    this.waiting = [];
    this.ended = false;
    createInterface({ input: this.process.stdout, crlfDelay: Infinity }).on('line', (line) => this.deliver(line));
    this.process.on('close', (code) => {
      this.ended = `peer exited with code ${code}; stderr: ${this.stderr.slice(-2000)}`;
      for (const waiter of this.waiting.splice(0)) waiter.reject(new Error(this.ended));
    });
  }

  deliver(line) {
    const waiter = this.waiting.shift();
    if (waiter) waiter.resolve(line);
    else this.lines.push(line);
  }

  send(message) {
    this.process.stdin.write(JSON.stringify(message) + '\n');
  }

  sendBinary(frame) {
    this.send({ binary: encodeBase64(frame) });
  }

  /** The next message: a parsed object, or a Uint8Array for a binary line. */
  async recv() {
    const line = this.lines.length > 0 ? this.lines.shift() : await new Promise((resolve, reject) => {
      if (this.ended) reject(new Error(this.ended));
      else this.waiting.push({ resolve, reject });
    });
    const message = JSON.parse(line);
    return typeof message.binary === 'string' && message.type === undefined ? decodeBase64(message.binary) : message;
  }

  close() {
    this.process.stdin.end();
    this.process.kill();
  }
}

async function withPeer(body) {
  const peer = new LinePeer(peerPath());
  try {
    await body(peer);
  } finally {
    peer.close();
  }
}

/** Pairs with the right PIN and authenticates; returns the device's SecureChannel. */
async function authorized(peer) {
  peer.send({ type: 'hello', protocol: 2, name: 'JS device' });
  assert.equal((await peer.recv()).type, 'needPairing');
  const { paired } = await pair(peer, PIN);
  const auth = await DeviceAuth.create(paired);
  peer.send(auth.start());
  const { send, channel } = await auth.receive(await peer.recv());
  peer.send(send);
  assert.equal(channel.openText(await peer.recv()).type, 'authorized');
  return channel;
}

async function pair(peer, pin) {
  const pairing = await DevicePairing.create({ pin, name: 'JS device' });
  peer.send(pairing.start());
  const { send } = await pairing.receive(await peer.recv());
  peer.send(send);
  return pairing.receive(await peer.recv());
}

test('JS device pairs with the Swift host, authenticates, and exchanges sealed text and binary', HANG_GUARD, () =>
  withPeer(async (peer) => {
    peer.send({ type: 'hello', protocol: 2, name: 'JS device' });
    assert.equal((await peer.recv()).type, 'needPairing');
    const { paired } = await pair(peer, PIN);
    assert.match(paired.deviceId, /^[0-9a-f]{32}$/);
    assert.equal(paired.secret.length, 32);

    const auth = await DeviceAuth.create(paired);
    peer.send(auth.start());
    const { send, channel } = await auth.receive(await peer.recv());
    peer.send(send);
    const authorized = channel.openText(await peer.recv());
    assert.equal(authorized.type, 'authorized');
    assert.equal(authorized.protocol, 3);

    for (const text of ['hello', 'Grüße, 안녕 🎛', '']) {
      peer.send(JSON.parse(channel.sealText({ type: 'echo', text })));
      assert.deepEqual(channel.openText(await peer.recv()), { type: 'echo', text });
    }
    const bodies = [new Uint8Array([0]), Uint8Array.from({ length: 10240 }, (_, i) => i & 255),
      Uint8Array.from({ length: 300 * 1024 }, (_, i) => (i * 31) & 255)];
    for (const body of bodies) {
      peer.sendBinary(channel.sealBinary(body));
      const echoed = await peer.recv();
      assert.ok(echoed instanceof Uint8Array, 'the peer answers a binary with a binary');
      assert.deepEqual(channel.openBinary(echoed), body);
    }
    assert.equal(channel.receivedText, 4);
    assert.equal(channel.receivedBinary, 3n);
  }));

test('a wrong PIN gets pairingFailed{wrongPin, remaining: 4} from the Swift host', HANG_GUARD, () =>
  withPeer(async (peer) => {
    peer.send({ type: 'hello', protocol: 2, name: 'guesser' });
    assert.equal((await peer.recv()).type, 'needPairing');
    assert.deepEqual(await pair(peer, WRONG_PIN), { failed: { reason: 'wrongPin', remaining: 4 } });
  }));

test('the Swift host refuses the attack table from a JS device with error{badSeal} and keeps serving', HANG_GUARD, () =>
  withPeer(async (peer) => {
    const channel = await authorized(peer);
    // After authorization the host's errors are sealed like everything else it sends (PROTOCOL §6).
    const expectBadSeal = async (what) => {
      const reply = channel.openText(await peer.recv());
      assert.equal(reply.type, 'error', what);
      assert.equal(reply.code, 'badSeal', what);
    };
    const envelope = JSON.parse(channel.sealText({ type: 'echo', text: 'one' }));
    peer.send(envelope);
    assert.deepEqual(channel.openText(await peer.recv()), { type: 'echo', text: 'one' });
    peer.send(envelope);
    await expectBadSeal('replayed envelope');
    const flipped = decodeBase64(envelope.box);
    flipped[flipped.length - 1] ^= 1;
    peer.send({ ...envelope, seq: 5, box: encodeBase64(flipped) });
    await expectBadSeal('flipped last byte');
    const fresh = JSON.parse(channel.sealText({ type: 'echo', text: 'two' }));
    peer.send({ ...fresh, seq: fresh.seq + 1 });
    await expectBadSeal('changed seq');
    const asBinary = new Uint8Array(8 + decodeBase64(fresh.box).length);
    asBinary[7] = 1;
    asBinary.set(decodeBase64(fresh.box), 8);
    peer.sendBinary(asBinary);
    await expectBadSeal('text box re-sent as binary');
    const frame = channel.sealBinary(new Uint8Array([1, 2, 3]));
    peer.send({ type: 'secure', seq: 9, box: encodeBase64(frame.subarray(8)) });
    await expectBadSeal('binary re-sent as text');
    peer.sendBinary(frame);
    const echoed = await peer.recv();
    peer.sendBinary(echoed);
    await expectBadSeal('host frame reflected to the host');
    assert.deepEqual(channel.openBinary(echoed), new Uint8Array([1, 2, 3]));
    peer.send(JSON.parse(channel.sealText({ type: 'echo', text: 'still here' })));
    assert.deepEqual(channel.openText(await peer.recv()), { type: 'echo', text: 'still here' });
  }));
