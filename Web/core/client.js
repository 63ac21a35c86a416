// The device's connection to the host: one object that emits events, with its connection state as an
// explicit transition table (DESIGN.md#web-client-code). DOM-free, so `node --test` drives it with a fake socket.
import { log } from './log.js';

// Node 18 has EventTarget and Event but no CustomEvent (a global from Node 19); the fallback carries `detail`
// the same way, so the JS tests also run on Debian's and Ubuntu's own Node.
const DetailEvent = globalThis.CustomEvent ?? class extends Event {
  constructor(type, init = {}) {
    super(type, init);
    this.detail = init.detail ?? null;
  }
};

/** state → event → next state. Anything not listed is ignored (and logged at debug). */
export const TRANSITIONS = {
  idle: { start: 'connecting' },
  connecting: { open: 'greeting', close: 'waiting', stop: 'idle' },
  greeting: { needPairing: 'needPin', authRequired: 'authenticating', close: 'waiting', stop: 'idle' },
  needPin: { pin: 'pairing', close: 'waiting', stop: 'idle' },
  pairing: { paired: 'authenticating', failed: 'needPin', close: 'waiting', stop: 'idle' },
  authenticating: { authorized: 'ready', needPairing: 'needPin', close: 'waiting', stop: 'idle' },
  ready: { close: 'waiting', stop: 'idle' },
  waiting: { retry: 'connecting', stop: 'idle' },
};

/** Reconnect delays in ms; the last one repeats. Reset once a session is authorized. */
export const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 10000];

export function nextState(state, event) {
  return TRANSITIONS[state]?.[event] ?? null;
}

export class DeckClient extends EventTarget {
  /**
   * @param {object} o
   * @param {string} o.url          the `/ws` address
   * @param {object} o.storage      `getItem`/`setItem`/`removeItem` (localStorage in the browser)
   * @param {object} o.handshake    the pairing/auth/sealing functions (Web/core/handshake.js)
   * @param {Function} o.WebSocket  the WebSocket class
   * @param {string} o.name         this device's name, shown on the host
   * @param {object} [o.timers]     `{ setTimeout, clearTimeout }` for tests
   */
  constructor({ url, storage, handshake, WebSocket, name, protocol = 3, timers = globalThis }) {
    super();
    Object.assign(this, { url, storage, handshake, WebSocketImpl: WebSocket, name, protocol, timers });
    this.state = 'idle';
    this.attempt = 0;
    this.socket = null;
    this.flow = null;
    this.channel = null;
    this.hostName = '';
    this.hostProtocol = null;
    this.everOpened = false;
  }

  get credentials() {
    const deviceId = this.storage.getItem('touchdeck.deviceId');
    const secret = this.storage.getItem('touchdeck.secret');
    return deviceId && secret ? { deviceId, secret } : null;
  }

  start() { this.#fire('start'); }

  stop() { this.#fire('stop'); }

  /** Called when the page becomes visible again: a waiting client retries at once. */
  wake() { if (this.state === 'waiting') this.#fire('retry'); }

  /** The PIN the user typed; it is used for SPAKE2 and never stored or logged. */
  async submitPin(pin) {
    if (this.state !== 'needPin') return;
    this.#fire('pin');
    try {
      this.flow = this.handshake.startPairing({ pin, name: this.name });
      this.#sendPlain(await this.flow.first());
    } catch (error) {
      this.#emit('pairingFailed', { reason: 'badMessage', remaining: 0 });
      this.#fire('failed');
    }
  }

  /** Sends a message sealed; only in the `ready` state. Returns false when it could not be sent. */
  send(message) {
    if (this.state !== 'ready' || !this.channel) return false;
    this.socket.send(this.channel.sealText(JSON.stringify(message)));
    return true;
  }

  #fire(event, detail = {}) {
    const next = nextState(this.state, event);
    if (!next) {
      log.debug('ignored event', { state: this.state, event });
      return;
    }
    const previous = this.state;
    this.state = next;
    this.#enter(next, previous, detail);
    this.#emit('state', { state: next, previous, ...detail });
  }

  #enter(state, previous, detail) {
    if (state === 'connecting') this.#open();
    if (state === 'waiting') this.#scheduleRetry();
    if (state === 'idle') this.#closeSocket();
    if (state === 'ready') this.attempt = 0;
    if (state === 'needPin' && previous === 'authenticating') this.#forgetCredentials();
    if (state === 'authenticating') this.#beginAuth(detail);
  }

  /** The `/ws` address; a paired device names itself in it too, so the host's front door keeps its place
   * from the upgrade on, before strangers could push it out (PROTOCOL §0). */
  #socketURL() {
    if (!this.credentials) return this.url;
    const separator = this.url.includes('?') ? '&' : '?';
    return `${this.url}${separator}device=${encodeURIComponent(this.credentials.deviceId)}`;
  }

