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
import { attachClipboard } from './clipboard.js';
import { setUpEditLock } from './edit-lock.js';
import { cleanName, guessDeviceName } from '../core/names.js';
import { describeError, sentence } from '../core/errors.js';
import { searchPlaceholder } from '../core/search.js';
import { isKnownKind } from '../core/key-kinds.js';
import { iconApp } from '../core/looks.js';
import { allButtons, pagesAt } from '../core/folders.js';
import { layoutGrid } from '../core/grids.js';
import * as profileMessages from '../core/profiles.js';
import { imageName, storeIcon, StoredIcons } from '../core/stored-icons.js';

const $ = (selector) => document.querySelector(selector);
const app = $('#app');
const status = $('#status-text');
let layout = [Array(12).fill(null)];
let apps = [];
let profiles = profileMessages.NO_PROFILES;

const NAME_KEY = 'touchdeck.deviceName';
const TAB_KEY = 'touchdeck.tab';

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
  // Stored icons (PROTOCOL §6 "Stored icons"): each picture asked for once by name and kept while the page lives.
  const storedIcons = new StoredIcons((message) => client.send(message));
  const imageFor = (name) => storedIcons.src(name);
  const iconUpload = setUpIconUpload(client, storedIcons);
  // Recording (DESIGN.md#recording): record keys, the Recordings view, the fields of the edit sheet.
  const recordings = setUpRecordings(client, { pages: $('#pages'), view: $('#recordings-view'), toast });
  const picker = new AppPicker($('#app-picker'), { requestApps: () => client.send({ type: 'listApps' }),
    placeholder: (list) => searchPlaceholder(navigator.languages ?? [navigator.language], list) });
  const editor = new EditSheet($('#edit-sheet'), {
    onSave: (page, index, button, path) => client.send({ type: 'setButton', page, index, button, ...inFolder(path) }),
    onDelete: (page, index, path) => client.send({ type: 'clearButton', page, index, ...inFolder(path) }),
    pickApp: () => picker.pick(),
    appName: (id) => apps.find((a) => a.id === id)?.name ?? null,
    iconFor,
    storeImage: iconUpload,
    imageFor,
    recordFields: recordings.keyFields($('#edit-sheet')),
    profiles: {
      names: () => profiles.names,
      add: (name) => client.send(profileMessages.addProfile(name)),
      importFile: (text, size) => {
        const { message, problem } = profileMessages.importProfile(text, size);
        if (message) client.send(message);
        return problem ?? '';
      },
    },
  });
  setUpProfilePicker(client, () => profiles);
  // Undo (host-side, 20 edits of the profile shown): the host says in each layout how many are left.
  $('#undo').addEventListener('click', () => client.send({ type: 'undo' }));
  let editLock = null;
  const editToggle = $('#edit-mode');
  const deck = new DeckView($('#pages'), $('#dots'), {
    onPress: (page, index, path) => client.send({ type: 'press', page, index, ...inFolder(path) }),
    onSlide: (page, index, path, value) => client.send({ type: 'setSlider', page, index, value, ...inFolder(path) }),
    // A key held while pressed (PROTOCOL §6 "Hold while pressed"): pressDown and pressUp, built in key-hold.js.
    onHold: (message) => client.send(message),
    hostProtocol: () => client.hostProtocol ?? 1,
    onEditing: (on) => {
      editToggle.setAttribute('aria-pressed', String(on));
      editToggle.querySelector('.edit-mode-text').textContent = on ? 'Done' : 'Edit';
    },
    // A key dragged onto another slot (PROTOCOL §6 "Moving keys"): the host moves it, swapping with a key there.
    onMove: (from, to, path) => client.send({
      type: 'moveButton', fromPage: from.page, fromIndex: from.index, toPage: to.page, toIndex: to.index, ...inFolder(path),
    }),
    onEdit: (page, index, path = []) => {
      const button = pagesAt(layout, path)?.[page]?.[index] ?? null;
      // A kind this app does not know would lose its other fields if saved back (PROTOCOL §6): pressed, never edited.
      if (button && !isKnownKind(button.kind)) toast(cannotEdit(button));
      else if (editLock.mayEdit()) {
        editor.open(page, index, button, Boolean(button), path);
        editor.showKeyState(deck.keyStateAt(page, index, path)); // its state command's last error, if any
      }
      else editLock.explain();
    },
    iconFor,
    imageFor,
    notify: (text) => toast(text),
  });
  // A device that may not edit is told how to allow it instead (README "What each device may do").
  editLock = setUpEditLock(client, { deck, sheets: [$('#app-picker'), $('#edit-sheet')],
    dialog: $('#edit-refused') });
  // Edit mode (hidden with the other edit tools on a device that may not edit): tapped again, it ends.
  editToggle.addEventListener('click', () => {
    if (!deck.editing && !editLock.mayEdit()) return editLock.explain();
    deck.setEditing(!deck.editing);
  });
  const gauge = new VolumeGauge($('#gauge'), {
    onLevel: (level) => client.send({ type: 'setVolume', level }),
    onToggleMute: () => client.send({ type: 'toggleMute' }),
  });
  buildKeypad($('#keypad'), (key) => client.send({ type: 'keypad', key }));
  let tabs = null;
  const screenView = new ScreenView($('#screen-view'), { client, onClose: () => tabs.select('deck') });
  screenView.attachKeyboard(createKeyboard);
  screenView.attachSound(createSoundPlayer());
  attachRecordButton(screenView); // recording: the toolbar's record button (Web/app/recordings.js)
  attachClipboard(screenView, { client, notify: toast }); // "Paste to computer" and the offer bar
  tabs = setUpTabs((tab) => screenView.shown(tab === 'screen'));
  setUpPairing(client);
  const resize = () => {
    const landscape = fitKeys(app);
    gauge.setVertical(landscape);
  };
  addEventListener('resize', resize);
  // Another grid size: the host moves what does not fit to following pages and sends the layout to every device.
  $('#grid-size').addEventListener('change', (e) => client.send({ type: 'setGrid', grid: e.target.value }));
  // The deck is measured whenever its area changes size, so a rotation while another tab showed (the deck hidden,
  // nothing to measure) is caught up when it shows again.
  new ResizeObserver(resize).observe($('#pages'));
  resize();
  tabs.select(localStorage.getItem(TAB_KEY) ?? 'deck');

  client.addEventListener('state', ({ detail }) => {
    showState(client, detail);
    if (detail.state !== 'ready') {
      deck.forgetRunning();
      deck.dropHolds(); // the host let go of what this connection held when it closed
      deck.showMedia(null); // a player seen before may be gone; the host says again after authorization
      deck.forgetKeyStates(); // live looks too: the host sends them again after authorization
    }
  });
  // A save the host refused as a bad message (an open target it does not take…) goes back to the sheet.
  client.addEventListener('hostError', (event) => {
    const error = event.detail;
    if (['importProfile', 'addProfile'].includes(error.request) && editor.profileRefused(describeError(error))) {
      return event.preventDefault();
    }
    if (error.code !== 'badMessage' || error.request !== 'setButton') return;
    if (editor.refused(describeError(error))) event.preventDefault();
  });
  let appsAsked = false;
  let shownProfile;
  client.addEventListener('layout', ({ detail }) => {
    editor.settled();
    // Another profile: its own first page, out of any folder of the one before (each device's own place).
    $('#undo').hidden = !(detail.undoSteps > 0);
    $('#undo').title = detail.undoSteps > 0 ? `${detail.undoSteps} change${detail.undoSteps === 1 ? '' : 's'} to undo` : '';
    if (detail.profile !== shownProfile) deck.leave();
    shownProfile = detail.profile;
    app.dataset.profile = detail.profile ?? '';
    layout = detail.pages;
    // The deck's grid size sizes the keys (Web/app/sizing.js) before the pages are drawn in it.
    const grid = layoutGrid(detail);
    $('#grid-size').value = grid;
    if (app.dataset.grid !== grid) {
      app.dataset.grid = grid;
      resize();
    }
    deck.show(layout, detail.profile);
    // App keys and app icons show their pictures; the catalog comes once, the first time a layout needs one.
    if (!appsAsked && allButtons(layout).some((button) => iconApp(button))) {
      appsAsked = client.send({ type: 'listApps' });
    }
    storedIcons.want(allButtons(layout).map(imageName).filter(Boolean));
  });
  client.addEventListener('icon', ({ detail }) => {
    storedIcons.received(detail);
    deck.updateIcons();
    editor.looks.showImage();
  });
  client.addEventListener('pressResult', ({ detail }) => {
    deck.showResult(detail);
    if (!detail.ok) toast(detail.reason || 'That did not work.');
  });
  client.addEventListener('profiles', ({ detail }) => {
    const before = profiles;
    profiles = profileMessages.readProfiles(detail);
    showProfiles(profiles);
    editor.showProfiles(profiles.names);
    const added = profiles.names.find((name) => !before.names.includes(name));
    if (added && before.names.length) editor.profileAdded(added, `Added “${added}”.`);
  });
  client.addEventListener('profileImported', ({ detail }) => {
    editor.profileAdded(detail.name, `Imported as “${detail.name}”.`, true);
  });
  client.addEventListener('mediaState', ({ detail }) => deck.showMedia(detail));
  // Live looks (PROTOCOL §6 "Live looks"): drawn on the key in place; an open edit sheet of that key shows its error.
  client.addEventListener('keyState', ({ detail }) => {
    deck.showKeyState(detail);
    if (detail?.profile === shownProfile) editor.showKeyState(deck.keyStateAt(detail.page, detail.index, detail.path ?? []), detail);
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
  // Errors a waiting place took (the Screen tab, a recording's Get) are shown there; the rest here.
  client.addEventListener('unhandledError', ({ detail }) => toast(describeError(detail)));
  document.addEventListener('visibilitychange', () => { if (!document.hidden) client.wake(); });
  keepAwake();
  client.start();
  window.touchdeck = client; // for the browser tests and for curious users
  // The viewer, for the browser tests and the benchmark (its keyboard and sound are attached above).
  window.touchdeckViewer = screenView;
}

/**
 * The header's profile picker (PROTOCOL §6 "Profiles"): the deck this device shows, and "Only here" to keep it on
 * this device alone (unticked, the device follows the shared profile, and a switch here switches it for every
 * device that follows). Hidden until the host says which profiles there are, and while there is only one.
 */
function setUpProfilePicker(client, current) {
  const pick = $('#profile-pick');
  const own = $('#profile-own');
  pick.addEventListener('change', () => client.send(profileMessages.switchProfile(pick.value)));
  own.addEventListener('change', () => client.send(profileMessages.followProfile(!own.checked)));
  // Rename and delete the profile shown (edits: a device that may not edit does not see them; the host says why
  // it refuses, e.g. a name another profile has, as any refused request).
  $('#profile-rename').addEventListener('click', () => {
    const { names, shown } = current();
    const { message, problem } = profileMessages.renameRequest(names, shown, prompt(`Rename “${shown}” to`, shown));
    if (problem) toast(problem);
    if (message) client.send(message);
  });
  // The apps the profile shown is for (desktop entry ids, X11 WM_CLASS names, Wayland app ids): while one has the
  // focus on the computer, the devices that follow the shared profile show it.
  $('#profile-apps').addEventListener('click', () => {
    const { shown, apps } = current();
    const before = apps[shown] ?? [];
    const typed = prompt(`Apps “${shown}” is for (desktop entry ids, X11 classes or Wayland app ids; commas between):`,
      before.join(', '));
    const { message, problem } = profileMessages.appsRequest(shown, before, typed);
    if (problem) toast(problem);
    if (message) client.send(message);
  });
  $('#profile-delete').addEventListener('click', () => {
    const { names, shown } = current();
    const problem = profileMessages.deleteProblem(names, shown);
    if (problem) return toast(problem);
    if (confirm(`Delete the profile “${shown}” and its keys? Devices that show it go to the shared profile.`)) {
      client.send(profileMessages.deleteProfile(shown));
    }
  });
  client.addEventListener('state', ({ detail }) => { if (detail.state !== 'ready') showProfiles(profileMessages.NO_PROFILES); });
  showProfiles(current());
}

function showProfiles({ names, shown, follows, focusProfile }) {
  const box = $('.profile-choice');
  const pick = $('#profile-pick');
  box.hidden = names.length < 2 && follows;
  pick.replaceChildren(...names.map((name) => new Option(name, name)));
  pick.value = shown;
  $('#profile-own').checked = !follows;
  $('#profile-delete').disabled = names.length < 2;
  box.title = !follows ? 'Only this device shows this profile'
    : focusProfile === shown ? 'Shown while an app it is for has the focus on the computer'
      : 'Every device that follows the shared profile shows this one';
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

/** The tabs; the one chosen last is remembered on this device. Returns { select(tab) }. */
function setUpTabs(onChange) {
  const tabs = [...document.querySelectorAll('.tabs [data-tab]')];
  let current = 'deck';
  const select = (name) => {
    const chosen = tabs.find((tab) => tab.dataset.tab === name) ?? tabs[0];
    // Tapping the tab that shows opens it again (a Screen tab whose view was closed).
    current = chosen.dataset.tab;
    for (const other of tabs) {
      const on = other === chosen;
      other.setAttribute('aria-selected', String(on));
      $(`#${other.dataset.tab}-view`).hidden = !on;
    }
    localStorage.setItem(TAB_KEY, current);
    onChange(current);
  };
  for (const tab of tabs) tab.addEventListener('click', () => select(tab.dataset.tab));
  return { select, get current() { return current; } };
}

/**
 * Sends a picture chosen in the edit sheet as `storeIcon`; resolves to `{ name }` once the host stored it (and asks
 * for the stored picture, so the sheet and the key show what the host made of it), or `{ problem }`. One at a time:
 * a second choice replaces the first's wait.
 */
function setUpIconUpload(client, storedIcons) {
  let waiting = null;
  const answer = (value) => {
    waiting?.(value);
    waiting = null;
  };
  client.addEventListener('iconStored', ({ detail }) => {
    storedIcons.want([detail.name]);
    answer({ name: detail.name });
  });
  client.addEventListener('hostError', (event) => {
    if (event.detail.request !== 'storeIcon' || !waiting) return;
    answer({ problem: describeError(event.detail) });
    event.preventDefault();
  });
  client.addEventListener('state', ({ detail }) => {
    if (detail.state === 'ready') return;
    storedIcons.reset();
    answer({ problem: 'the connection to the computer dropped; choose the image again' });
  });
  return async (file) => {
    answer({ problem: '' });
    const bytes = new Uint8Array(await file.arrayBuffer());
    return new Promise((resolve) => {
      waiting = resolve;
      if (!client.send(storeIcon(bytes))) answer({ problem: 'not connected to the computer' });
    });
  };
}

/** The small notice for a key of a kind this device's app cannot edit. */
/** A message's `path` field when it names a folder; the deck's own keys keep the old message form. */
const inFolder = (path) => (path?.length ? { path } : {});

function cannotEdit(button) {
  const name = button.label ? `“${button.label}”` : 'This key';
  return `${name} is a kind of key this device's app cannot edit yet (${button.kind}). It still works when pressed.`;
}

let toastTimer = null;
/** A short note at the top of the page (over the status line, never over keys), as a sentence. */
function toast(text) {
  const el = $('#toast');
  el.textContent = sentence(text) || 'That did not work.';
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 3000);
}
