// Wires the client object to the views. Everything the grid shows comes from the host.
import { DeckClient } from '../core/client.js';
import * as handshake from '../core/handshake.js';
import { DeckView } from './deck.js';
import { VolumeGauge } from './gauge.js';
import { buildKeypad } from './keypad.js';
import { EditSheet } from './editor.js';
import { AppPicker } from './picker.js';
import { ScreenView } from './screen.js';
import { createKeyboard } from './keyboard.js';
import { createSoundPlayer } from './sound.js';
import { fitKeys } from './sizing.js';
import { explainInsecure, explainUnreachable, hideNotice } from './notice.js';
import { keepAwake } from './wakelock.js';
import { attachRecordButton, setUpRecordings } from './recordings.js';
import { cleanName, guessDeviceName } from '../core/names.js';

const $ = (selector) => document.querySelector(selector);
const app = $('#app');
const status = $('#status-text');
let layout = [Array(12).fill(null)];
let apps = [];

const NAME_KEY = 'touchdeck.deviceName';

/** The name this device goes by: the one its user gave on the PIN sheet, else a guess from the browser. */
function deviceName() {
  return cleanName(localStorage.getItem(NAME_KEY) ?? '') || guessDeviceName(navigator);
}

if (!window.isSecureContext || !globalThis.crypto?.subtle) {
  explainInsecure($('#notice'));
} else {
  start();
}

function start() {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const client = new DeckClient({
    url: `${scheme}://${location.host}/ws`, storage: localStorage, handshake, WebSocket, name: deviceName(),
  });
  const iconFor = (id) => apps.find((a) => a.id === id)?.icon ?? null;
  // Recording (SPEC §11): record keys, the Recordings view, the fields of the edit sheet.
  const recordings = setUpRecordings(client, { pages: $('#pages'), view: $('#recordings-view'), toast });
  const picker = new AppPicker($('#app-picker'), { requestApps: () => client.send({ type: 'listApps' }) });
  const editor = new EditSheet($('#edit-sheet'), {
    onSave: (page, index, button) => client.send({ type: 'setButton', page, index, button }),
    onDelete: (page, index) => client.send({ type: 'clearButton', page, index }),
    pickApp: () => picker.pick(),
    appName: (id) => apps.find((a) => a.id === id)?.name ?? null,
    iconFor,
    recordFields: recordings.keyFields($('#edit-sheet')),
  });
  const deck = new DeckView($('#pages'), $('#dots'), {
    onPress: (page, index) => client.send({ type: 'press', page, index }),
    onEdit: (page, index) => editor.open(page, index, layout[page]?.[index] ?? null),
    iconFor,
  });
  const gauge = new VolumeGauge($('#gauge'), {
    onLevel: (level) => client.send({ type: 'setVolume', level }),
    onToggleMute: () => client.send({ type: 'toggleMute' }),
  });
  buildKeypad($('#keypad'), (key) => client.send({ type: 'keypad', key }));
  const screenView = new ScreenView($('#screen-view'), { client });
  screenView.attachKeyboard(createKeyboard);
  screenView.attachSound(createSoundPlayer());
  attachRecordButton(screenView); // recording: the toolbar's record button (Web/app/recordings.js)
  setUpTabs((tab) => screenView.shown(tab === 'screen'));
  setUpPairing(client);
  const resize = () => {
    const landscape = fitKeys(app);
    gauge.setVertical(landscape);
  };
  addEventListener('resize', resize);
  resize();

  client.addEventListener('state', ({ detail }) => showState(client, detail));
  let appsAsked = false;
  client.addEventListener('layout', ({ detail }) => {
    layout = detail.pages;
    deck.show(layout);
    // App keys show their icons; the catalog comes once, the first time a layout holds an app button.
    if (!appsAsked && layout.some((page) => page.some((button) => button?.kind === 'app'))) {
      appsAsked = client.send({ type: 'listApps' });
    }
  });
  client.addEventListener('pressResult', ({ detail }) => {
    deck.showResult(detail);
    if (!detail.ok) toast(detail.reason || 'That did not work.');
  });
  client.addEventListener('keypadResult', ({ detail }) => { if (!detail.ok) toast(detail.reason); });
  client.addEventListener('typed', ({ detail }) => { if (!detail.ok) toast(detail.reason); });
  client.addEventListener('volume', ({ detail }) => gauge.show(detail));
  client.addEventListener('apps', ({ detail }) => {
    apps = detail.apps;
    picker.setApps(apps);
    deck.updateIcons();
  });
  client.addEventListener('revoked', () => {
    layout = [Array(12).fill(null)];
    apps = [];
    appsAsked = false;
    deck.clear();
    picker.setApps([]);
    for (const sheet of [$('#edit-sheet'), $('#app-picker')]) if (sheet.open) sheet.close();
  });
  client.addEventListener('hostError', ({ detail }) => toast(detail.message || detail.code));
  document.addEventListener('visibilitychange', () => { if (!document.hidden) client.wake(); });
  keepAwake();
  client.start();
  window.touchdeck = client; // for the browser tests and for curious users
  // The viewer, for the browser tests and the benchmark (its keyboard and sound are attached above).
  window.touchdeckViewer = screenView;
}

