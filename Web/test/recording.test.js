// The device side of recording: the key's caption from recordState with a fake clock, the reassembly of a file
// from chunks of every size, and the fetch through a fake host (one chunk in flight, resume after a reconnect,
// the SHA-256 check).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { encodeBase64 } from '../core/base64.js';
import {
  ChunkAssembler, FetchError, RecordingFetcher, RecordingStatus, formatClock, formatSize,
} from '../core/recording.js';
import { loadJSON } from './support.js';

const sha256Hex = (bytes) => createHash('sha256').update(bytes).digest('hex');
const sha256 = async (bytes) => new Uint8Array(createHash('sha256').update(bytes).digest());
const tick = () => new Promise((r) => setImmediate(r));

function fileOf(length, seed = 7) {
  const bytes = new Uint8Array(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    bytes[i] = x >>> 24;
  }
  return bytes;
}

function chunkOf(name, file, offset, chunkBytes, digest = sha256Hex(file)) {
  const data = file.subarray(Math.min(offset, file.length), Math.min(offset + chunkBytes, file.length));
  return { type: 'recordingChunk', name, offset, size: file.length, sha256: digest, data: encodeBase64(data) };
}

test('clock and size read as a person would say them', () => {
  assert.equal(formatClock(0), '0:00');
  assert.equal(formatClock(5999), '0:05');
  assert.equal(formatClock(65_000), '1:05');
  assert.equal(formatClock(3_723_000), '1:02:03');
  assert.equal(formatSize(900), '900 B');
  assert.equal(formatSize(12_345), '12.3 KB');
  assert.equal(formatSize(4_500_000), '4.5 MB');
  assert.equal(formatSize(250_000_000), '250 MB');
});

test('the caption follows recordState and the clock: counting while recording, still while paused', () => {
  let now = 1_000;
  const status = new RecordingStatus(() => now);
  assert.equal(status.caption(), 'Not recording');
  status.update(loadJSON('Tests/Fixtures/messages/recordState.json')); // recording, elapsedMs 5230
  assert.equal(status.caption(), 'Recording 0:05');
  now += 7_000;
  assert.equal(status.caption(), 'Recording 0:12');
  status.update({ type: 'recordState', state: 'paused', elapsedMs: 12_400 });
  now += 60_000;
  assert.equal(status.caption(), 'Paused 0:12');
  status.update({ type: 'recordState', state: 'recording', elapsedMs: 12_400 });
  now += 600;
  assert.equal(status.caption(), 'Recording 0:13');
  status.update({ type: 'recordState', state: 'idle', elapsedMs: 13_000, name: 'x.mp4', reason: 'requested' });
  assert.equal(status.caption(), 'Not recording');
  assert.equal(status.elapsedMs(), 0);
});

test('a record control starts with its monitor and rate when idle, else stops', () => {
  const status = new RecordingStatus(() => 0);
  assert.deepEqual(status.toggleMessage({ displayId: 66, fps: 60 }), { type: 'recordStart', displayId: 66, fps: 60 });
  assert.deepEqual(status.toggleMessage(), { type: 'recordStart', fps: 30 });
  status.update({ state: 'paused', elapsedMs: 1 });
  assert.deepEqual(status.toggleMessage({ displayId: 66 }), { type: 'recordStop' });
});

test('chunks of every size reassemble to the same bytes', () => {
  const file = fileOf(5000);
  for (const size of [1, 2, 3, 7, 64, 999, 4999, 5000, 8192]) {
    const assembler = new ChunkAssembler('a.mp4');
    let step;
    do step = assembler.accept(chunkOf('a.mp4', file, assembler.offset, size));
    while (step === 'more');
    assert.equal(step, 'done', `chunks of ${size}`);
    assert.deepEqual(assembler.bytes(), file, `chunks of ${size}`);
  }
});

test('a stale chunk is ignored, a changed file starts again, a short file is an error', () => {
  const file = fileOf(300);
  const assembler = new ChunkAssembler('a.mp4');
  assert.equal(assembler.accept(chunkOf('a.mp4', file, 0, 100)), 'more');
  assert.equal(assembler.accept(chunkOf('a.mp4', file, 0, 100)), 'ignored');
  assert.equal(assembler.accept(chunkOf('b.mp4', file, 100, 100)), 'ignored');
  const grown = fileOf(400);
  assert.equal(assembler.accept(chunkOf('a.mp4', grown, 100, 100)), 'restart');
  assert.equal(assembler.offset, 0);
  assert.equal(assembler.accept(chunkOf('a.mp4', grown, 0, 400)), 'done');
  assert.deepEqual(assembler.bytes(), grown);
  const short = new ChunkAssembler('c.mp4');
  short.accept(chunkOf('c.mp4', file, 0, 100));
  assert.throws(() => short.accept({ ...chunkOf('c.mp4', file, 100, 100), data: '' }), FetchError);
});

