// The handshake and envelope messages this code sends have the same shape as Tests/Fixtures/messages
// (the files the Swift and Python sides decode), and the host messages in those files are accepted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DeviceAuth, DevicePairing } from '../core/handshake.js';
import { decodeBase64 } from '../core/base64.js';
import { SecureChannel } from '../core/secure.js';
import { FakeHost } from './fake-host.js';
import { loadJSON } from './support.js';

const fixture = (type) => loadJSON(`Tests/Fixtures/messages/${type}.json`);

/** Same keys, same value types, and base64 fields that decode to the same length as the fixture's. */
function assertSameShape(sent, type) {
  const expected = fixture(type);
  assert.deepEqual(Object.keys(sent).sort(), Object.keys(expected).sort(), type);
  for (const [key, value] of Object.entries(expected)) {
    assert.equal(typeof sent[key], typeof value, `${type}.${key}`);
    if (['pA', 'pB', 'eA', 'eB', 'cA', 'cB', 'proof'].includes(key)) {
      assert.equal(decodeBase64(sent[key]).length, decodeBase64(value).length, `${type}.${key} length`);
    }
  }
}

test('pairStart, pairConfirm, authStart, authFinish and secure match the fixture shapes', async () => {
  const host = new FakeHost();
  const pairing = await DevicePairing.create({ pin: '123456', name: 'iPad' });
  const start = pairing.start();
  assertSameShape(start, 'pairStart');
  const { send: confirm } = await pairing.receive(await host.pairStart(start));
  assertSameShape(confirm, 'pairConfirm');
  const paired = await host.pairConfirm(confirm);
  assertSameShape(paired, 'paired');
  const { paired: credentials } = await pairing.receive(paired);
  const auth = await DeviceAuth.create(credentials);
  const authStart = auth.start();
  assertSameShape(authStart, 'authStart');
  const { send: finish, channel } = await auth.receive(await host.authStart(authStart));
  assertSameShape(finish, 'authFinish');
  assertSameShape(JSON.parse(channel.sealText({ type: 'listApps' })), 'secure');
});

test('the pairingFailed and unauthorized fixtures are understood', async () => {
  const pairing = await DevicePairing.create({ pin: '123456' });
  pairing.start();
  const failed = fixture('pairingFailed');
  assert.deepEqual(await pairing.receive(failed),
    { failed: { reason: failed.reason, remaining: failed.remaining, retryAfter: failed.retryAfter } });
  const auth = await DeviceAuth.create({ deviceId: fixture('authStart').deviceId, secret: new Uint8Array(32) });
  auth.start();
  assert.deepEqual(await auth.receive(fixture('unauthorized')), { failed: { reason: fixture('unauthorized').reason } });
});

test('the secure fixture is a well-formed envelope (it opens to badSignature, not a shape error)', () => {
  const channel = new SecureChannel({ sendKey: new Uint8Array(32), receiveKey: new Uint8Array(32) });
  assert.throws(() => channel.openText(fixture('secure')), (error) => error.code === 'badSignature');
});
