// Recording on the device (DESIGN.md#recording, PROTOCOL §6 "Recording"): every record key shows the host's recording
// (idle, recording with the elapsed time, paused); the Recordings view pauses, resumes and stops it, lists the
// files (thumbnail, length, size), fetches one and hands it to the share sheet ("Save Video" puts it in an
// iPad's Photos) or downloads it. The deck view is not touched: keys are decorated when they appear.
import { FetchError, RecordingFetcher, RecordingStatus, formatClock, formatSize } from '../core/recording.js';
import { sha256 } from '../core/webcrypto.js';
import { log } from '../core/log.js';
import { answers, describeError } from '../core/errors.js';

const CONFIRM_MS = 4000;

let installed = null;

/**
 * Wires recording to the client. `pages` holds the deck's keys, `view` is the Recordings section, `toast(text)`
 * tells the user something went wrong. Returns the panel (its `keyFields` serve the edit sheet).
 */
export function setUpRecordings(client, { pages, view, toast }) {
  installed = new RecordingsPanel(client, { pages, view, toast });
  return installed;
}

/**
 * For the viewer toolbar's record button: starts recording `displayId` (at `fps`, long side `maxSide`) when
 * nothing records, else stops the recording. Returns false when not connected.
 */
export function toggleRecording({ displayId, fps = 30, maxSide } = {}) {
  return installed ? installed.toggle({ displayId, fps, maxSide }) : false;
}

/** Calls `listener({ state, caption, elapsedMs })` now, on each change and each second while recording. */
export function watchRecording(listener) {
  return installed ? installed.watch(listener) : () => {};
}

/**
 * Puts a record button in the viewer's toolbar (`view`: the Screen tab's ScreenView): it records the monitor
 * being viewed at the viewing rate, or stops the recording, and shows the recording's state and time. Shown
 * while viewing, like the viewer's own tools.
 */
export function attachRecordButton(view) {
  const button = view.tools.add({
    name: 'record', label: 'Record', text: 'Record', pressed: false,
    onClick: () => toggleRecording({ displayId: view.core.session.displayId, fps: view.core.session.fps }),
  });
  watchRecording(({ state, caption }) => {
    const text = state === 'idle' ? 'Record' : caption;
    if (button.textContent !== text) button.textContent = text;
    button.dataset.recordState = state;
    button.setAttribute('aria-pressed', String(state !== 'idle'));
  });
  const showWhileViewing = () => view.tools.show('record', ['viewing', 'starting'].includes(view.root.dataset.state));
  new MutationObserver(showWhileViewing).observe(view.root, { attributes: true, attributeFilter: ['data-state'] });
  showWhileViewing();
  return button;
}

/** Hands a fetched file on: the share sheet when the browser can share files, else a download. */
export async function handOver(bytes, name, nav = navigator) {
  const file = new File([bytes], name, { type: 'video/mp4' });
  if (nav.canShare?.({ files: [file] })) {
    try {
      await nav.share({ files: [file], title: name });
      return 'shared';
    } catch (error) {
      // The user closing the sheet is not a failure; anything else falls back to a download.
      if (error?.name === 'AbortError') return 'cancelled';
      log.warn('share failed, downloading instead', { error: String(error?.message ?? error) });
    }
  }
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return 'downloaded';
}