  #open() {
    let socket;
    try {
      socket = new this.WebSocketImpl(this.#socketURL());
    } catch (error) {
      log.warn('cannot open socket', { error: String(error) });
      this.timers.setTimeout(() => this.#fire('close', { reason: 'cannotOpen' }), 0);
      return;
    }
    socket.binaryType = 'arraybuffer';
    this.socket = socket;
    socket.onopen = () => {
      this.everOpened = true;
      this.#fire('open');
      this.#sendPlain({ type: 'hello', protocol: this.protocol, name: this.name,
        ...(this.credentials ? { deviceId: this.credentials.deviceId } : {}) });
    };
    socket.onmessage = (event) => this.#receive(event.data).catch((error) => {
      log.warn('bad message from host', { error: String(error?.message ?? error) });
    });
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.channel = null;
      this.#fire('close', { everOpened: this.everOpened });
    };
    socket.onerror = () => {};
  }

  #closeSocket() {
    const socket = this.socket;
    this.socket = null;
    this.channel = null;
    this.timers.clearTimeout(this.retryTimer);
    socket?.close();
  }

  #scheduleRetry() {
    const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.attempt += 1;
    this.timers.clearTimeout(this.retryTimer);
    this.retryTimer = this.timers.setTimeout(() => this.#fire('retry'), delay);
  }

  #sendPlain(message) { this.socket?.send(JSON.stringify(message)); }

  #forgetCredentials() {
    this.storage.removeItem('touchdeck.deviceId');
    this.storage.removeItem('touchdeck.secret');
  }

  async #receive(data) {
    if (typeof data !== 'string') {
      if (this.channel) this.#emit('binary', { bytes: this.channel.openBinary(new Uint8Array(data)) });
      return;
    }
    const message = JSON.parse(data);
    if (message.type === 'secure' && this.channel) {
      this.#inner(this.channel.openText(message));
      return;
    }
    await this.#handshakeMessage(message);
  }

  async #handshakeMessage(message) {
    switch (message.type) {
      case 'needPairing':
        this.hostName = message.hostName ?? '';
        if (this.credentials) this.#emit('revoked', {});
        this.#forgetCredentials();
        this.#fire('needPairing');
        return;
      case 'authRequired':
        this.hostName = message.hostName ?? '';
        this.#fire('authRequired');
        return;
      case 'pairingFailed':
        this.flow = null;
        this.#emit('pairingFailed', message);
        this.#fire('failed');
        return;
      case 'unauthorized':
        this.#emit('unauthorized', message);
        if (message.reason === 'unknownDevice') {
          this.#emit('revoked', {});
          this.#fire('needPairing');
        }
        return;
      case 'error':
        this.#hostError(message);
        return;
      default:
        await this.#continueFlow(message);
    }
  }

  async #continueFlow(message) {
    if (!this.flow) return;
    const step = await this.flow.receive(message);
    if (step.send) this.#sendPlain(step.send);
    if (step.paired) {
      this.storage.setItem('touchdeck.deviceId', step.paired.deviceId);
      this.storage.setItem('touchdeck.secret', step.paired.secret);
      this.flow = null;
      this.#fire('paired');
    }
    if (step.channel) {
      this.channel = step.channel;
      this.flow = null;
    }
  }

  async #beginAuth() {
    const credentials = this.credentials;
    if (!credentials) return;
    try {
      this.flow = this.handshake.startAuth(credentials);
      this.#sendPlain(await this.flow.first());
    } catch (error) {
      log.warn('auth could not start', { error: String(error?.message ?? error) });
    }
  }

  #inner(message) {
    if (message.type === 'authorized') {
      this.hostName = message.hostName ?? this.hostName;
      this.hostProtocol = message.protocol ?? 1;
      this.#fire('authorized');
      return;
    }
    this.#emit('message', message);
    if (message.type === 'error') this.#hostError(message);
    else this.#emit(message.type, message);
  }

  // Every error the host sends, plain or sealed, is one `hostError`. `detail.request` (when the host says it)
  // names the device message it answers, so the place waiting for that answer can take it: a listener that
  // handles the error calls `preventDefault()`. An error nobody took is raised again as `unhandledError`, which
  // the UI shows as a toast.
  #hostError(message) {
    const event = new DetailEvent('hostError', { detail: message, cancelable: true });
    if (this.dispatchEvent(event)) this.#emit('unhandledError', message);
  }

  #emit(type, detail) { this.dispatchEvent(new DetailEvent(type, { detail })); }
}
