// The volume gauge (DESIGN.md#deck, #client): fills to the host's real value; dragging sends throttled changes.
import { ICONS } from './icons.js';

export const SEND_EVERY_MS = 60;

export class VolumeGauge {
  constructor(root, { onLevel, onToggleMute }) {
    this.root = root;
    this.track = root.querySelector('.gauge-track');
    this.fill = root.querySelector('.gauge-fill');
    this.value = root.querySelector('.gauge-value');
    this.mute = root.querySelector('.mute');
    this.onLevel = onLevel;
    this.state = { available: false, level: 0, muted: false };
    this.vertical = true;
    this.dragging = false;
    this.mute.addEventListener('click', () => onToggleMute());
    pressable(this.mute);
    this.#listenForDrags();
    this.#listenForKeys();
    this.mute.innerHTML = ICONS.speaker;
    this.#paint(0);
  }

  setVertical(vertical) {
    this.vertical = vertical;
    this.#paint(this.dragging ? this.localLevel : this.state.level);
  }

  /** The host's state; while the finger is down the finger wins, the host's value follows on release. */
  show(state) {
    this.state = state;
    this.root.classList.toggle('unavailable', !state.available);
    this.root.classList.toggle('muted', state.muted);
    this.mute.innerHTML = state.muted ? ICONS.muted : ICONS.speaker;
    this.mute.setAttribute('aria-label', state.muted ? 'Unmute' : 'Mute');
    this.mute.setAttribute('aria-pressed', String(state.muted));
    if (!this.dragging) this.#paint(state.level);
  }

  #paint(level) {
    const percent = Math.round(level * 100);
    this.fill.style.height = this.vertical ? `${percent}%` : '';
    this.fill.style.width = this.vertical ? '' : `${percent}%`;
    this.value.textContent = this.state.available ? `${percent}` : '–';
    this.root.setAttribute('aria-valuenow', String(percent));
    this.root.setAttribute('aria-valuetext', this.state.available ? `${percent}%` : 'No sound server');
  }

  #levelAt(e) {
    const box = this.track.getBoundingClientRect();
    const raw = this.vertical ? (box.bottom - e.clientY) / box.height : (e.clientX - box.left) / box.width;
    return Math.min(1, Math.max(0, raw));
  }

  #listenForDrags() {
    let lastSent = 0;
    let pending = null;
    const send = (level, force) => {
      const now = performance.now();
      clearTimeout(pending);
      if (force || now - lastSent >= SEND_EVERY_MS) {
        lastSent = now;
        this.onLevel(level);
      } else {
        // The last position is always sent, just a little later.
        pending = setTimeout(() => send(level, true), SEND_EVERY_MS - (now - lastSent));
      }
    };
    const move = (e) => {
      if (!this.dragging || !this.state.available) return;
      this.localLevel = this.#levelAt(e);
      this.#paint(this.localLevel);
      send(this.localLevel, false);
    };
    this.track.addEventListener('pointerdown', (e) => {
      this.dragging = true;
      this.track.setPointerCapture(e.pointerId);
      move(e);
    });
    this.track.addEventListener('pointermove', move);
    const end = () => {
      if (!this.dragging) return;
      this.dragging = false;
      if (this.localLevel !== undefined) send(this.localLevel, true);
    };
    this.track.addEventListener('pointerup', end);
    this.track.addEventListener('pointercancel', end);
  }

  #listenForKeys() {
    this.root.addEventListener('keydown', (e) => {
      const step = { ArrowUp: 0.05, ArrowRight: 0.05, ArrowDown: -0.05, ArrowLeft: -0.05 }[e.key];
      if (step === undefined || !this.state.available) return;
      e.preventDefault();
      this.onLevel(Math.min(1, Math.max(0, this.state.level + step)));
    });
  }
}

/** A small key that shows a full 120 ms press even for a quick tap. */
export function pressable(el) {
  el.addEventListener('pointerdown', () => el.classList.add('down'));
  const up = () => setTimeout(() => el.classList.remove('down'), 120);
  el.addEventListener('pointerup', up);
  el.addEventListener('pointercancel', up);
  el.addEventListener('pointerleave', up);
}