class RecordingsPanel {
  constructor(client, { pages, view, toast }) {
    Object.assign(this, { client, pages, view, toast });
    this.status = new RecordingStatus();
    this.fetcher = new RecordingFetcher(client, { sha256 });
    this.listeners = new Set();
    this.fetched = null; // { name, bytes, size, sha256 }: the last file fetched, kept until another is or it changes
    this.progress = null; // { name, percent }: the file being fetched
    this.ticker = null;
    this.#build();
    client.addEventListener('recordState', ({ detail }) => this.#state(detail));
    client.addEventListener('recordings', ({ detail }) => this.#list(detail.recordings ?? []));
    client.addEventListener('recordDenied', ({ detail }) => toast(detail.message || `Recording: ${detail.reason}`));
    client.addEventListener('hostError', (event) => this.#hostError(event));
    client.addEventListener('displays', ({ detail }) => this.#displays(detail));
    client.addEventListener('state', ({ detail }) => { if (detail.state === 'ready' && !view.hidden) this.refresh(); });
    // Allowed or not any more (`touchdeck devices allow-screen`): the list is what the host now shows this device.
    client.addEventListener('screenPermission', () => { if (!view.hidden) this.refresh(); });
    document.querySelector('[data-tab="recordings"]')?.addEventListener('click', () => this.refresh());
    new MutationObserver(() => this.#decorateKeys()).observe(pages, { childList: true, subtree: true });
  }

  refresh() { this.client.send({ type: 'listRecordings' }); }

  // Record records the monitor viewed last if the computer still has it, else the leftmost, at 30 fps: the
  // monitors are asked for first (recordStart needs one of their ids).
  #start() {
    this.startWanted = this.client.send({ type: 'listDisplays' });
  }

  #displays({ displays = [], status = 'ok' }) {
    if (!this.startWanted) return;
    this.startWanted = false;
    if (status === 'notAllowed') {
      return this.toast(`This device may not record the screen. On the computer, run: touchdeck devices allow-screen "${this.client.name}" on`);
    }
    const viewed = Number(localStorage.getItem('touchdeck.screenDisplay') ?? NaN);
    const display = displays.find((d) => d.id === viewed) ?? displays[0];
    if (!display) return this.toast('The computer shows no monitor to record.');
    this.client.send(this.status.toggleMessage({ displayId: display.id }));
  }

  toggle(options) { return this.client.send(this.status.toggleMessage(options)); }

  watch(listener) {
    this.listeners.add(listener);
    listener(this.#snapshot());
    return () => this.listeners.delete(listener);
  }

  /** The edit sheet's record fields: the monitor (from `listDisplays`) and the frame rate. */
  keyFields(dialog) {
    const display = dialog.querySelector('#edit-display');
    const fps = dialog.querySelector('#edit-fps');
    this.client.addEventListener('displays', ({ detail }) => {
      const chosen = display.dataset.wanted ?? display.value;
      display.replaceChildren(option('', 'Leftmost monitor'), ...(detail.displays ?? []).map(
        (d) => option(String(d.id), `${d.name} (${d.width}×${d.height})`)));
      display.value = [...display.options].some((o) => o.value === chosen) ? chosen : '';
    });
    return {
      fill: (button) => {
        const wanted = button?.kind === 'record' && button.displayId != null ? String(button.displayId) : '';
        display.dataset.wanted = wanted;
        if (![...display.options].some((o) => o.value === wanted)) display.append(option(wanted, `Monitor ${wanted}`));
        display.value = wanted;
        fps.value = button?.kind === 'record' && button.fps === 60 ? '60' : '30';
        this.client.send({ type: 'listDisplays' });
      },
      read: () => {
        delete display.dataset.wanted;
        const fields = { fps: Number(fps.value) };
        if (display.value !== '') fields.displayId = Number(display.value);
        return fields;
      },
    };
  }

  #build() {
    const controls = element('div', 'record-controls');
    this.caption = element('span', 'record-caption', 'Not recording');
    this.caption.setAttribute('role', 'status');
    this.pauseButton = button('record-pause', 'Pause', () => {
      this.client.send({ type: this.status.state === 'paused' ? 'recordResume' : 'recordPause' });
    });
    this.stopButton = button('record-stop', 'Stop', () => this.client.send({ type: 'recordStop' }));
    this.startButton = button('record-start', 'Record', () => this.#start());
    this.startButton.className = 'record-start';
    controls.append(this.caption, this.startButton, this.pauseButton, this.stopButton);
    this.list = element('ul', 'recording-list');
    this.list.setAttribute('aria-label', 'Recordings');
    this.empty = element('p', 'recording-empty', 'No recordings yet. Tap Record, or add a Record key to the deck.');
    this.view.replaceChildren(controls, this.list, this.empty);
    this.#showStatus();
  }

  #state(message) {
    const wasSaved = message.state === 'idle' && message.name && this.status.state !== 'idle';
    const began = message.state !== 'idle' && this.status.state === 'idle';
    this.status.update(message);
    clearInterval(this.ticker);
    this.ticker = message.state === 'recording' ? setInterval(() => this.#showStatus(), 1000) : null;
    this.#showStatus();
    if (wasSaved || (began && !this.view.hidden)) this.refresh();
    if (message.reason === 'diskFull') this.toast('Recording stopped: the disk is full. The file is saved.');
    if (message.reason === 'error') this.toast('Recording stopped by an error. The file is saved.');
    if (message.reason === 'maxLength') this.toast('Recording stopped at its length limit. The file is saved.');
  }

  #snapshot() {
    return { state: this.status.state, caption: this.status.caption(), elapsedMs: this.status.elapsedMs() };
  }

  #showStatus() {
    const snapshot = this.#snapshot();
    this.caption.textContent = snapshot.caption;
    this.pauseButton.hidden = snapshot.state === 'idle';
    this.stopButton.hidden = snapshot.state === 'idle';
    this.startButton.hidden = snapshot.state !== 'idle';
    for (const live of this.list?.querySelectorAll('.recording[data-live] .recording-details') ?? []) {
      live.textContent = liveCaption(snapshot);
    }
    this.pauseButton.textContent = snapshot.state === 'paused' ? 'Resume' : 'Pause';
    this.view.dataset.recordState = snapshot.state;
    this.#decorateKeys();
    for (const listener of this.listeners) listener(snapshot);
  }

  // Changes only what differs, so the observer that calls this settles after one pass.
  #decorateKeys() {
    const state = this.status.state;
    const caption = state === 'idle' ? 'Idle' : this.status.caption();
    for (const key of this.pages.querySelectorAll('.key.kind-record')) {
      if (key.dataset.recordState !== state) key.dataset.recordState = state;
      let line = key.querySelector('.record-status');
      if (!line) {
        line = element('span', 'sub record-status');
        key.querySelector('.face')?.append(line);
      }
      if (line.textContent !== caption) line.textContent = caption;
      const description = state === 'idle' ? 'Starts recording the screen' : `${this.status.caption()}; stops it`;
      if (key.getAttribute('aria-description') !== description) key.setAttribute('aria-description', description);
    }
  }

  #list(entries) {
    this.entries = entries;
    this.empty.hidden = entries.length > 0;
    this.list.replaceChildren(...entries.map((entry) => this.#row(entry)));
    this.#checkFetched(entries);
  }

  // The file kept on the device is handed on only while it is the file the computer has: a size that differs, a
  // file still being recorded or gone, or (asked of the host) another SHA-256 lets it go, and Get fetches again.
  #checkFetched(entries) {
    const kept = this.fetched;
    if (!kept) return;
    const entry = entries.find((e) => e.name === kept.name);
    if (!entry || entry.recording || entry.size !== kept.size) return this.#forget(kept);
    this.fetcher.check(kept.name, kept.size).then(({ size, sha256: digest }) => {
      if (size !== kept.size || digest !== kept.sha256) this.#forget(kept);
    }, (error) => log.info('could not check a fetched file', { error: String(error?.message ?? error) }));
  }

  #forget(kept) {
    if (this.fetched !== kept) return;
    this.fetched = null;
    this.#showAction(kept.name);
  }