/** A client whose host serves `files` in chunks of `chunkBytes`, answering each request on a later tick. */
class FakeClient extends EventTarget {
  constructor(files, chunkBytes) {
    super();
    Object.assign(this, { files, chunkBytes, ready: true, requests: [], inFlight: 0, maxInFlight: 0 });
    this.digests = new Map([...files].map(([name, bytes]) => [name, sha256Hex(bytes)]));
  }

  send(message) {
    if (!this.ready) return false;
    assert.equal(message.type, 'fetchRecording');
    this.requests.push(message.offset);
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    const connection = this.connection;
    setImmediate(() => {
      if (connection !== this.connection) return; // the answer went down with the old connection
      this.inFlight -= 1;
      const file = this.files.get(message.name);
      if (!file) return this.emit('hostError', { code: 'badMessage', message: `no recording is called ${message.name}` });
      this.emit('recordingChunk', chunkOf(message.name, file, message.offset, this.chunkBytes, this.digests.get(message.name)));
    });
    return true;
  }

  drop() {
    this.connection = (this.connection ?? 0) + 1;
    this.inFlight = 0;
    this.ready = false;
    this.emit('state', { state: 'waiting' });
  }

  reconnect() {
    this.ready = true;
    this.emit('state', { state: 'ready' });
  }

  emit(type, detail) {
    const event = new Event(type);
    event.detail = detail;
    this.dispatchEvent(event);
  }
}

test('a fetch keeps one chunk in flight and hands on the whole file', async () => {
  const file = fileOf(10_000);
  const client = new FakeClient(new Map([['a.mp4', file]]), 1024);
  const fetcher = new RecordingFetcher(client, { sha256 });
  const progress = [];
  const bytes = await fetcher.fetch('a.mp4', (held, size) => progress.push([held, size]));
  assert.deepEqual(bytes, file);
  assert.equal(sha256Hex(bytes), sha256Hex(file));
  assert.equal(client.maxInFlight, 1);
  assert.deepEqual(client.requests, Array.from({ length: 10 }, (_, i) => i * 1024));
  assert.deepEqual(progress.at(-1), [10_000, 10_000]);
});

test('after a reconnect the fetch resumes from the bytes it holds', { timeout: 5000 }, async () => {
  const file = fileOf(8_000);
  const client = new FakeClient(new Map([['a.mp4', file]]), 1000);
  const fetcher = new RecordingFetcher(client, { sha256 });
  let dropped = false;
  const done = fetcher.fetch('a.mp4', (held) => {
    if (held === 3000 && !dropped) {
      dropped = true;
      setImmediate(() => client.drop()); // the request for 3000 is lost with the connection
    }
  });
  while (!dropped || client.ready) await tick();
  const asked = client.requests.length;
  client.reconnect();
  assert.deepEqual(await done, file);
  assert.equal(client.requests[asked], 3000, `resumed at ${client.requests[asked]}`);
  assert.deepEqual(client.requests.slice(0, 4), [0, 1000, 2000, 3000]);
});

test('a file whose bytes do not match its SHA-256 is refused', async () => {
  const file = fileOf(3000);
  const client = new FakeClient(new Map([['a.mp4', file]]), 1000);
  client.digests.set('a.mp4', sha256Hex(fileOf(3000, 8)));
  const fetcher = new RecordingFetcher(client, { sha256 });
  await assert.rejects(fetcher.fetch('a.mp4'), (error) => error instanceof FetchError && error.code === 'digest');
});

test('a missing file rejects with the host\'s words, and the next fetch still runs', async () => {
  const file = fileOf(2500);
  const client = new FakeClient(new Map([['a.mp4', file]]), 1000);
  const fetcher = new RecordingFetcher(client, { sha256 });
  const missing = fetcher.fetch('gone.mp4');
  const present = fetcher.fetch('a.mp4');
  await assert.rejects(missing, /no recording is called gone\.mp4/);
  assert.deepEqual(await present, file);
  assert.equal(client.maxInFlight, 1);
});
