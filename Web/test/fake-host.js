// A host side of §3–§4 built from the same primitives (SPAKE2 role B, secret box, auth proofs), so the
// device state machines can be driven without sockets. The Swift peer test checks real interop.
import * as p256 from '../core/p256.js';
import { aeadSeal } from '../core/chacha20poly1305.js';
import { decodeBase64, encodeBase64 } from '../core/base64.js';
import { constantTimeEqual, randomBytes, toHex, utf8 } from '../core/bytes.js';
import { SecureChannel } from '../core/secure.js';
import { ID_DEVICE, ID_HOST, M, N, passwordScalar, randomScalar, transcript, transcriptKeys } from '../core/spake2.js';
import { authKeys, deviceProof, hostProof, pairingBoxKey } from '../core/handshake.js';
import { ecdhSharedSecret, generateEcdhKeyPair } from '../core/webcrypto.js';

/** Test host: `pin` it expects; `secrets` maps deviceId → secret; `lie` skips checks to act as an impostor. */
export class FakeHost {
  constructor({ pin = '123456', lie = false } = {}) {
    this.pin = pin;
    this.lie = lie;
    this.remaining = 5;
    this.secrets = new Map();
  }

  async pairStart(message) {
    const w = await passwordScalar(this.pin);
    const y = randomScalar();
    const pA = decodeBase64(message.pA);
    const pB = p256.encodePoint(p256.add(p256.multiply(y, p256.G), p256.multiply(w, N)));
    const K = p256.encodePoint(p256.multiply(y, p256.add(p256.decodePoint(pA), p256.negate(p256.multiply(w, M)))));
    this.keys = await transcriptKeys(transcript({ idA: ID_DEVICE, idB: ID_HOST, pA, pB, K, w }));
    return { type: 'pairChallenge', pB: encodeBase64(pB) };
  }

  async pairConfirm(message) {
    if (!this.lie && !constantTimeEqual(decodeBase64(message.cA), this.keys.cA)) {
      this.remaining -= 1;
      return { type: 'pairingFailed', reason: 'wrongPin', remaining: this.remaining };
    }
    const deviceId = toHex(randomBytes(16));
    const secret = randomBytes(32);
    this.secrets.set(deviceId, secret);
    const nonce = randomBytes(12);
    const sealed = aeadSeal(await pairingBoxKey(this.keys.Ke), nonce, secret, utf8(deviceId));
    const box = new Uint8Array([...nonce, ...sealed]);
    return { type: 'paired', deviceId, cB: encodeBase64(this.keys.cB), box: encodeBase64(box) };
  }

  async authStart(message) {
    const secret = this.secrets.get(message.deviceId) ?? (this.lie ? randomBytes(32) : undefined);
    if (!secret) return { type: 'unauthorized', reason: 'unknownDevice' };
    const pair = await generateEcdhKeyPair();
    const eA = decodeBase64(message.eA);
    const Z = await ecdhSharedSecret(pair.privateKey, eA);
    this.authKeys = await authKeys({ deviceId: message.deviceId, secret, eA, eB: pair.publicKey, Z });
    return { type: 'authChallenge', eB: encodeBase64(pair.publicKey), proof: encodeBase64(await hostProof(this.authKeys)) };
  }

  /** Checks the device proof; on success returns the sealed `authorized` text and the host's channel. */
  async authFinish(message) {
    if (!constantTimeEqual(decodeBase64(message.proof), await deviceProof(this.authKeys))) {
      return { reply: { type: 'unauthorized', reason: 'badProof' } };
    }
    const channel = new SecureChannel({
      sendKey: this.authKeys.hostToDeviceKey,
      receiveKey: this.authKeys.deviceToHostKey,
    });
    return { reply: channel.sealText({ type: 'authorized', protocol: 2, hostName: 'fake' }), channel };
  }
}