  #row(entry) {
    const row = element('li', 'recording');
    row.dataset.name = entry.name;
    const thumb = element(entry.thumbnail ? 'img' : 'span', 'recording-thumb');
    if (entry.thumbnail) {
      thumb.src = entry.thumbnail;
      thumb.alt = '';
    }
    // The file being recorded now is not a file yet: it shows as recording and cannot be fetched until it ends.
    const details = entry.recording ? liveCaption(this.#snapshot())
      : `${formatClock(entry.durationMs)} · ${formatSize(entry.size)}`;
    if (entry.recording) row.dataset.live = '';
    const meta = element('div', 'recording-meta');
    meta.append(element('span', 'recording-name', entry.name), element('span', 'recording-details', details));
    const actions = element('div', 'recording-actions');
    const action = button('', '', () => this.#act(entry));
    action.className = 'recording-action';
    actions.append(action);
    if (!entry.recording) actions.append(this.#deleteButton(entry.name));
    row.append(thumb, meta, actions);
    this.#showAction(entry.name, action);
    return row;
  }

  // Delete asks once more on the same button ("Delete?"), so a stray tap loses nothing.
  #deleteButton(name) {
    const remove = button('', 'Delete', () => {
      if (remove.dataset.confirm === undefined) {
        remove.dataset.confirm = '';
        remove.textContent = 'Delete?';
        remove.setAttribute('aria-label', `Delete ${name} for good`);
        clearTimeout(remove.timer);
        remove.timer = setTimeout(() => {
          delete remove.dataset.confirm;
          remove.textContent = 'Delete';
          remove.setAttribute('aria-label', `Delete ${name}`);
        }, CONFIRM_MS);
        return;
      }
      clearTimeout(remove.timer);
      remove.disabled = true;
      if (this.fetched?.name === name) this.fetched = null;
      this.client.send({ type: 'deleteRecording', name });
    });
    remove.className = 'recording-delete';
    remove.setAttribute('aria-label', `Delete ${name}`);
    return remove;
  }

  // A refused delete says why; the list stays as the host last sent it.
  #hostError(event) {
    if (!answers(event.detail, 'deleteRecording')) return;
    event.preventDefault();
    this.toast(describeError(event.detail));
    this.refresh();
  }

