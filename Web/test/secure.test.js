// The seed's attack table on sealed messages, plus malformed input. Every refusal must be a
// SecureChannelError with the expected code, never a raw TypeError.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BINARY_OVERHEAD, SecureChannel, SecureChannelError } from '../core/secure.js';
import { decodeBase64, encodeBase64 } from '../core/base64.js';

function channels() {
  const hostToDevice = new Uint8Array(32).fill(0x11);
  const deviceToHost = new Uint8Array(32).fill(0x22);
  return {
    device: new SecureChannel({ sendKey: deviceToHost, receiveKey: hostToDevice }),
    host: new SecureChannel({ sendKey: hostToDevice, receiveKey: deviceToHost }),
  };
}

function refused(action, code) {
  assert.throws(action, (error) => error instanceof SecureChannelError && error.code === code);
}

const payload = Uint8Array.from({ length: 1000 }, (_, i) => i * 7);

test('sealed text and binary open on the other side; binary overhead is 36 bytes', () => {
  const { device, host } = channels();
  const wire = host.sealText({ type: 'authorized', protocol: 2, hostName: 'desk' });
  assert.deepEqual(JSON.parse(wire).seq, 1);
  assert.deepEqual(device.openText(wire), { type: 'authorized', protocol: 2, hostName: 'desk' });
  assert.deepEqual(device.openText(host.sealText('{"type":"layout","pages":[]}')), { type: 'layout', pages: [] });
  const frame = host.sealBinary(payload);
  assert.equal(frame.length, payload.length + BINARY_OVERHEAD);
  assert.equal(BINARY_OVERHEAD, 36);
  assert.deepEqual(device.openBinary(frame.buffer), payload);
  assert.deepEqual(host.openText(device.sealText({ type: 'press', page: 0, index: 3 })), { type: 'press', page: 0, index: 3 });
});

test('attack: flipped last byte is refused (badSignature), text and binary', () => {
  const { device, host } = channels();
  const frame = host.sealBinary(payload);
  frame[frame.length - 1] ^= 1;
  refused(() => device.openBinary(frame), SecureChannelError.BAD_SIGNATURE);
  const envelope = JSON.parse(host.sealText({ type: 'volume', level: 0.5 }));
  const box = decodeBase64(envelope.box);
  box[box.length - 1] ^= 1;
  refused(() => device.openText({ ...envelope, box: encodeBase64(box) }), SecureChannelError.BAD_SIGNATURE);
});

test('attack: changed seq only is refused (badSignature), text and binary', () => {
  const { device, host } = channels();
  const frame = host.sealBinary(payload);
  frame[7] = 2;
  refused(() => device.openBinary(frame), SecureChannelError.BAD_SIGNATURE);
  const envelope = JSON.parse(host.sealText({ type: 'volume', level: 0.5 }));
  refused(() => device.openText({ ...envelope, seq: 2 }), SecureChannelError.BAD_SIGNATURE);
});

test('attack: a replayed frame or envelope is refused (replayed); older seqs too', () => {
  const { device, host } = channels();
  const first = host.sealBinary(payload);
  const second = host.sealBinary(payload);
  device.openBinary(first.slice());
  refused(() => device.openBinary(first), SecureChannelError.REPLAYED);
  device.openBinary(second);
  refused(() => device.openBinary(first), SecureChannelError.REPLAYED);
  const text = host.sealText({ type: 'typed', ok: true });
  device.openText(text);
  refused(() => device.openText(text), SecureChannelError.REPLAYED);
});

test('attack: text box re-sent as binary, and binary re-sent as text, is refused (badSignature)', () => {
  const { device, host } = channels();
  const envelope = JSON.parse(host.sealText({ type: 'authorized' }));
  const forged = new Uint8Array(8 + decodeBase64(envelope.box).length);
  forged[7] = 1;
  forged.set(decodeBase64(envelope.box), 8);
  refused(() => device.openBinary(forged), SecureChannelError.BAD_SIGNATURE);
  const frame = host.sealBinary(payload);
  const asText = { type: 'secure', seq: 1, box: encodeBase64(frame.subarray(8)) };
  refused(() => device.openText(asText), SecureChannelError.BAD_SIGNATURE);
});

test('attack: a message reflected to its sender does not open (keys differ per direction)', () => {
  const { host } = channels();
  refused(() => host.openText(host.sealText({ type: 'authorized' })), SecureChannelError.BAD_SIGNATURE);
  refused(() => host.openBinary(host.sealBinary(payload)), SecureChannelError.BAD_SIGNATURE);
});

test('text and binary count separately, both from 1', () => {
  const { device, host } = channels();
  for (let i = 0; i < 5; i++) device.openText(host.sealText({ type: 'volume', level: i / 5 }));
  const frame = host.sealBinary(payload);
  assert.deepEqual(Array.from(frame.subarray(0, 8)), [0, 0, 0, 0, 0, 0, 0, 1]);
  assert.deepEqual(device.openBinary(frame), payload);
  assert.equal(JSON.parse(host.sealText({ type: 'typed', ok: true })).seq, 6);
});

test('malformed envelopes and frames give notSecure / badMessage, never a raw TypeError', () => {
  const { device, host } = channels();
  const notSecure = SecureChannelError.NOT_SECURE;
  for (const bad of ['not json', '[]', 'null', '{"type":"press"}', { type: 'secure', seq: 1 },
    { type: 'secure', seq: 0, box: 'AAAA' }, { type: 'secure', seq: '1', box: 'AAAA' },
    { type: 'secure', seq: 1.5, box: 'AAAA' }, { type: 'secure', seq: 1, box: '!!!!' },
    { type: 'secure', seq: 1, box: 42 }, { type: 'secure', seq: 1, box: 'AAAA' }, null, 7]) {
    refused(() => device.openText(bad), notSecure);
  }
  for (const bad of [new Uint8Array(35), new ArrayBuffer(0), 'frame', null, [1, 2, 3]]) {
    refused(() => device.openBinary(bad), notSecure);
  }
  refused(() => device.openText(host.sealText('not json inside')), SecureChannelError.BAD_MESSAGE);
  refused(() => device.openText(host.sealText('{"no":"type"}')), SecureChannelError.BAD_MESSAGE);
});

test('keys must be 32 bytes', () => {
  assert.throws(() => new SecureChannel({ sendKey: new Uint8Array(16), receiveKey: new Uint8Array(32) }), RangeError);
  assert.throws(() => new SecureChannel({}), RangeError);
});
