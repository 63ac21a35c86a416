// The computer's sound while viewing (PROTOCOL §7 audio packets): an AudioWorklet player with the jitter rule
// of Web/core/jitter.js. The viewer routes binary packets whose first byte is 2 to `push`, and calls `start()`
// from the user's tap on the sound button (browsers only let sound begin inside a user gesture).
import { parseAudioPacket } from '../core/jitter.js';
import { log } from '../core/log.js';

/**
 * A player: `start()` (inside the user's tap), `push(bytes)` for each audio packet, `stop()`, and `stats()`, a
 * promise of { played (output frames of sound), dropped, received, underruns, queued, playing, rate } — the hook
 * the browser tests count samples with. `options.sampleRate` asks the context for a rate (tests: resampling).
 */
export function createSoundPlayer(options = {}) {
  let context = null;
  let node = null;
  let opening = null;
  let asked = 0;
  const waiting = new Map();

  function open() {
    // iPhone/iPad: plays with the silent switch on, like a video would.
    if (globalThis.navigator?.audioSession) {
      try { navigator.audioSession.type = 'playback'; } catch (error) { log.debug('audioSession refused', { error: String(error) }); }
    }
    context = new AudioContext({ latencyHint: 'interactive', ...(options.sampleRate ? { sampleRate: options.sampleRate } : {}) });
    const url = new URL('./audio-worklet.js', import.meta.url);
    opening = context.audioWorklet.addModule(url).then(() => {
      node = new AudioWorkletNode(context, 'touchdeck-sound', { numberOfInputs: 0, outputChannelCount: [2] });
      node.port.onmessage = ({ data }) => {
        if (data.type !== 'stats') return;
        waiting.get(data.id)?.({ ...data, rate: context.sampleRate, state: context.state });
        waiting.delete(data.id);
      };
      node.onprocessorerror = (event) => log.warn('the sound worklet failed', { error: String(event.message ?? event) });
      node.connect(context.destination);
    }).catch((error) => {
      log.warn('sound could not start', { error: String(error) });
      opening = null;
    });
  }

  return {
    /** Call inside the user's tap: creates or resumes the audio context there. */
    start() {
      if (!context) open();
      // resume() must be called within the gesture; it settles later.
      context.resume().catch((error) => log.warn('sound could not resume', { error: String(error) }));
    },

    /** One audio packet (a Uint8Array whose first byte is 2). Malformed packets and packets before start are dropped. */
    push(bytes) {
      if (!node) return;
      const packet = parseAudioPacket(bytes);
      if (!packet) return log.debug('audio packet dropped: malformed', { length: bytes.length });
      // The samples' buffer moves to the audio thread without a copy.
      node.port.postMessage(
        { type: 'packet', samples: packet.samples.buffer, channels: packet.channels, rate: packet.rate },
        [packet.samples.buffer]);
    },

    /** Silences and forgets the queue; the context is suspended (a later start() resumes it). */
    stop() {
      node?.port.postMessage({ type: 'reset' });
      context?.suspend().catch(() => {});
    },

    /** The player's counters, from the audio thread. */
    async stats() {
      await opening;
      if (!node) return { played: 0, dropped: 0, received: 0, underruns: 0, queued: 0, playing: false, rate: 0 };
      const id = ++asked;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        node.port.postMessage({ type: 'stats', id });
      });
    },
  };
}
