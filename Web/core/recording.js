// Recording on the device side (PROTOCOL §6 "Recording", DESIGN.md#recording): what a record key shows from the last
// `recordState` and a clock, and the fetch of a file in chunks. DOM-free, so `node --test` drives it with a
// fake client and a fake clock.
import { decodeBase64 } from './base64.js';
import { toHex } from './bytes.js';
import { answers, describeError } from './errors.js';

/** "0:05", "12:34", "1:02:03" for a length in milliseconds. */
export function formatClock(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const [hours, minutes, seconds] = [Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60];
  const ss = String(seconds).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${ss}` : `${minutes}:${ss}`;
}

/** "900 B", "12.3 KB", "4.5 MB", "1.2 GB" (powers of 1000, as the share sheets and Photos count). */
export function formatSize(bytes) {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = -1;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value >= 100 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

/**
 * The host's recording as this device knows it. The host sends `elapsedMs` with each `recordState`; while
 * recording the device adds the time since that message itself (PROTOCOL §6), from `now`.
 */
export class RecordingStatus {
  constructor(now = () => Date.now()) {
    this.now = now;
    this.message = { state: 'idle' };
    this.receivedAt = now();
  }

  /** Takes a `recordState` message. */
  update(message) {
    this.message = message;
    this.receivedAt = this.now();
  }

  get state() { return this.message.state ?? 'idle'; }

  /** Recorded so far (pauses left out); 0 when idle. */
  elapsedMs() {
    const base = this.message.elapsedMs ?? 0;
    if (this.state === 'recording') return base + Math.max(0, this.now() - this.receivedAt);
    return this.state === 'paused' ? base : 0;
  }

  /** The line a record key and the toolbar show: "Not recording", "Recording 0:12", "Paused 0:12". */
  caption() {
    switch (this.state) {
      case 'recording': return `Recording ${formatClock(this.elapsedMs())}`;
      case 'paused': return `Paused ${formatClock(this.elapsedMs())}`;
      default: return 'Not recording';
    }
  }

  /** The message a record control sends when pressed: stop a running or paused recording, else start. */
  toggleMessage({ displayId, fps = 30, maxSide } = {}) {
    if (this.state !== 'idle') return { type: 'recordStop' };
    const start = { type: 'recordStart', fps };
    if (displayId != null) start.displayId = displayId;
    if (maxSide != null) start.maxSide = maxSide;
    return start;
  }
}

/** Why a fetch did not give the file. */
export class FetchError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/**
 * The bytes of one file as its `recordingChunk`s arrive. `offset` is how many are held: the next request, and
 * the place to resume after a reconnect. A chunk for another offset is ignored (an answer to a request made on
 * a connection that is gone); a change of size or SHA-256 means the file changed: start again from 0.
 */
export class ChunkAssembler {
  constructor(name) {
    this.name = name;
    this.parts = [];
    this.offset = 0;
    this.size = null;
    this.sha256 = null;
  }

  /** `'more'`, `'done'`, `'ignored'` or `'restart'`. Throws FetchError on a chunk that cannot be right. */
  accept(chunk) {
    if (chunk.name !== this.name || chunk.offset !== this.offset) return 'ignored';
    if (this.sha256 != null && (chunk.sha256 !== this.sha256 || chunk.size !== this.size)) {
      this.#reset();
      return 'restart';
    }
    const bytes = decodeBase64(chunk.data ?? '');
    this.size = chunk.size;
    this.sha256 = chunk.sha256;
    if (bytes.length === 0 && this.offset < this.size) {
      throw new FetchError('truncated', `${this.name} ended at ${this.offset} of ${this.size} bytes`);
    }
    if (this.offset + bytes.length > this.size) {
      throw new FetchError('overrun', `${this.name} sent more than its ${this.size} bytes`);
    }
    this.parts.push(bytes);
    this.offset += bytes.length;
    return this.offset === this.size ? 'done' : 'more';
  }

  /** The whole file, once `accept` said `'done'`. */
  bytes() {
    const out = new Uint8Array(this.offset);
    let at = 0;
    for (const part of this.parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }

  #reset() {
    this.parts = [];
    this.offset = 0;
    this.size = null;
    this.sha256 = null;
  }
}

/**
 * Fetches recordings through a DeckClient, one chunk in flight (the host refuses a second), one file at a time.
 * After a reconnect it asks again from the bytes it holds. The whole file is checked against the host's
 * SHA-256 before it is handed on.
 *
 * @param client  `send(message) → bool`, events `recordingChunk`, `hostError` and `state` (`detail.state`)
 * @param sha256  `async (bytes) → Uint8Array` (WebCrypto in the browser)
 */
export class RecordingFetcher {
  constructor(client, { sha256 }) {
    this.client = client;
    this.sha256 = sha256;
    this.active = null;
    this.queue = Promise.resolve();
    client.addEventListener('recordingChunk', ({ detail }) => this.#chunk(detail));
    client.addEventListener('state', ({ detail }) => { if (detail.state === 'ready') this.#ask(); });
    client.addEventListener('hostError', (event) => this.#hostError(event));
  }

  /** The file's bytes; `onProgress(held, size)` after each chunk. Rejects with FetchError. */
  fetch(name, onProgress = () => {}) {
    return this.fetchFile(name, onProgress).then((file) => file.bytes);
  }

  /** As `fetch`, with what the host said of the file: `{ bytes, size, sha256 }`. */
  fetchFile(name, onProgress = () => {}) {
    return this.#enqueue((resolve, reject) => {
      this.active = { assembler: new ChunkAssembler(name), onProgress, resolve, reject };
      this.#ask();
    });
  }

  /**
   * What the host has now under `name`: `{ size, sha256 }`, from one chunk asked at `offset` (a file's known size:
   * the answer at the end carries no data). A file kept on the device is stale when either differs.
   */
  check(name, offset) {
    return this.#enqueue((resolve, reject) => {
      this.active = { check: { name, offset }, assembler: { name, offset }, resolve, reject };
      this.#ask();
    });
  }

  #enqueue(start) {
    const run = () => new Promise(start);
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => {});
    return result;
  }

  /** The name being fetched now, if any. */
  get fetching() { return this.active?.assembler.name ?? null; }

  // Not connected: the request waits for the next `ready`.
  #ask() {
    if (!this.active) return;
    const { name, offset } = this.active.assembler;
    this.client.send({ type: 'fetchRecording', name, offset });
  }

  async #chunk(chunk) {
    const active = this.active;
    if (!active) return;
    if (active.check) {
      if (chunk.name !== active.check.name || chunk.offset !== active.check.offset) return;
      return this.#finish(active, null, { size: chunk.size, sha256: chunk.sha256 });
    }
    let step;
    try {
      step = active.assembler.accept(chunk);
    } catch (error) {
      return this.#finish(active, error);
    }
    if (step === 'ignored') return;
    active.onProgress(active.assembler.offset, active.assembler.size);
    if (step !== 'done') return this.#ask();
    const bytes = active.assembler.bytes();
    const digest = toHex(await this.sha256(bytes));
    if (digest !== active.assembler.sha256) {
      return this.#finish(active, new FetchError('digest', `${active.assembler.name} did not arrive whole (SHA-256 differs)`));
    }
    this.#finish(active, null, { bytes, size: active.assembler.size, sha256: active.assembler.sha256 });
  }

  // An error answering `fetchRecording` (a file deleted on the computer, one still being recorded) ends the
  // fetch with its reason, and the next fetch can go. Hosts that do not say `error.request` name the file.
  #hostError(event) {
    const error = event.detail;
    const active = this.active;
    if (!active) return;
    const named = () => String(error.message ?? '').includes(active.assembler.name);
    if (!answers(error, 'fetchRecording', named)) return;
    event.preventDefault();
    this.#finish(active, new FetchError(error.code ?? 'error', error.message || describeError(error)));
  }

  #finish(active, error, bytes) {
    if (this.active !== active) return;
    this.active = null;
    if (error) active.reject(error);
    else active.resolve(bytes);
  }
}
