// The Screen tab without the DOM: joins the client (host messages, connection state, sealed binary) to the
// ScreenSession, asks for keyframes through KeyframeRequests, and routes media packets by their first byte —
// 1 video to `onVideo`, 2 audio to the sound hook (a no-op until a player is attached).
import { ScreenSession } from './screen-session.js';
import { KeyframeRequests } from './keyframes.js';
import { PACKET_AUDIO, PACKET_VIDEO, packetKind, parseVideo } from './packets.js';
import { log } from './log.js';
import { answers } from './errors.js';

const HOST_MESSAGES = ['displays', 'screenStarted', 'screenDenied', 'screenPending', 'screenStopped', 'screenPermission'];
/** The screen messages the host may answer with an `error` (PROTOCOL §1: `error.request` names which). */
const SCREEN_REQUESTS = ['listDisplays', 'startScreen', 'stopScreen'];

export class ViewerCore {
  /**
   * @param {object} o
   * @param {EventTarget & {send: Function, state: string}} o.client  the DeckClient (or a fake)
   * @param {Function} o.perform   `(action) => void` for the UI's actions: show, resetDecoder, endInput
   * @param {Function} o.onVideo   `(packet, arrivedAt) => void` for each parsed video packet
   * @param {Function} [o.now]     milliseconds, monotonic
   */
  constructor({ client, perform, onVideo, now = () => performance.now(), timers = globalThis, fps = 60,
    maxSide = 1920, audio = false, preferredDisplayId = null }) {
    Object.assign(this, { client, perform, onVideo, now, timers });
    this.retry = null;
    this.session = new ScreenSession({ fps, maxSide, audio, preferredDisplayId });
    this.keyframes = new KeyframeRequests();
    this.onAudio = () => {};
    /** What arrived and what was asked, for the latency readout and the tests. */
    this.counts = { starts: 0, video: 0, keyframes: 0, keyframeRequests: 0 };
    for (const type of HOST_MESSAGES) {
      client.addEventListener(type, ({ detail }) => this.event(ScreenSession.eventFor(detail), detail));
    }
    client.addEventListener('state', ({ detail }) => {
      if (detail.state === 'ready') this.event('online');
      else if (detail.previous === 'ready') this.event('offline');
    });
    client.addEventListener('binary', ({ detail }) => this.packet(detail.bytes));
    client.addEventListener('hostError', (event) => this.#hostError(event));
  }

  get state() { return this.session.state; }

  /** Feeds a session event and performs what it returns. */
  event(name, detail = {}) {
    if (name === 'started') this.counts.starts += 1;
    for (const action of this.session.handle(name, detail)) this.#do(action);
  }

  /** 30 or 60 fps, and sound on or off: applied at once while streaming, else on the next start. */
  setOptions(options) {
    for (const action of this.session.setOptions(options)) this.#do(action);
  }

  /**
   * The decoder could not decode a frame: ask for a keyframe, at most every 0.5 s. A request held back by that
   * limit goes out when it expires, since a still screen may send nothing else to fail on.
   */
  decodeFailed() {
    if (this.session.state !== 'viewing') return;
    if (this.keyframes.failed(this.now())) {
      this.#requestKeyframe();
      return;
    }
    if (this.retry !== null) return;
    this.retry = this.timers.setTimeout(() => {
      this.retry = null;
      this.decodeFailed();
    }, this.keyframes.wait(this.now()));
  }

  /** One opened binary message from the host. */
  packet(bytes) {
    const kind = packetKind(bytes);
    if (kind === PACKET_AUDIO) {
      this.onAudio(bytes);
      return;
    }
    if (kind !== PACKET_VIDEO || !['viewing', 'starting'].includes(this.session.state)) return;
    const video = parseVideo(bytes);
    if (video) {
      this.counts.video += 1;
      if (video.keyframe) this.counts.keyframes += 1;
      this.onVideo(video, this.now());
    }
    else log.debug('dropped a short video packet', { bytes: bytes.length });
  }

  // An error answering our list or start ends the wait with the reason (the tab shows it and offers a retry). One
  // answering `stopScreen` needs nothing shown: we had stopped already. Without `error.request` (older hosts),
  // an error that arrives while the list or a start is awaited is taken as its answer.
  #hostError(event) {
    const error = event.detail;
    const waiting = ['listing', 'starting', 'approval'].includes(this.session.state);
    if (!answers(error, SCREEN_REQUESTS, () => waiting)) return;
    if (error.request === 'stopScreen') {
      event.preventDefault();
      log.info('stopScreen was refused', { code: error.code, message: error.message });
      return;
    }
    if (!this.session.accepts('failed')) return;
    event.preventDefault();
    this.event('failed', error);
  }

  #requestKeyframe() {
    this.counts.keyframeRequests += 1;
    this.client.send({ type: 'requestKeyframe' });
  }

  #do(action) {
    if (action.type === 'send') this.client.send(action.message);
    else if (action.type === 'requestKeyframe') {
      this.keyframes.started(this.now());
      this.#requestKeyframe();
    } else this.perform(action);
  }
}
