// The decoder's failure rules with a fake WebCodecs: an undecodable frame asks for a keyframe; a decoder that
// never produced a frame and fails twice (WebKitGTK without gstreamer1.0-libav) gives up with a message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { VideoPipe } from '../app/video-pipe.js';
import { parseVideo } from '../core/packets.js';
import { repoRoot } from './support.js';

const packet = (name) => parseVideo(new Uint8Array(readFileSync(`${repoRoot}/Tests/Fixtures/packets/${name}`)));

const behaviour = { works: true };

function fakeCodecs({ works }) {
  behaviour.works = works;
  const made = [];
  globalThis.EncodedVideoChunk = class { constructor(init) { Object.assign(this, init); } };
  globalThis.VideoDecoder = class {
    constructor({ output, error }) { Object.assign(this, { output, error, state: 'unconfigured', decodeQueueSize: 0 }); made.push(this); }
    configure(config) { this.config = config; this.state = 'configured'; }
    decode(chunk) {
      queueMicrotask(() => {
        if (behaviour.works) this.output({ timestamp: chunk.timestamp, displayWidth: 2, displayHeight: 2, close() {} });
        else { this.state = 'closed'; this.error(new Error('decode failed')); }
      });
    }
    close() { this.state = 'closed'; }
  };
  globalThis.requestAnimationFrame = () => 0;
  return made;
}

function pipe() {
  const events = [];
  const p = new VideoPipe({ canvas: { width: 0, height: 0 }, onFailed: () => events.push('failed'),
    onFatal: () => events.push('fatal') });
  return { p, events };
}

const settle = () => new Promise((r) => setImmediate(r));

test('the decoder is configured from the SPS, for latency, without a description (Annex-B)', async () => {
  const made = fakeCodecs({ works: true });
  const { p, events } = pipe();
  p.push(packet('video-delta.bin'), 0);
  assert.deepEqual(events, ['failed'], 'a delta before any keyframe asks for one');
  p.push(packet('video-keyframe.bin'), 0);
  assert.deepEqual(made[0].config, { codec: 'avc1.42c01f', optimizeForLatency: true });
  p.push(packet('video-delta.bin'), 0);
  await settle();
  assert.equal(p.stats.decoded, 2);
  assert.deepEqual(events, ['failed']);
});

test('a decoder that fails before its first frame gives up on the second failure', async () => {
  fakeCodecs({ works: false });
  const { p, events } = pipe();
  p.push(packet('video-keyframe.bin'), 0);
  await settle();
  assert.deepEqual(events, ['failed']);
  p.push(packet('video-delta.bin'), 0);
  p.push(packet('video-keyframe.bin'), 0);
  await settle();
  assert.deepEqual(events, ['failed', 'failed', 'fatal']);
});

test('after frames were decoded, failures only ask for keyframes', async () => {
  fakeCodecs({ works: true });
  const { p, events } = pipe();
  p.push(packet('video-keyframe.bin'), 0);
  await settle();
  behaviour.works = false;
  for (let i = 0; i < 3; i += 1) {
    p.push(packet('video-keyframe.bin'), 0);
    await settle();
  }
  assert.deepEqual(events, ['failed', 'failed', 'failed']);
});
