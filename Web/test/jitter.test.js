// The audio jitter buffer against the shared fixture (the Swift tests read the same file), and the player the
// AudioWorklet runs, driven by a fake clock: packets arrive when the test says, render quanta follow the clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  AudioJitter, JitterPlayer, Resampler, parseAudioPacket, START_AT, DROP_ABOVE, RESUME_BELOW, TOLERANCE,
} from '../core/jitter.js';

const fixture = JSON.parse(readFileSync(new URL('../../Tests/Fixtures/rules/audio-jitter.json', import.meta.url)));

test('the bounds are the fixture\'s', () => {
  assert.deepEqual([START_AT, DROP_ABOVE, RESUME_BELOW, TOLERANCE],
    [fixture.startAt, fixture.dropAbove, fixture.resumeBelow, fixture.tolerance]);
});

function runStep(jitter, step, name) {
  const [kind, value, wanted] = step;
  if (kind === 'arrive') {
    const decision = jitter.arrive(value);
    if (wanted !== null) assert.equal(decision, wanted, name);
  } else if (kind === 'played') {
    assert.equal(jitter.played(value), wanted, name);
  } else {
    for (let i = 0; i < value; i++) runStep(jitter, wanted, name);
  }
}

for (const c of fixture.cases) {
  test(`jitter: ${c.name}`, () => {
    const jitter = new AudioJitter();
    for (const step of c.steps) runStep(jitter, step, c.name);
    assert.ok(Math.abs(jitter.queued - c.expect.queued) <= fixture.tolerance, `${c.name}: queued ${jitter.queued}`);
    assert.equal(jitter.isPlaying, c.expect.isPlaying, c.name);
    assert.equal(jitter.isDropping, c.expect.isDropping, c.name);
  });
}

test('the packet fixture parses', () => {
  const bytes = new Uint8Array(readFileSync(new URL('../../Tests/Fixtures/packets/audio.bin', import.meta.url)));
  const expected = JSON.parse(readFileSync(new URL('../../Tests/Fixtures/packets/expected.json', import.meta.url)))['audio.bin'];
  const packet = parseAudioPacket(bytes);
  assert.equal(packet.channels, expected.channels);
  assert.equal(packet.rate, expected.sampleRate);
  assert.deepEqual(Array.from(packet.samples), expected.samples);
  for (let cut = 0; cut < bytes.length; cut++) {
    const prefix = parseAudioPacket(bytes.subarray(0, cut));
    const whole = cut >= 6 && (cut - 6) % 4 === 0;
    assert.equal(prefix !== null, whole, `prefix of ${cut} bytes`);
  }
});

/** A 10 ms host packet of a counter: left = n, right = -n, continuing from `first`. */
function packet(first, frames = 480) {
  const samples = new Int16Array(frames * 2);
  for (let i = 0; i < frames; i++) { samples[2 * i] = (first + i) % 30000; samples[2 * i + 1] = -((first + i) % 30000); }
  return samples;
}

/** A fake audio clock at `rate`: quanta of 128 frames rendered as time passes; packets arrive at given times. */
function simulate(player, arrivals, until, rate = 48000) {
  const left = new Float32Array(128);
  const right = new Float32Array(128);
  const out = [];
  let clock = 0;
  let next = 0;
  const quantum = 128 / rate;
  while (clock < until) {
    while (next < arrivals.length && arrivals[next].at <= clock) player.push(arrivals[next++].samples, 2, 48000);
    player.render(left, right);
    out.push(...left);
    clock += quantum;
  }
  return out;
}

test('playback starts once 60 ms are queued, and then plays every sample in order', () => {
  const player = new JitterPlayer(48000);
  const arrivals = Array.from({ length: 50 }, (_, n) => ({ at: n * 0.01, samples: packet(n * 480) }));
  const out = simulate(player, arrivals, 0.6);
  const firstSound = out.findIndex((v) => v !== 0) ;
  // The sixth packet (60 ms) arrives at 0.05 s; nothing played before it.
  assert.ok(firstSound >= 0.05 * 48000 - 128 && firstSound <= 0.05 * 48000 + 256, `started at ${firstSound}`);
  const played = out.slice(firstSound, firstSound + 48000 * 0.4).map((v) => Math.round(v * 32768));
  played.forEach((v, i) => { if (i > 0) assert.equal(v, played[i - 1] + 1, `sample ${i}`); });
  assert.equal(player.stats().dropped, 0);
});

test('a burst above 200 ms drops new packets until below 100 ms', () => {
  const player = new JitterPlayer(48000);
  // 30 packets at once (a Wi-Fi stall releasing), then one every 10 ms.
  const arrivals = [
    ...Array.from({ length: 30 }, (_, n) => ({ at: 0, samples: packet(n * 480) })),
    ...Array.from({ length: 40 }, (_, n) => ({ at: 0.01 * (n + 1), samples: packet((30 + n) * 480) })),
  ];
  const decisions = [];
  const push = player.push.bind(player);
  player.push = (...args) => { const d = push(...args); decisions.push([d, player.jitter.queued]); return d; };
  simulate(player, arrivals, 0.45);
  assert.equal(decisions.slice(0, 20).filter(([d]) => d === 'drop').length, 0);
  assert.equal(decisions[20][0], 'drop', 'the 21st packet would pass 200 ms');
  const resumed = decisions.findIndex(([d], i) => i > 20 && d !== 'drop');
  // Every drop after the first happened with 100 ms or more queued; the packet taken found less than 100 ms.
  for (const [, queued] of decisions.slice(21, resumed)) assert.ok(queued >= 0.1 - 1e-9, `dropped at ${queued}`);
  assert.ok(decisions[resumed][1] - 0.01 < 0.1 - 1e-9, `resumed at ${decisions[resumed][1] - 0.01}`);
  assert.ok(player.stats().dropped >= 10);
});

test('a queue that runs dry pauses, and waits for 60 ms again', () => {
  const player = new JitterPlayer(48000);
  const arrivals = [
    ...Array.from({ length: 6 }, (_, n) => ({ at: 0, samples: packet(n * 480) })),
    ...Array.from({ length: 5 }, (_, n) => ({ at: 0.3, samples: packet((6 + n) * 480) })),
  ];
  const out = simulate(player, arrivals, 0.5);
  assert.equal(player.stats().underruns, 1);
  assert.equal(player.stats().played, 6 * 480, 'five packets (50 ms) are not enough to start again');
  assert.ok(out.slice(0.3 * 48000).every((v) => v === 0));
});

test('resampling to 44.1 kHz keeps a 1 kHz tone at 1 kHz and the duration', () => {
  const resampler = new Resampler(48000, 44100);
  const tone = new Int16Array(48000 * 2);
  for (let i = 0; i < 48000; i++) tone[2 * i] = tone[2 * i + 1] = Math.round(Math.sin(2 * Math.PI * 1000 * i / 48000) * 16000);
  const out = [];
  for (let at = 0; at < tone.length; at += 960) out.push(...resampler.process(tone.subarray(at, at + 960), 2).left);
  assert.ok(Math.abs(out.length - 44100) <= 1, `${out.length} frames`);
  let crossings = 0;
  for (let i = 1; i < out.length; i++) if (out[i - 1] < 0 && out[i] >= 0) crossings++;
  assert.ok(Math.abs(crossings - 1000) <= 1, `${crossings} upward crossings in one second`);
  const peak = Math.max(...out.map(Math.abs));
  assert.ok(Math.abs(peak - 16000 / 32768) < 0.01, `peak ${peak}`);
});
