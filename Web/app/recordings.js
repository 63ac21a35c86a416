// Recording on the device (SPEC §11, PROTOCOL §6 "Recording"): every record key shows the host's recording
// (idle, recording with the elapsed time, paused); the Recordings view pauses, resumes and stops it, lists the
// files (thumbnail, length, size), fetches one and hands it to the share sheet ("Save Video" puts it in an
// iPad's Photos) or downloads it. The deck view is not touched: keys are decorated when they appear.
import { FetchError, RecordingFetcher, RecordingStatus, formatClock, formatSize } from '../core/recording.js';
import { sha256 } from '../core/webcrypto.js';
import { log } from '../core/log.js';

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
    this.fetched = null; // { name, bytes }: the last file fetched, kept until another is
    this.progress = null; // { name, percent }: the file being fetched
    this.ticker = null;
    this.#build();
    client.addEventListener('recordState', ({ detail }) => this.#state(detail));
    client.addEventListener('recordings', ({ detail }) => this.#list(detail.recordings ?? []));
    client.addEventListener('recordDenied', ({ detail }) => toast(detail.message || `Recording: ${detail.reason}`));
    client.addEventListener('state', ({ detail }) => { if (detail.state === 'ready' && !view.hidden) this.refresh(); });
    document.querySelector('[data-tab="recordings"]')?.addEventListener('click', () => this.refresh());
    new MutationObserver(() => this.#decorateKeys()).observe(pages, { childList: true, subtree: true });
  }

  refresh() { this.client.send({ type: 'listRecordings' }); }

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
    controls.append(this.caption, this.pauseButton, this.stopButton);
    this.list = element('ul', 'recording-list');
    this.list.setAttribute('aria-label', 'Recordings');
    this.empty = element('p', 'recording-empty', 'No recordings yet. Add a Record key to the deck to make one.');
    this.view.replaceChildren(controls, this.list, this.empty);
    this.#showStatus();
  }

  #state(message) {
    const wasSaved = message.state === 'idle' && message.name && this.status.state !== 'idle';
    this.status.update(message);
    clearInterval(this.ticker);
    this.ticker = message.state === 'recording' ? setInterval(() => this.#showStatus(), 1000) : null;
    this.#showStatus();
    if (wasSaved) this.refresh();
    if (message.reason === 'diskFull') this.toast('Recording stopped: the disk is full. The file is saved.');
    if (message.reason === 'error') this.toast('Recording stopped by an error. The file is saved.');
  }

  #snapshot() {
    return { state: this.status.state, caption: this.status.caption(), elapsedMs: this.status.elapsedMs() };
  }

  #showStatus() {
    const snapshot = this.#snapshot();
    this.caption.textContent = snapshot.caption;
    this.pauseButton.hidden = snapshot.state === 'idle';
    this.stopButton.hidden = snapshot.state === 'idle';
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
    this.empty.hidden = entries.length > 0;
    this.list.replaceChildren(...entries.map((entry) => this.#row(entry)));
  }

  #row(entry) {
    const row = element('li', 'recording');
    row.dataset.name = entry.name;
    const thumb = element(entry.thumbnail ? 'img' : 'span', 'recording-thumb');
    if (entry.thumbnail) {
      thumb.src = entry.thumbnail;
      thumb.alt = '';
    }
    const meta = element('div', 'recording-meta');
    meta.append(element('span', 'recording-name', entry.name),
      element('span', 'recording-details', `${formatClock(entry.durationMs)} · ${formatSize(entry.size)}`));
    const action = button('', '', () => this.#act(entry));
    action.className = 'recording-action';
    row.append(thumb, meta, action);
    this.#showAction(entry.name, action);
    return row;
  }

  // The list is drawn again whenever it arrives (after a reconnect too), so a row's button is found by name and
  // shows the file's state: Get, the share of it fetched, or Share / Download once it is here.
  #showAction(name, action = this.#actionOf(name)) {
    if (!action) return;
    const text = this.fetched?.name === name ? saveLabel(name)
      : this.progress?.name === name ? `${this.progress.percent} %` : 'Get';
    if (action.textContent !== text) action.textContent = text;
    action.disabled = this.progress?.name === name;
  }

  #actionOf(name) {
    return [...this.list.querySelectorAll('.recording')].find((row) => row.dataset.name === name)
      ?.querySelector('.recording-action');
  }

  // First tap fetches; the second hands the file on, so the share sheet opens on a fresh tap (browsers allow
  // navigator.share only right after one).
  async #act(entry) {
    const { name } = entry;
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
      const bytes = await this.fetcher.fetch(name, (held, size) => {
        this.progress = { name, percent: Math.floor((held * 100) / Math.max(size, 1)) };
        this.#showAction(name);
      });
      this.fetched = { name, bytes }; // one file kept: the one fetched before is let go
    } catch (error) {
      this.toast(error instanceof FetchError ? error.message : `Could not fetch ${name}`);
    } finally {
      this.progress = null;
      this.#showAction(name);
      if (previous && previous !== name) this.#showAction(previous);
    }
  }
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
