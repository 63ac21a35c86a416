#!/usr/bin/env node
// Throughput of the web client's sealed binary path: SecureChannel.sealBinary + openBinary on 300 KB
// frames (a large H.264 keyframe), the work a browser does per video frame.
// Usage: node Web/bench/crypto-bench.mjs [--seconds S] [--json]
import { SecureChannel } from '../core/secure.js';

const FRAME_BYTES = 300 * 1024;
const args = process.argv.slice(2);
const seconds = Number(args[args.indexOf('--seconds') + 1]) || 3;
const asJson = args.includes('--json');

const hostToDevice = new Uint8Array(32).fill(1);
const deviceToHost = new Uint8Array(32).fill(2);
const host = new SecureChannel({ sendKey: hostToDevice, receiveKey: deviceToHost });
const device = new SecureChannel({ sendKey: deviceToHost, receiveKey: hostToDevice });
const frame = Uint8Array.from({ length: FRAME_BYTES }, (_, i) => (i * 131) & 255);

/** Runs `step` for about `duration` seconds after a warm-up; returns MB/s of frame payload. */
function measure(step, duration) {
  for (let i = 0; i < 20; i++) step();
  let frames = 0;
  const start = performance.now();
  while (performance.now() - start < duration * 1000) {
    step();
    frames += 1;
  }
  const elapsed = (performance.now() - start) / 1000;
  return (frames * FRAME_BYTES) / 1e6 / elapsed;
}

const sealed = host.sealBinary(frame);
const results = {
  sealOpenMBps: measure(() => device.openBinary(host.sealBinary(frame)), seconds),
  sealMBps: measure(() => host.sealBinary(frame), seconds / 2),
  // Opening the same frame again would be a replay, so reset the counter the receiver keeps.
  openMBps: measure(() => { device.receivedBinary = 0n; device.openBinary(sealed); }, seconds / 2),
};

if (asJson) {
  console.log(JSON.stringify({ frameBytes: FRAME_BYTES, ...results }));
} else {
  console.log(`js chacha20-poly1305, 300 KB binary frames: seal+open ${results.sealOpenMBps.toFixed(1)} MB/s ` +
    `(seal ${results.sealMBps.toFixed(1)} MB/s, open ${results.openMBps.toFixed(1)} MB/s)`);
}