  // The list is drawn again whenever it arrives (after a reconnect too), so a row's button is found by name and
  // shows the file's state: Get, the share of it fetched, or Share / Download once it is here.
  #showAction(name, action = this.#actionOf(name)) {
    if (!action) return;
    const live = this.entries?.find((e) => e.name === name)?.recording === true;
    const text = live ? 'Recording' : this.fetched?.name === name ? saveLabel(name)
      : this.progress?.name === name ? `${this.progress.percent} %` : 'Get';
    if (action.textContent !== text) action.textContent = text;
    action.disabled = live || this.progress?.name === name;
  }

  #actionOf(name) {
    return [...this.list.querySelectorAll('.recording')].find((row) => row.dataset.name === name)
      ?.querySelector('.recording-action');
  }

  // First tap fetches; the second hands the file on, so the share sheet opens on a fresh tap (browsers allow
  // navigator.share only right after one).
  async #act(entry) {
    const { name } = entry;
    if (entry.recording) return;
    if (this.fetched?.name === name) {
      const outcome = await handOver(this.fetched.bytes, name);
      const action = this.#actionOf(name);
      if (action) action.dataset.outcome = outcome;
      return;
    }
    if (this.progress) return this.toast('One file at a time: wait for the one being fetched.');
    const previous = this.fetched?.name;
    this.progress = { name, percent: 0 };
    this.#showAction(name);
    try {
      const file = await this.fetcher.fetchFile(name, (held, size) => {
        this.progress = { name, percent: Math.floor((held * 100) / Math.max(size, 1)) };
        this.#showAction(name);
      });
      this.fetched = { name, ...file }; // one file kept: the one fetched before is let go
    } catch (error) {
      this.toast(error instanceof FetchError ? `Could not get ${name}: ${error.message}` : `Could not get ${name}`);
      this.refresh(); // a file deleted on the computer leaves the list
    } finally {
      this.progress = null;
      this.#showAction(name);
      if (previous && previous !== name) this.#showAction(previous);
    }
  }
}

/** What the row of the file being recorded says: the recording's own caption ("Recording 0:12"). */
function liveCaption(snapshot) {
  return snapshot.state === 'idle' ? 'Recording…' : snapshot.caption;
}

function saveLabel(name) {
  const probe = new File([], name, { type: 'video/mp4' });
  return navigator.canShare?.({ files: [probe] }) ? 'Share' : 'Download';
}

function element(tag, cls, text) {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  if (text != null) el.textContent = text;
  return el;
}

function button(id, text, onClick) {
  const el = element('button', '', text);
  el.type = 'button';
  if (id) el.id = id;
  el.addEventListener('click', onClick);
  return el;
}

function option(value, text) {
  const el = element('option', '', text);
  el.value = value;
  return el;
}
