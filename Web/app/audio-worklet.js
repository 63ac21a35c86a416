// The AudioWorklet side of the sound player (Web/app/sound.js): packets arrive on the port as Int16 samples,
// the jitter rule and the resampling live in Web/core/jitter.js (shared with node --test), and every render
// quantum takes what is due. Stats go back on the port when asked (the test hook counts samples played).
import { JitterPlayer } from '../core/jitter.js';

class TouchDeckSound extends AudioWorkletProcessor {
  constructor() {
    super();
    // `sampleRate` is the context's rate, a global of the worklet scope: 48 kHz plays as is, others resample.
    this.player = new JitterPlayer(sampleRate);
    this.quanta = 0; // render calls, for the stats: a context that runs but is never pulled shows 0
    this.port.onmessage = ({ data }) => {
      if (data.type === 'packet') this.player.push(new Int16Array(data.samples), data.channels, data.rate);
      else if (data.type === 'reset') this.player.reset();
      else if (data.type === 'stats') this.port.postMessage({ type: 'stats', id: data.id, quanta: this.quanta, ...this.player.stats() });
    };
  }

  process(_inputs, outputs) {
    this.quanta++;
    const [left, right] = outputs[0];
    this.player.render(left, right ?? new Float32Array(left.length));
    return true;
  }
}

registerProcessor('touchdeck-sound', TouchDeckSound);
