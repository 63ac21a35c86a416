// Video packets against Tests/Fixtures/packets (the files the Swift and Python tests read), every prefix included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { packetKind, parseVideo } from '../core/packets.js';
import { codecString } from '../core/h264.js';
import { loadJSON, repoRoot, toHex } from './support.js';

const expected = loadJSON('Tests/Fixtures/packets/expected.json');
const bytes = (name) => new Uint8Array(readFileSync(`${repoRoot}/Tests/Fixtures/packets/${name}`));

for (const [name, want] of Object.entries(expected)) {
  if (name === 'about' || want.kind !== 'video') continue;
  test(`video packet ${name}`, () => {
    const data = bytes(name);
    assert.equal(packetKind(data), 1);
    const got = parseVideo(data);
    assert.equal(got.codec, want.codec);
    assert.equal(got.keyframe, want.keyframe);
    assert.deepEqual(got.timing, want.timing);
    assert.deepEqual(got.parameterSets.map(toHex), want.parameterSets);
    assert.equal(toHex(got.frame), want.frame);
    const frameStart = data.length - got.frame.length;
    for (let n = 0; n < data.length; n += 1) {
      const cut = parseVideo(data.subarray(0, n));
      if (n <= frameStart) assert.equal(cut, null, `a prefix of ${n} bytes has no frame`);
      else assert.equal(cut.frame.length, n - frameStart);
    }
  });
}

test('the audio packet is routed by its first byte', () => {
  assert.equal(packetKind(bytes('audio.bin')), 2);
  assert.equal(packetKind(new Uint8Array()), 0);
});

test('codec string from the SPS: profile, constraint flags and level', () => {
  const sps = parseVideo(bytes('video-keyframe.bin')).parameterSets[0];
  assert.equal(codecString(sps), 'avc1.42c01f');
  assert.equal(codecString(new Uint8Array([0x67, 0x64, 0x00, 0x28])), 'avc1.640028');
  assert.equal(codecString(new Uint8Array([0x68, 0xce])), null, 'a PPS is not an SPS');
});
