import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DeviceAuth, DevicePairing, HandshakeError, startAuth, startPairing } from '../core/handshake.js';
import { encodeBase64 } from '../core/base64.js';
import { FakeHost } from './fake-host.js';

const code = (expected) => (error) => error instanceof HandshakeError && error.code === expected;

async function pair(host, pin = '123456') {
  const pairing = await DevicePairing.create({ pin, name: 'iPad' });
  const start = pairing.start();
  assert.equal(start.type, 'pairStart');
  assert.equal(start.name, 'iPad');
  const { send } = await pairing.receive(await host.pairStart(start));
  assert.equal(send.type, 'pairConfirm');
  return { pairing, result: await pairing.receive(JSON.stringify(await host.pairConfirm(send))) };
}

test('pairing with the right PIN yields the deviceId and the secret the host stored', async () => {
  const host = new FakeHost();
  const { result } = await pair(host);
  assert.match(result.paired.deviceId, /^[0-9a-f]{32}$/);
  assert.deepEqual(result.paired.secret, host.secrets.get(result.paired.deviceId));
});

test('a wrong PIN gives failed{wrongPin, remaining 4}', async () => {
  const { result } = await pair(new FakeHost(), '654321');
  assert.deepEqual(result, { failed: { reason: 'wrongPin', remaining: 4 } });
});

test('a host that does not know the PIN is refused at cB (badConfirmation)', async () => {
  const impostor = new FakeHost({ pin: '000000', lie: true });
  await assert.rejects(pair(impostor), code(HandshakeError.BAD_CONFIRMATION));
});

test('pairingFailed before the challenge (noPin, back-off) is reported with its fields', async () => {
  const pairing = await DevicePairing.create({ pin: '123456' });
  pairing.start();
  const result = await pairing.receive({ type: 'pairingFailed', reason: 'noPin', remaining: 0, retryAfter: 30 });
  assert.deepEqual(result, { failed: { reason: 'noPin', remaining: 0, retryAfter: 30 } });
  await assert.rejects(pairing.receive({ type: 'pairChallenge' }), code(HandshakeError.UNEXPECTED));
});

test('a tampered secret box is refused (badMessage)', async () => {
  const host = new FakeHost();
  const pairing = await DevicePairing.create({ pin: '123456' });
  const { send } = await pairing.receive(await host.pairStart(pairing.start()));
  const paired = await host.pairConfirm(send);
  await assert.rejects(pairing.receive({ ...paired, deviceId: paired.deviceId.replace(/^./, 'x') }),
    code(HandshakeError.BAD_MESSAGE));
});

test('auth after pairing: proofs check, and sealed text flows both ways', async () => {
  const host = new FakeHost();
  const { result } = await pair(host);
  const auth = await DeviceAuth.create(result.paired);
  const start = auth.start();
  assert.equal(start.deviceId, result.paired.deviceId);
  const { send, channel } = await auth.receive(await host.authStart(start));
  assert.equal(send.type, 'authFinish');
  const { reply, channel: hostChannel } = await host.authFinish(send);
  assert.deepEqual(channel.openText(reply), { type: 'authorized', protocol: 2, hostName: 'fake' });
  assert.deepEqual(hostChannel.openText(channel.sealText({ type: 'listApps' })), { type: 'listApps' });
  await assert.rejects(auth.receive({ type: 'authChallenge' }), code(HandshakeError.UNEXPECTED));
});

test('a host without the device secret is refused at its proof (badProof)', async () => {
  const auth = await DeviceAuth.create({ deviceId: 'ab'.repeat(16), secret: new Uint8Array(32).fill(9) });
  const impostor = new FakeHost({ lie: true });
  await assert.rejects(auth.receive(await impostor.authStart(auth.start())), code(HandshakeError.BAD_PROOF));
});

test('unauthorized{unknownDevice} tells the device to pair again', async () => {
  const auth = await DeviceAuth.create({ deviceId: 'ab'.repeat(16), secret: new Uint8Array(32) });
  const reply = await new FakeHost().authStart(auth.start());
  assert.deepEqual(await auth.receive(reply), { failed: { reason: 'unknownDevice' } });
});

const point = encodeBase64(new Uint8Array(65).fill(4));
const garbage = ['', 'garbage', '{"type":"pairCh', '[1,2]', 'null', '42', null, undefined, 7, [], {},
  { type: 5 }, { type: 'pairChallenge' }, { type: 'pairChallenge', pB: 'AAAA' }, { type: 'pairChallenge', pB: 17 },
  { type: 'pairChallenge', pB: '@@@@' }, { type: 'pairChallenge', pB: point },
  { type: 'pairChallenge', pB: encodeBase64(new Uint8Array(64)) }];

test('garbage or truncated pairing messages give HandshakeError(badMessage), not TypeError', async () => {
  for (const message of garbage) {
    const pairing = await DevicePairing.create({ pin: '123456' });
    pairing.start();
    await assert.rejects(pairing.receive(message), code(HandshakeError.BAD_MESSAGE), JSON.stringify(message));
  }
});

test('garbage paired and authChallenge messages give HandshakeError(badMessage)', async () => {
  const host = new FakeHost();
  const pairing = await DevicePairing.create({ pin: '123456' });
  const { send } = await pairing.receive(await host.pairStart(pairing.start()));
  const paired = await host.pairConfirm(send);
  for (const broken of [{ type: 'paired' }, { ...paired, cB: 'AAAA' }, { ...paired, box: undefined },
    { ...paired, deviceId: 12 }, { ...paired, box: paired.box.slice(0, -8) }]) {
    await assert.rejects(pairing.receive(broken), code(HandshakeError.BAD_MESSAGE), JSON.stringify(broken));
  }
  for (const broken of [{ type: 'authChallenge' }, { type: 'authChallenge', eB: point, proof: encodeBase64(new Uint8Array(32)) },
    { type: 'authChallenge', eB: point.slice(4), proof: 'AAAA' }, '{"type":"authChall']) {
    const auth = await DeviceAuth.create({ deviceId: 'ab'.repeat(16), secret: new Uint8Array(32) });
    auth.start();
    await assert.rejects(auth.receive(broken), code(HandshakeError.BAD_MESSAGE), JSON.stringify(broken));
  }
});

test('PIN must be six digits', async () => {
  for (const pin of ['12345', '1234567', 'abcdef', 123456, undefined]) {
    await assert.rejects(DevicePairing.create({ pin }), RangeError);
  }
});

test('startPairing/startAuth flows give storable base64 credentials that authenticate', async () => {
  const host = new FakeHost();
  const pairing = startPairing({ pin: '123456', name: 'Pixel' });
  await assert.rejects(pairing.receive({ type: 'pairChallenge' }), code(HandshakeError.UNEXPECTED));
  const { send } = await pairing.receive(await host.pairStart(await pairing.first()));
  const { paired } = await pairing.receive(await host.pairConfirm(send));
  assert.equal(typeof paired.secret, 'string');
  assert.equal(Buffer.from(paired.secret, 'base64').toString('hex'),
    Buffer.from(host.secrets.get(paired.deviceId)).toString('hex'));
  const auth = startAuth(paired);
  const { send: finish, channel } = await auth.receive(await host.authStart(await auth.first()));
  const { reply } = await host.authFinish(finish);
  assert.equal(channel.openText(reply).type, 'authorized');
  await assert.rejects(DeviceAuth.create({ deviceId: paired.deviceId, secret: 'not base64!' }), RangeError);
});
