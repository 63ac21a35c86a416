// The Screen tab's stream as an explicit transition table (DESIGN.md#state-machines, #web-client-code): events in,
// actions out; the shell (Web/app/screen.js) performs the actions. Pure and clock-free, so `node --test`
// walks every row.
//
// Events: open/close (the tab), displays/denied/pending/started/stopped (the host; pending: the computer's user
// must approve screen sharing first), failed (the host answered listDisplays or startScreen with an `error`),
// allowed (screenPermission{allowed:true}; a refusal arrives as denied), choose/list/retry (the user), ask (the
// user of a device that may not view asks the computer's user: startScreen{ask:true}; screenPending{asking} keeps
// the tab in `asking` until screenPermission or screenDenied answers),
// hide/show (page visibility), offline/online (the connection), cannotDecode (the decoder gave up).
// Extend: `choose` with `{extend}` (startScreen.extend: a monitor made for this device) instead of a displayId;
// choosing again while viewing asks for a new size (the host makes the monitor again and answers screenStarted).

/** state → event → next state. Anything not listed is ignored. */
export const SCREEN_TRANSITIONS = {
  off: { open: 'listing' },
  listing: {
    displays: 'choosing', denied: 'denied', close: 'off', offline: 'offline', online: 'listing', failed: 'failed',
  },
  choosing: { choose: 'starting', list: 'listing', close: 'off', offline: 'offline', denied: 'denied' },
  starting: {
    started: 'viewing', denied: 'denied', stopped: 'stopped', close: 'off', offline: 'offline', hide: 'hidden',
    online: 'starting', pending: 'approval', failed: 'failed', list: 'listing',
  },
  approval: {
    started: 'viewing', denied: 'denied', stopped: 'stopped', close: 'off', offline: 'offline', hide: 'hidden',
    list: 'listing', failed: 'failed',
  },
  viewing: {
    started: 'viewing', stopped: 'stopped', denied: 'denied', close: 'off', offline: 'offline', hide: 'hidden',
    list: 'listing', cannotDecode: 'cannotDecode', choose: 'starting',
  },
  hidden: { show: 'starting', close: 'off', offline: 'hidden', online: 'hidden' },
  offline: { online: 'resuming', close: 'off' },
  resuming: { resume: 'starting', relist: 'listing', close: 'off', offline: 'offline' },
  // "Try again" after a failed request asks again what failed: the list, or the start of the chosen monitor.
  retrying: { resume: 'starting', relist: 'listing', close: 'off' },
  denied: { retry: 'listing', list: 'listing', allowed: 'listing', close: 'off', offline: 'offline', ask: 'asking' },
  asking: { pending: 'asking', allowed: 'listing', denied: 'denied', list: 'listing', close: 'off', offline: 'offline' },
  stopped: { retry: 'starting', list: 'listing', close: 'off', offline: 'offline', denied: 'denied' },
  failed: { retry: 'retrying', list: 'listing', close: 'off', offline: 'offline', denied: 'denied' },
  cannotDecode: { list: 'listing', retry: 'starting', close: 'off', offline: 'offline', denied: 'denied' },
};

/** States in which the host is streaming to us, or about to. */
const STREAMING = new Set(['starting', 'approval', 'viewing']);
/** Leaving those states through these events is our own doing: the host is told with `stopScreen`. */
const WE_STOP = new Set(['close', 'hide', 'list', 'cannotDecode']);

export class ScreenSession {
  /** `fps`: 30 or 60; `maxSide`: the device's real pixel long side. */
  /** `preferredDisplayId`: the monitor viewed last, started at once when the tab opens and it is listed. */
  constructor({ fps = 60, maxSide = 1920, audio = false, preferredDisplayId = null } = {}) {
    this.state = 'off';
    Object.assign(this, { fps, maxSide, audio, preferredDisplayId });
    this.displayId = null;
    this.error = null;
    this.retryWith = 'relist';
    // Opening the tab picks the monitor itself (the only one, or the one viewed last); "Monitors" never does.
    this.autoChoose = false;
    this.displays = [];
    // displays.extend: whether the host offers Extend ({offered, reason}), null from a host before it.
    this.extendOffer = null;
    // The monitor asked for while extending (startScreen.extend), else null.
    this.extend = null;
    this.reason = null;
    this.detail = null;
    this.viewer = null;
    this.started = null;
    // What became of the last question (screenDenied.asked), and whether the computer can ask at all.
    this.asked = null;
    this.canAsk = true;
  }

  /** Whether the user may ask the computer's user now: refused as not allowed, and the computer can ask. */
  get mayAsk() { return this.state === 'denied' && this.reason === 'notAllowed' && this.canAsk; }

