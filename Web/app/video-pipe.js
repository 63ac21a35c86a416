// WebCodecs decoding of the host's H.264 (PROTOCOL §7): configured from the keyframe's SPS (Annex-B, no
// description, optimizeForLatency), the newest decoded frame drawn to the canvas on the next animation frame and
// every older one closed at once. `isConfigSupported` is not trusted (WebKitGTK without gstreamer1.0-libav says
// yes and then fails every decode): a decode that fails before any frame came out twice is `onFatal`.
import { codecString, findSps } from '../core/h264.js';

const wallNow = () => performance.timeOrigin + performance.now();
/** Deltas beyond this many waiting in the decoder are dropped until a keyframe: the device cannot keep up. */
const MAX_QUEUE = 4;
/** Latency samples kept for the readout and the benchmark. */
const KEEP = 600;

// The browser's own colour conversion: measured against X screenshots, colorSpaceConversion 'none' gains 1.8 dB
// in Chromium (37.5 vs 35.7) but loses 1.1 dB in WebKitGTK (34.0 vs 35.1, its drawImage gives 34.0 too).
const BITMAP_OPTIONS = {};

export const canDecodeVideo = () => typeof globalThis.VideoDecoder === 'function'
  && typeof globalThis.EncodedVideoChunk === 'function';

export class VideoPipe {
  /** `onFailed()` asks for a keyframe (throttled by the caller); `onFatal()` gives up; `onSize(w, h)`. */
  constructor({ canvas, onFailed, onFatal, onSize = () => {} }) {
    Object.assign(this, { canvas, onFailed, onFatal, onSize });
    this.context = null; // chosen at the first frame: 'bitmaprenderer' where frames become ImageBitmaps, else '2d'
    this.decoder = null;
    this.codec = null;
    this.needKey = true;
    this.pending = null;
    this.drawQueued = false;
    this.sequence = 0;
    this.inFlight = new Map();
    this.failuresBeforeFirst = 0;
    this.decodedAny = false;
    /** Frames the decoder refused, all told. */
    this.failures = 0;
    this.stats = { decoded: 0, samples: [] };
  }

  /** One parsed video packet; `arrived`: performance.now() when it was opened. */
  push(packet, arrived) {
    if (packet.keyframe) this.#configure(packet);
    if (!this.decoder || this.needKey && !packet.keyframe) return this.onFailed();
    if (!packet.keyframe && this.decoder.decodeQueueSize > MAX_QUEUE) {
      this.needKey = true;
      return this.onFailed();
    }
    this.needKey = false;
    this.sequence += 1;
    const t = packet.timing;
    this.inFlight.set(this.sequence, { capture: t ? t.captureMicros / 1000 : null,
      host: t ? t.hostProcessingMicros / 1000 : null, arrivedWall: performance.timeOrigin + arrived, start: performance.now() });
    try {
      // The chunk copies the bytes, so the packet's buffer may be reused.
      this.decoder.decode(new EncodedVideoChunk({ type: packet.keyframe ? 'key' : 'delta', timestamp: this.sequence,
        data: packet.frame }));
    } catch (error) {
      this.#failed(error);
    }
    return undefined;
  }

  /** A new stream (start, switch, resume): the next frame must be a keyframe. */
  reset() {
    this.#closeDecoder();
    this.needKey = true;
    this.failuresBeforeFirst = 0;
    this.decodedAny = false;
  }

  close() {
    this.reset();
    this.pending?.close();
    this.pending = null;
  }

  #configure(packet) {
    const codec = codecString(findSps(packet.parameterSets)) ?? this.codec ?? 'avc1.42c01f';
    if (this.decoder && this.decoder.state === 'configured' && codec === this.codec) return;
    this.#closeDecoder();
    this.codec = codec;
    const decoder = new VideoDecoder({
      output: (frame) => this.#output(frame),
      error: (error) => { if (this.decoder === decoder) this.#failed(error); },
    });
    try {
      decoder.configure({ codec, optimizeForLatency: true });
      this.decoder = decoder;
    } catch (error) {
      this.#failed(error);
    }
  }

  #closeDecoder() {
    const decoder = this.decoder;
    this.decoder = null;
    this.inFlight.clear();
    if (decoder && decoder.state !== 'closed') decoder.close();
  }

  #failed(error) {
    this.failures += 1;
    this.#closeDecoder();
    this.needKey = true;
    if (!this.decodedAny) this.failuresBeforeFirst += 1;
    this.lastError = String(error?.message ?? error);
    if (this.failuresBeforeFirst >= 2) this.onFatal(this.lastError);
    else this.onFailed();
  }

  #output(frame) {
    this.decodedAny = true;
    this.failuresBeforeFirst = 0;
    this.#measure(frame.timestamp);
    this.pending?.close();
    this.pending = frame;
    if (this.drawQueued) return;
    this.drawQueued = true;
    requestAnimationFrame(() => this.#draw());
  }

  #draw() {
    const frame = this.pending;
    this.pending = null;
    if (!frame) {
      this.drawQueued = false;
      return;
    }
    const { displayWidth: w, displayHeight: h } = frame;
    if (this.canvas.width !== w || this.canvas.height !== h) {
      this.canvas.width = w;
      this.canvas.height = h;
      this.onSize(w, h);
    }
    // drawImage converts YUV to RGB on the main thread (22 ms a 1080p frame in headless Chromium without a GPU,
    // starving the socket); createImageBitmap converts elsewhere, and the bitmap is handed over without a copy.
    const start = performance.now();
    this.#show(frame).catch(() => {}).finally(() => {
      frame.close();
      this.stats.drawMs = (this.stats.drawMs ?? 0) * 0.9 + (performance.now() - start) * 0.1;
      this.drawQueued = this.pending !== null;
      if (this.drawQueued) requestAnimationFrame(() => this.#draw());
    });
  }

  async #show(frame) {
    if (this.context === null) {
      try {
        const bitmap = await createImageBitmap(frame, BITMAP_OPTIONS);
        this.context = this.canvas.getContext('bitmaprenderer');
        this.context.transferFromImageBitmap(bitmap);
        return;
      } catch (error) {
        this.drawError = String(error?.message ?? error);
        this.context = this.canvas.getContext('2d', { alpha: false });
      }
    }
    if (this.context instanceof CanvasRenderingContext2D) {
      this.context.drawImage(frame, 0, 0, this.canvas.width, this.canvas.height);
    } else {
      this.context.transferFromImageBitmap(await createImageBitmap(frame, BITMAP_OPTIONS));
    }
  }

  #measure(sequence) {
    const timing = this.inFlight.get(sequence);
    this.inFlight.delete(sequence);
    this.stats.decoded += 1;
    if (!timing || timing.capture === null) return;
    const decodedWall = wallNow();
    const sample = { total: decodedWall - timing.capture, host: timing.host,
      network: timing.arrivedWall - timing.capture - timing.host, decode: performance.now() - timing.start };
    this.stats.samples.push(sample);
    if (this.stats.samples.length > KEEP) this.stats.samples.shift();
  }
}