function showState(client, { state, everOpened }) {
  const ready = state === 'ready';
  app.classList.toggle('connected', ready);
  app.classList.toggle('disconnected', !ready);
  app.setAttribute('aria-busy', String(!ready));
  const gap = ready && client.hostProtocol < client.protocol ? ' — update the TouchDeck host for typing' : '';
  status.textContent = {
    ready: `Connected to ${client.hostName}${gap}`,
    connecting: 'Connecting…',
    greeting: 'Connecting…',
    authenticating: 'Authenticating…',
    needPin: `Pair with ${client.hostName || 'the computer'}`,
    pairing: 'Pairing…',
    waiting: 'Disconnected — reconnecting…',
    idle: 'Stopped',
  }[state];
  if (ready) hideNotice($('#notice'));
  if (state === 'waiting' && !everOpened && client.attempt >= 2) explainUnreachable($('#notice'));
  const pair = $('#pair-sheet');
  if (state === 'needPin' && !pair.open) pair.showModal();
  if (state !== 'needPin' && state !== 'pairing' && pair.open) pair.close();
}

function setUpPairing(client) {
  const form = $('#pair-form');
  const pin = $('#pin');
  const name = $('#device-name');
  const error = $('#pair-error');
  name.value = client.name;
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const value = pin.value.trim();
    if (!/^\d{6}$/.test(value)) {
      error.textContent = 'The PIN has 6 digits.';
      return;
    }
    // Cleaned as the host will clean it, so the name kept here is the one `touchdeck devices` shows
    // (before the host adds " 2" to a name another device has).
    client.name = cleanName(name.value) || guessDeviceName(navigator);
    name.value = client.name;
    localStorage.setItem(NAME_KEY, client.name);
    error.textContent = '';
    pin.value = '';
    client.submitPin(value);
  });
  $('#pair-sheet').addEventListener('cancel', (e) => e.preventDefault());
  client.addEventListener('pairingFailed', ({ detail }) => {
    error.textContent = {
      wrongPin: `Wrong PIN. ${detail.remaining} ${detail.remaining === 1 ? 'try' : 'tries'} left.`,
      noPin: detail.retryAfter ? `Too many tries. Wait ${detail.retryAfter} s, then run touchdeck pair.`
        : 'No PIN is active. Run touchdeck pair on the computer.',
      expired: 'That PIN expired. Run touchdeck pair again.',
    }[detail.reason] ?? 'Pairing failed. Try again.';
    if (detail.reason === 'wrongPin' && detail.remaining === 0) error.textContent = 'Too many wrong PINs. Run touchdeck pair for a new one.';
  });
  client.addEventListener('revoked', () => {
    error.textContent = 'This device is no longer paired with the computer. Enter a new PIN.';
  });
}

function setUpTabs(onChange) {
  const tabs = document.querySelectorAll('.tabs [data-tab]');
  let current = 'deck';
  for (const tab of tabs) {
    tab.addEventListener('click', () => {
      if (tab.dataset.tab === current) return;
      current = tab.dataset.tab;
      for (const other of tabs) {
        const on = other === tab;
        other.setAttribute('aria-selected', String(on));
        $(`#${other.dataset.tab}-view`).hidden = !on;
      }
      onChange(current);
    });
  }
}

let toastTimer = null;
function toast(text) {
  const el = $('#toast');
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 3000);
}