  /** Feeds one event; returns the actions to perform, in order. `detail` carries the event's data. */
  handle(event, detail = {}) {
    const next = SCREEN_TRANSITIONS[this.state]?.[event];
    if (!next) return [];
    const previous = this.state;
    this.#remember(event, detail);
    this.state = next;
    const actions = [];
    if (STREAMING.has(previous) && WE_STOP.has(event)) {
      actions.push({ type: 'send', message: { type: 'stopScreen' } });
    }
    if (STREAMING.has(previous) && !['viewing', 'approval'].includes(next)) actions.push({ type: 'endInput' });
    // Giving up the question (Cancel, closing the tab) withdraws it on the computer.
    if (previous === 'asking' && WE_STOP.has(event)) actions.push({ type: 'send', message: { type: 'stopScreen' } });
    if (next === 'resuming') return [...actions, ...this.handle(this.displayId === null ? 'relist' : 'resume')];
    if (next === 'retrying') return [...actions, ...this.handle(this.retryWith)];
    const chosen = next === 'choosing' ? this.#autoChoice() : null;
    if (chosen !== null) return [...actions, ...this.handle('choose', { displayId: chosen })];
    actions.push(...this.#enter(next, previous, event));
    actions.push({ type: 'show', state: this.state });
    return actions;
  }

  /** Whether `event` would change anything now (the viewer takes a host error only when it does). */
  accepts(event) { return Boolean(SCREEN_TRANSITIONS[this.state]?.[event]); }

  /** The host's message → the event it is, or null. */
  static eventFor(message) {
    switch (message.type) {
      case 'displays': return message.status === 'ok' ? 'displays' : 'denied';
      case 'screenStarted': return 'started';
      case 'screenDenied': return 'denied';
      case 'screenPending': return 'pending';
      case 'screenStopped': return 'stopped';
      case 'screenPermission': return message.allowed ? 'allowed' : 'denied';
      default: return null;
    }
  }

  /** The rate changed in the toolbar: while streaming, `screenOptions` changes it without a restart. */
  setOptions({ fps = this.fps, audio = this.audio }) {
    Object.assign(this, { fps, audio });
    if (!STREAMING.has(this.state)) return [];
    return [{ type: 'send', message: { type: 'screenOptions', fps, audio } }];
  }

  #remember(event, d) {
    if (event === 'displays') {
      this.displays = d.displays ?? [];
      this.extendOffer = d.extend ?? null;
    }
    if (event === 'denied') {
      // screenPermission{allowed:false} says no reason: it is notAllowed.
      this.reason = d.status && d.status !== 'ok' ? d.status : d.reason ?? 'notAllowed';
      this.viewer = d.viewer ?? null;
      this.detail = d.detail ?? null;
      this.asked = d.asked ?? null;
      if (d.asked === 'unavailable') this.canAsk = false;
    }
    if (event === 'ask') this.asked = null;
    if (event === 'stopped') this.reason = d.reason;
    if (event === 'failed') {
      this.reason = 'failed';
      this.error = d;
      this.retryWith = d.request === 'listDisplays' || this.displayId === null ? 'relist' : 'resume';
    }
    // Extending is never remembered as the monitor to start when the tab opens: making a monitor on the computer
    // is asked for each time.
    if (event === 'choose' && d.extend) {
      this.extend = d.extend;
      this.displayId = 0;
    } else if (event === 'choose') {
      this.extend = null;
      this.displayId = d.displayId;
      this.preferredDisplayId = d.displayId;
    }
    if (event === 'started') this.started = d;
    if (event === 'close') {
      this.displayId = null;
      this.extend = null;
    }
    // Allowed again (screenPermission) is as if the tab opened now.
    if (event === 'open' || event === 'allowed') this.autoChoose = true;
    if (event === 'list') {
      this.autoChoose = false;
      this.extend = null;
    }
  }

  // Once per opening of the tab: the only monitor, or the one viewed last if it is still listed.
  #autoChoice() {
    const auto = this.autoChoose;
    this.autoChoose = false;
    if (!auto) return null;
    if (this.displays.length === 1) return this.displays[0].id;
    return this.displays.some((d) => d.id === this.preferredDisplayId) ? this.preferredDisplayId : null;
  }

  #startMessage() {
    const message = { type: 'startScreen', displayId: this.displayId, maxSide: this.maxSide, fps: this.fps,
      audio: this.audio };
    if (!this.extend) return message;
    // The stream is the monitor's own size: never fitted down to a smaller maxSide.
    const maxSide = Math.max(this.maxSide, this.extend.width, this.extend.height);
    return { ...message, displayId: 0, maxSide, extend: this.extend };
  }

  #enter(state, previous, event) {
    switch (state) {
      case 'listing':
        return [{ type: 'send', message: { type: 'listDisplays' } }];
      case 'asking':
        if (event !== 'ask') return [];
        // The monitor is not known yet (a device that may not view gets no list): the host asks before it looks.
        return [{ type: 'send', message: {
          type: 'startScreen', displayId: this.preferredDisplayId ?? 0, maxSide: this.maxSide, fps: this.fps,
          audio: this.audio, ask: true,
        } }];
      case 'starting':
        return [{ type: 'resetDecoder' }, { type: 'send', message: this.#startMessage() }];
      case 'viewing':
        // Once right after every screenStarted (seed): the first picture never waits for a change.
        return event === 'started' ? [{ type: 'requestKeyframe' }] : [];
      default:
        return [];
    }
  }
}
