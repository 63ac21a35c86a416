// The Screen tab (DESIGN.md#viewing): monitor picker, live view, states, toolbar, gestures. The stream's logic lives in
// Web/core (ViewerCore, ScreenSession); this file is the DOM around it.
import { ViewerCore } from '../core/viewer.js';
import { clampOffset, TwoFinger } from '../core/geometry.js';
import { PointerSender } from '../core/pointer-out.js';
import { canDecodeVideo, VideoPipe } from './video-pipe.js';
import { listenForInput } from './screen-input.js';
import { ASKING, explain, WAITING } from './screen-text.js';
import { Toolbar } from './toolbar.js';
import { ExtendFollower, extendRequest, PlacementMemory, sameMonitor } from '../core/extend.js';
import { extendCard } from './extend-card.js';

const FPS_KEY = 'touchdeck.screenFps';
// Remembered on this device across reloads (issue 19): the monitor viewed last and whether sound was on.
const DISPLAY_KEY = 'touchdeck.screenDisplay';
const SOUND_KEY = 'touchdeck.screenSound';
const MAX_ZOOM = 5;
const el = (tag, cls, text) => Object.assign(document.createElement(tag), cls ? { className: cls } : {},
  text !== undefined ? { textContent: text } : {});

export class ScreenView {
  /** `onClose()`: the toolbar's Close was tapped (the app leaves the Screen tab). */
  constructor(root, { client, storage = localStorage, onClose = () => {} }) {
    Object.assign(this, { root, client, storage, onClose });
    this.zoom = 1;
    this.offset = { width: 0, height: 0 };
    this.covered = 0;
    this.monitor = { width: 1, height: 1 };
    this.video = { width: 1, height: 1 };
    this.sound = { start() {}, push() {}, stop() {} }; // until a player is attached (attachSound)
    this.keyboard = null;
    this.visible = false;
    this.#build();
    const fps = Number(storage.getItem(FPS_KEY)) === 30 ? 30 : 60;
    // The device's real pixels: its screen's long side (the window's, where a browser reports less).
    const maxSide = Math.round(Math.max(screen.width, screen.height, innerWidth, innerHeight) * (devicePixelRatio || 1));
    this.pipe = new VideoPipe({ canvas: this.canvas, onFailed: () => this.core.decodeFailed(),
      onFatal: () => this.core.event('cannotDecode'), onSize: () => this.#applyView() });
    const remembered = storage.getItem(DISPLAY_KEY);
    const preferredDisplayId = remembered === null || remembered === '' ? null : Number(remembered);
    const audio = storage.getItem(SOUND_KEY) === 'on';
    this.core = new ViewerCore({ client, fps, maxSide, audio, preferredDisplayId, perform: (a) => this.#perform(a),
      onVideo: (packet, arrived) => this.pipe.push(packet, arrived) });
    this.pointer = new PointerSender({ send: (m) => client.send(m), geometry: () => this.#geometry() });
    this.resetInput = listenForInput(this.stage, { run: (actions) => actions.forEach((a) => this.#act(a)),
      viewState: () => ({ zoom: this.zoom, covered: this.covered }) });
    this.#buildToolbar(fps);
    this.placements = new PlacementMemory(storage);
    // Extending: the monitor follows the device as it turns (ExtendFollower: once the resizes have settled).
    this.follower = new ExtendFollower({ measure: () => this.#extendRequest(this.core.session.extend?.placement),
      ask: (extend) => this.core.event('choose', { extend }) });
    document.addEventListener('visibilitychange', () => this.core.event(document.hidden ? 'hide' : 'show'));
    addEventListener('resize', () => {
      this.#applyView();
      this.follower.resized();
    });
  }

  /** The tab was selected (true) or left (false). Selecting it again while closed opens it again. */
  shown(on) {
    this.visible = on;
    if (!on) {
      this.#setFullScreen(false);
      return this.core.event('close');
    }
    if (!canDecodeVideo()) return this.#message(explain('unsupported'));
    return this.core.event('open');
  }

  /**
   * Plugs in the typing UI: `factory(parent, {send, paste})` → {element, coveredHeight(), onCoverChange(cb), open(),
   * close()}; `paste()` is the clipboard's "Paste to computer" (`this.paste`, set by Web/app/clipboard.js).
   */
  attachKeyboard(factory) {
    // A keyboard attached again replaces the one before (its panel leaves the page).
    this.keyboard?.close();
    this.keyboard?.element?.remove();
    this.keyboard = factory(this.root, { send: (m) => this.client.send(m), paste: () => this.paste?.() });
    this.keyboard.onCoverChange((height) => {
      this.covered = height;
      // The panel may close itself (its Hide button): the toolbar's button follows.
      if (height === 0) this.tools.setPressed('keyboard', false);
      this.#applyView();
    });
    this.#updateTools();
  }

  /** Plugs in sound: {start() (inside the tap), push(bytes), stop()}; audio packets go to `push`. */
  attachSound(player) {
    this.sound = player;
    this.core.onAudio = (bytes) => player.push(bytes);
    // Sound remembered as on: the player may start only inside a tap (Safari, Chrome's autoplay rule), so the
    // first tap anywhere on the page starts it.
    if (this.core.session.audio) {
      const startOnTap = () => { if (this.core.session.audio) this.sound.start(); };
      document.addEventListener('pointerdown', startOnTap, { once: true, capture: true });
    }
    this.#updateTools();
  }

  /** For the browser tests and the benchmark: what the view knows. */
  get debug() {
    return { state: this.core.state, stats: this.pipe.stats, counts: this.core.counts, zoom: this.zoom,
      offset: this.offset, fps: this.core.session.fps, started: this.core.session.started,
      failures: this.pipe.failures };
  }

  #build() {
    this.picker = el('div', 'screen-picker');
    this.picker.setAttribute('role', 'list');
    this.notice = el('div', 'screen-message');
    this.notice.setAttribute('role', 'status');
    this.stage = el('div', 'screen-stage');
    this.canvas = el('canvas', 'screen-canvas');
    this.canvas.setAttribute('aria-label', 'The computer\'s screen');
    this.ring = el('div', 'drag-ring');
    this.ring.hidden = true;
    this.latency = el('div', 'latency');
    this.latency.hidden = true;
    // The host's `screenStarted.viewOnly`: why touches and keys reach nothing during this viewing.
    this.viewOnly = el('div', 'view-only');
    this.viewOnly.setAttribute('role', 'status');
    this.viewOnly.hidden = true;
    this.stage.append(this.canvas, this.ring, this.latency, this.viewOnly);
    this.bar = el('div', 'screen-toolbar');
    this.bar.setAttribute('role', 'toolbar');
    this.bar.setAttribute('aria-label', 'Screen');
    // Full screen hides the toolbar and the tabs; this handle in the corner brings them back.
    this.handle = el('button', 'fullscreen-handle', '⤡');
    this.handle.type = 'button';
    this.handle.setAttribute('aria-label', 'Leave full screen');
    this.handle.hidden = true;
    this.handle.addEventListener('click', () => this.#setFullScreen(false));
    // Never seen: the area the stage fills in full screen (the viewport less the safe areas), which Extend's
    // monitor matches whether or not the toolbar shows now (PROTOCOL "Extend", the web client).
    this.fullArea = el('div', 'screen-full-area');
    this.root.append(this.picker, this.notice, this.stage, this.bar, this.handle, this.fullArea);
  }

  #buildToolbar(fps) {
    this.tools = new Toolbar(this.bar);
    this.tools.add({ name: 'fps', label: 'Frame rate', text: `${fps} fps`, onClick: (b) => {
      const next = this.core.session.fps === 60 ? 30 : 60;
      this.storage.setItem(FPS_KEY, String(next));
      b.textContent = `${next} fps`;
      this.core.setOptions({ fps: next });
    } });
    this.tools.add({ name: 'sound', label: 'Sound', text: 'Sound', pressed: this.core.session.audio,
      onClick: () => this.#toggleSound() });
    this.tools.add({ name: 'keyboard', label: 'Keyboard', text: 'Keyboard', onClick: () => this.#toggleKeyboard() });
    this.tools.add({ name: 'monitors', label: 'Switch monitor', text: 'Monitors', onClick: () => this.core.event('list') });
    this.tools.add({ name: 'latency', label: 'Latency', text: 'Latency', pressed: false, onClick: () => this.#toggleLatency() });
    // An arrow, not words: on a phone in portrait the toolbar stays at two rows.
    this.tools.add({ name: 'fullscreen', label: 'Full screen', text: '⤢', onClick: () => this.#setFullScreen(true) });
    // The end of the row: "1×" keeps its place while not zoomed (nothing moves when it appears), Close is last.
    this.tools.add({ name: 'resetZoom', label: 'Reset zoom', text: '1×', end: true,
      onClick: () => this.#setView(1, { width: 0, height: 0 }) });
    this.tools.add({ name: 'close', label: 'Close', text: 'Close', end: true, onClick: () => this.#close() });
    this.#updateTools();
  }

  #close() {
    this.#setFullScreen(false);
    this.core.event('close');
    this.onClose();
  }

  /** Resolves once the browser's own full screen, where asked for, has been entered or refused. */
  #setFullScreen(on) {
    const app = this.root.closest('.app') ?? document.body;
    if (app.classList.contains('fullscreen') === on) return Promise.resolve();
    app.classList.toggle('fullscreen', on);
    this.handle.hidden = !on;
    // The browser's own full screen where it has one for pages (not iPhone Safari); the mode works without.
    let entered = Promise.resolve();
    if (on && document.fullscreenEnabled && !document.fullscreenElement) {
      entered = document.documentElement.requestFullscreen?.().catch(() => {}) ?? entered;
    }
    if (!on && document.fullscreenElement) document.exitFullscreen?.().catch(() => {});
    this.#applyView();
    return entered;
  }

  /**
   * Extend chosen in the picker: full screen first (inside the tap, where the browser allows its own), then the
   * monitor of the area the picture fills, so the stream is drawn 1:1.
   */
  async #extend(placement) {
    this.placements.set(placement);
    await this.#setFullScreen(true);
    if (this.core.state !== 'choosing') return;
    const extend = this.#extendRequest(placement);
    this.follower.asked(extend);
    this.core.event('choose', { extend });
  }

  #extendRequest(placement) {
    const { width, height } = this.fullArea.getBoundingClientRect();
    return extendRequest({ width, height }, devicePixelRatio || 1, placement);
  }

  /** The follower asks only while this view extends, and knows each answer. */
  #followExtend(state) {
    const extend = this.core.session.extend;
    if (!extend || !['viewing', 'starting', 'approval'].includes(state)) return this.follower.stop();
    if (state !== 'viewing') return undefined;
    // Back from hidden or offline, the follower had stopped: the monitor asked for is the session's.
    if (!sameMonitor(this.follower.current, extend)) this.follower.asked(extend);
    return this.follower.answered();
  }

  #updateTools() {
    if (!this.tools) return;
    const viewing = ['viewing', 'starting'].includes(this.core?.state);
    this.tools.show('resetZoom', viewing);
    this.tools.vacate('resetZoom', this.zoom <= TwoFinger.zoomedAbove);
    this.tools.show('sound', viewing);
    // A view-only viewing (screenStarted.viewOnly) has no keys to type with.
    const typable = (this.client.hostProtocol ?? 1) >= 2 && !this.core?.session.started?.viewOnly;
    this.tools.show('keyboard', viewing && this.keyboard !== null && typable);
    for (const name of ['fps', 'monitors', 'latency', 'fullscreen', 'close']) this.tools.show(name, viewing);
  }

  #perform(action) {
    if (action.type === 'resetDecoder') this.pipe.reset();
    if (action.type === 'endInput') {
      this.pointer.reset();
      this.resetInput();
      this.keyboard?.close();
    }
    if (action.type === 'show') this.#show(action.state);
  }

  #show(state) {
    const session = this.core.session;
    this.root.dataset.state = state;
    this.picker.hidden = state !== 'choosing';
    this.stage.hidden = !['viewing', 'starting'].includes(state);
    this.notice.hidden = true;
    if (state === 'choosing') this.#fillPicker(session.displays);
    const viewed = state === 'viewing' && session.displayId !== null && !session.extend;
    if (viewed) this.storage.setItem(DISPLAY_KEY, String(session.displayId));
    if (state === 'viewing' && session.started) {
      this.video = { width: session.started.width, height: session.started.height };
      // A monitor made for this device is streamed at its own size; it is in no list.
      const display = session.extend ? null : session.displays.find((d) => d.id === session.displayId);
      this.monitor = display ? { width: display.width, height: display.height } : this.video;
      this.#applyView();
    }
    this.#followExtend(state);
    const viewOnly = state === 'viewing' ? session.started?.viewOnly : undefined;
    this.viewOnly.hidden = !viewOnly;
    this.viewOnly.textContent = viewOnly ? `View only: ${viewOnly}` : '';
    if (WAITING[state]) this.#message({ title: WAITING[state] }, state === 'starting');
    if (state === 'asking') this.#message(ASKING, false, state);
    if (['denied', 'stopped', 'cannotDecode', 'failed'].includes(state)) {
      const reason = state === 'cannotDecode' ? 'cannotDecode' : session.reason;
      const details = { deviceName: this.client.name, viewer: session.viewer, error: session.error, asked: session.asked,
        detail: session.detail };
      this.#message(explain(reason, details), false, state);
    }
    // Closed while the tab still shows (e.g. the app could not switch tabs): never a blank tab.
    if (state === 'off' && this.visible) this.#message({ title: 'The view is closed' }, false, state);
    // Extend enters full screen in the picker's tap, before the host answers (maybe after an approval).
    if (!['viewing', 'starting', 'approval'].includes(state)) this.#setFullScreen(false);
    if (state === 'off' || state === 'hidden') this.#setView(1, { width: 0, height: 0 });
    this.#updateTools();
  }

  #message({ title, body, command }, overlay = false, state = null) {
    const n = this.notice;
    n.replaceChildren(el('h2', '', title));
    n.classList.toggle('overlay', overlay);
    if (body) n.append(el('p', '', body));
    if (command) n.append(el('code', 'command', command));
    const actions = el('div', 'message-actions');
    if (state === 'denied' && this.core.session.mayAsk) actions.append(this.#action('Ask the computer', 'ask'));
    if (state === 'asking') actions.append(this.#action('Cancel', 'list'));
    if (state === 'stopped' || state === 'cannotDecode') actions.append(this.#action('Start again', 'retry'));
    if (state === 'failed') actions.append(this.#action('Try again', 'retry'));
    if (['denied', 'stopped', 'failed'].includes(state)) actions.append(this.#action('Monitors', 'list'));
    if (state === 'off') actions.append(this.#action('Monitors', 'open'));
    if (actions.childElementCount) n.append(actions);
    n.hidden = false;
  }

  #action(text, event) {
    const b = el('button', 'primary', text);
    b.type = 'button';
    b.addEventListener('click', () => this.core.event(event));
    return b;
  }

  #fillPicker(displays) {
    this.picker.replaceChildren();
    if (displays.length === 0) this.picker.append(el('p', 'screen-empty', 'The computer shows no monitor.'));
    for (const display of displays) {
      const card = el('button', 'display-card');
      card.type = 'button';
      card.dataset.displayId = display.id;
      card.setAttribute('role', 'listitem');
      const picture = display.thumbnail ? Object.assign(el('img'), { src: display.thumbnail, alt: '' }) : el('div', 'no-thumb');
      card.append(picture, el('span', 'display-name', display.name), el('span', 'display-size', `${display.width} × ${display.height}`));
      card.setAttribute('aria-label', `${display.name}, ${display.width} by ${display.height}`);
      card.addEventListener('click', () => this.core.event('choose', { displayId: display.id }));
      this.picker.append(card);
    }
    const offer = this.core.session.extendOffer;
    if (offer) {
      this.picker.append(extendCard(offer, { placement: this.placements.get(),
        onPlacement: (side) => this.placements.set(side), onChoose: (side) => this.#extend(side) }));
    }
  }

  #act(action) {
    switch (action.type) {
      case 'zoom': return this.#setView(Math.min(MAX_ZOOM, Math.max(1, this.zoom * action.ratio)), this.offset);
      case 'pan': return this.#setView(this.zoom, { width: this.offset.width + action.dx, height: this.offset.height + action.dy });
      case 'ring': return this.#ringAt(action.at);
      default: return this.core.state === 'viewing' ? this.pointer.handle(action) : undefined;
    }
  }

  #ringAt(at) {
    this.ring.hidden = at === null;
    if (at) this.ring.style.transform = `translate(${at.x}px, ${at.y}px)`;
  }

  #viewSize() {
    const box = this.stage.getBoundingClientRect();
    return { width: box.width, height: box.height };
  }

  #geometry() {
    return { view: this.#viewSize(), video: this.video, zoom: this.zoom, offset: this.offset, monitor: this.monitor };
  }

  #setView(zoom, offset) {
    this.zoom = zoom <= TwoFinger.zoomedAbove ? 1 : zoom;
    this.offset = clampOffset(offset, this.zoom, this.#viewSize(), this.covered);
    this.#applyView();
  }

  #applyView() {
    this.offset = clampOffset(this.offset, this.zoom, this.#viewSize(), this.covered);
    this.canvas.style.transform = `translate(${this.offset.width}px, ${this.offset.height}px) scale(${this.zoom})`;
    this.#updateTools();
  }

  #toggleSound() {
    const on = this.tools.get('sound').getAttribute('aria-pressed') !== 'true';
    // start() must run inside the tap: Safari and WebKit let an AudioContext start only then.
    if (on) this.sound.start(); else this.sound.stop();
    this.storage.setItem(SOUND_KEY, on ? 'on' : 'off');
    this.tools.setPressed('sound', on);
    this.core.setOptions({ audio: on });
  }

  #toggleKeyboard() {
    if (!this.keyboard) return;
    const open = this.tools.get('keyboard').getAttribute('aria-pressed') === 'true';
    if (open) this.keyboard.close(); else this.keyboard.open();
    this.tools.setPressed('keyboard', !open);
  }

  #toggleLatency() {
    const on = this.latency.hidden;
    this.latency.hidden = !on;
    this.tools.setPressed('latency', on);
    clearInterval(this.latencyTimer);
    if (on) this.latencyTimer = setInterval(() => this.#showLatency(), 500);
  }

  #showLatency() {
    const recent = this.pipe.stats.samples.slice(-60);
    const median = (key) => {
      const values = recent.map((s) => s[key]).sort((a, b) => a - b);
      return values.length ? values[values.length >> 1].toFixed(1) : '–';
    };
    this.latency.textContent = `host ${median('host')} ms · network + opening ${median('network')} ms · `
      + `decode ${median('decode')} ms · total ${median('total')} ms`;
  }
}
