// The Screen tab's stream as an explicit transition table (STYLE practice 2 and 12): events in, actions out;
// the shell (Web/app/screen.js) performs the actions. Pure and clock-free, so `node --test` walks every row.
//
// Events: open/close (the tab), displays/denied/pending/started/stopped (the host; pending: the computer's user
// must approve screen sharing first), choose/list/retry (the user),
// hide/show (page visibility), offline/online (the connection), cannotDecode (the decoder gave up).

/** state → event → next state. Anything not listed is ignored. */
export const SCREEN_TRANSITIONS = {
  off: { open: 'listing' },
  listing: { displays: 'choosing', denied: 'denied', close: 'off', offline: 'offline', online: 'listing' },
  choosing: { choose: 'starting', list: 'listing', close: 'off', offline: 'offline' },
  starting: {
    started: 'viewing', denied: 'denied', stopped: 'stopped', close: 'off', offline: 'offline', hide: 'hidden',
    online: 'starting', pending: 'approval',
  },
  approval: {
    started: 'viewing', denied: 'denied', stopped: 'stopped', close: 'off', offline: 'offline', hide: 'hidden',
    list: 'listing',
  },
  viewing: {
    started: 'viewing', stopped: 'stopped', denied: 'denied', close: 'off', offline: 'offline', hide: 'hidden',
    list: 'listing', cannotDecode: 'cannotDecode', choose: 'starting',
  },
  hidden: { show: 'starting', close: 'off', offline: 'hidden', online: 'hidden' },
  offline: { online: 'resuming', close: 'off' },
  resuming: { resume: 'starting', relist: 'listing', close: 'off', offline: 'offline' },
  denied: { retry: 'listing', list: 'listing', close: 'off', offline: 'offline' },
  stopped: { retry: 'starting', list: 'listing', close: 'off', offline: 'offline' },
  cannotDecode: { list: 'listing', retry: 'starting', close: 'off', offline: 'offline' },
};

/** States in which the host is streaming to us, or about to. */
const STREAMING = new Set(['starting', 'approval', 'viewing']);
/** Leaving those states through these events is our own doing: the host is told with `stopScreen`. */
const WE_STOP = new Set(['close', 'hide', 'list', 'cannotDecode']);

export class ScreenSession {
  /** `fps`: 30 or 60; `maxSide`: the device's real pixel long side. */
  constructor({ fps = 60, maxSide = 1920, audio = false } = {}) {
    this.state = 'off';
    Object.assign(this, { fps, maxSide, audio });
    this.displayId = null;
    this.displays = [];
    this.reason = null;
    this.viewer = null;
    this.started = null;
  }

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
    if (next === 'resuming') return [...actions, ...this.handle(this.displayId === null ? 'relist' : 'resume')];
    actions.push(...this.#enter(next, previous, event));
    actions.push({ type: 'show', state: this.state });
    return actions;
  }

  /** The host's message → the event it is, or null. */
  static eventFor(message) {
    switch (message.type) {
      case 'displays': return message.status === 'ok' ? 'displays' : 'denied';
      case 'screenStarted': return 'started';
      case 'screenDenied': return 'denied';
      case 'screenPending': return 'pending';
      case 'screenStopped': return 'stopped';
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
    if (event === 'displays') this.displays = d.displays ?? [];
    if (event === 'denied') {
      this.reason = d.status && d.status !== 'ok' ? d.status : d.reason;
      this.viewer = d.viewer ?? null;
    }
    if (event === 'stopped') this.reason = d.reason;
    if (event === 'choose') this.displayId = d.displayId;
    if (event === 'started') this.started = d;
    if (event === 'close') this.displayId = null;
  }

  #enter(state, previous, event) {
    switch (state) {
      case 'listing':
        return [{ type: 'send', message: { type: 'listDisplays' } }];
      case 'starting':
        return [{ type: 'resetDecoder' }, { type: 'send', message: {
          type: 'startScreen', displayId: this.displayId, maxSide: this.maxSide, fps: this.fps, audio: this.audio,
        } }];
      case 'viewing':
        // Once right after every screenStarted (seed): the first picture never waits for a change.
        return event === 'started' ? [{ type: 'requestKeyframe' }] : [];
      default:
        return [];
    }
  }
}
