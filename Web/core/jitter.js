// The device's audio jitter buffer (DESIGN.md#sound), mirroring DeckKit's AudioJitter, and the player the AudioWorklet
// runs on it: packets in, resampled to the context's rate, render quanta out. DOM-free: `node --test` runs it
// with a fake clock (Web/test/jitter.test.js) against Tests/Fixtures/rules/audio-jitter.json.

/** Seconds queued before playback starts. */
export const START_AT = 0.06;
/** Above this many seconds queued, new packets are dropped. */
export const DROP_ABOVE = 0.2;
/** Dropping stops once fewer seconds than this are queued. */
export const RESUME_BELOW = 0.1;
/** Ten 0.02 s packets sum to 0.19999999999999998: bounds are compared with this slack. */
export const TOLERANCE = 1e-9;

/** The rule alone: what to do with an arriving packet, and when a dry queue pauses playback. */
export class AudioJitter {
  constructor() { this.reset(); }

  /** Forgets everything queued. */
  reset() {
    this.queued = 0;
    this.isPlaying = false;
    this.isDropping = false;
  }

  /** A packet of `seconds` arrives: 'queue', 'queueAndStart' or 'drop'. */
  arrive(seconds) {
    if (this.isDropping) {
      if (!(this.queued < RESUME_BELOW - TOLERANCE)) return 'drop';
      this.isDropping = false;
    }
    if (this.queued + seconds > DROP_ABOVE + TOLERANCE) {
      this.isDropping = true;
      return 'drop';
    }
    this.queued += seconds;
    if (this.isPlaying || this.queued < START_AT - TOLERANCE) return 'queue';
    this.isPlaying = true;
    return 'queueAndStart';
  }

  /** A packet of `seconds` finished playing; true when the queue ran dry (pause until 60 ms again). */
  played(seconds) {
    this.queued = Math.max(0, this.queued - seconds);
    if (this.queued > TOLERANCE) return false;
    this.queued = 0;
    const wasPlaying = this.isPlaying;
    this.isPlaying = false;
    return wasPlaying;
  }
}

/** Parses an audio packet (PROTOCOL §7): `[2][channels][rate BE32][Int16 LE interleaved]`; null if malformed. */
export function parseAudioPacket(bytes) {
  if (bytes.length < 6 || bytes[0] !== 2 || bytes[1] === 0) return null;
  const channels = bytes[1];
  const rate = ((bytes[2] << 24) | (bytes[3] << 16) | (bytes[4] << 8) | bytes[5]) >>> 0;
  const body = bytes.length - 6;
  if (rate === 0 || body % (2 * channels) !== 0) return null;
  const samples = new Int16Array(body / 2);
  const view = new DataView(bytes.buffer, bytes.byteOffset + 6, body);
  for (let i = 0; i < samples.length; i++) samples[i] = view.getInt16(i * 2, true);
  return { channels, rate, samples };
}

/**
 * Linear-interpolation resampler for stereo from `fromRate` to `toRate`, continuous across packets (it keeps
 * its position and the previous frame). Equal rates copy.
 */
export class Resampler {
  constructor(fromRate, toRate) {
    this.step = fromRate / toRate;
    this.position = 0; // in source frames, relative to the current packet's first frame
    this.lastLeft = 0;
    this.lastRight = 0;
  }

  /** Int16 interleaved (1 or 2 channels) → { left, right } Float32Arrays at the target rate. */
  process(samples, channels) {
    const frames = samples.length / channels;
    const at = (frame, channel) => samples[frame * channels + (channels === 1 ? 0 : channel)] / 32768;
    if (this.step === 1) {
      const left = new Float32Array(frames);
      const right = new Float32Array(frames);
      for (let i = 0; i < frames; i++) { left[i] = at(i, 0); right[i] = at(i, 1); }
      return { left, right };
    }
    const count = Math.max(0, Math.ceil((frames - this.position) / this.step));
    const left = new Float32Array(count);
    const right = new Float32Array(count);
    for (let i = 0; i < count; i++) {
      const x = this.position + i * this.step; // between frame floor(x) and the next; -1 is the last packet's end
      const base = Math.floor(x);
      const t = x - base;
      const l0 = base < 0 ? this.lastLeft : at(base, 0);
      const r0 = base < 0 ? this.lastRight : at(base, 1);
      const l1 = base + 1 < frames ? at(base + 1, 0) : l0;
      const r1 = base + 1 < frames ? at(base + 1, 1) : r0;
      left[i] = l0 + (l1 - l0) * t;
      right[i] = r0 + (r1 - r0) * t;
    }
    this.position += count * this.step - frames;
    this.lastLeft = at(frames - 1, 0);
    this.lastRight = at(frames - 1, 1);
    return { left, right };
  }
}

/**
 * The player: packets pushed as they arrive, frames rendered as the audio clock asks. Counts what it played
 * and dropped (the test hook), at the output rate.
 */
export class JitterPlayer {
  constructor(outputRate) {
    this.outputRate = outputRate;
    this.jitter = new AudioJitter();
    this.queue = []; // { left, right, read, seconds }
    this.resampler = null;
    this.sourceRate = 0;
    this.played = 0; // output frames of sound played (not the silence while waiting)
    this.dropped = 0; // packets
    this.received = 0; // packets
    this.underruns = 0;
  }

  /** One packet: Int16 interleaved samples, its channel count and rate. Returns the jitter decision. */
  push(samples, channels, rate) {
    this.received++;
    const seconds = samples.length / channels / rate;
    const decision = this.jitter.arrive(seconds);
    if (decision === 'drop') {
      this.dropped++;
      return decision;
    }
    if (rate !== this.sourceRate) {
      this.resampler = new Resampler(rate, this.outputRate);
      this.sourceRate = rate;
    }
    const { left, right } = this.resampler.process(samples, channels);
    this.queue.push({ left, right, read: 0, seconds });
    return decision;
  }

  /** Fills `left` and `right` (Float32Arrays of one render quantum): queued sound while playing, else silence. */
  render(left, right) {
    let written = 0;
    while (written < left.length && this.jitter.isPlaying && this.queue.length > 0) {
      const head = this.queue[0];
      const take = Math.min(left.length - written, head.left.length - head.read);
      left.set(head.left.subarray(head.read, head.read + take), written);
      right.set(head.right.subarray(head.read, head.read + take), written);
      head.read += take;
      written += take;
      this.played += take;
      if (head.read === head.left.length) {
        this.queue.shift();
        if (this.jitter.played(head.seconds)) this.underruns++;
      }
    }
    left.fill(0, written);
    right.fill(0, written);
  }

  /** Drops everything queued (sound stopped, or the view ended). */
  reset() {
    this.queue = [];
    this.jitter.reset();
  }

  stats() {
    return {
      played: this.played, dropped: this.dropped, received: this.received, underruns: this.underruns,
      queued: this.jitter.queued, playing: this.jitter.isPlaying,
    };
  }
}
