// The viewer's keyboard (DESIGN.md#typing, PROTOCOL §6 "Text input"): sticky Ctrl/Alt/Shift/Super, rows of special keys
// (the F-keys and the page keys on a second page where the screen is narrow) and a text field whose text is
// typed into the focused window on the host with Send, or with Send + Enter; in live mode each key typed in
// the field is sent at once (core/live-keys.js), so Ctrl+S and Alt+Tab can be pressed. It covers the bottom of
// the view instead of shrinking it; the viewer reads `coveredHeight()` (the panel and the system keyboard under
// it) so two fingers can lift the picture by that much. Self-contained: the viewer gives it `send` and shows the
// keyboard button only when the host serves typing (`typingAvailable` in core/textinput.js).
import { cleanText } from '../core/textinput.js';
import { StickyModifiers } from '../core/modifiers.js';
import { keyMessage, liveInput, liveKeydown, liveText } from '../core/live-keys.js';

/** Backspace held: the first repeat after this long… */
export const REPEAT_DELAY_MS = 400;
/** …then one every this long, until the finger lifts or the touch is lost. */
export const REPEAT_INTERVAL_MS = 80;

const SPECIAL_KEYS = [
  ['esc', 'Esc', 'Escape'], ['tab', 'Tab', 'Tab'], ['shiftTab', '⇤', 'Shift Tab'],
  ['left', '←', 'Left'], ['up', '↑', 'Up'], ['down', '↓', 'Down'], ['right', '→', 'Right'],
  ['selectAll', 'All', 'Select all'], ['ctrlC', '^C', 'Control C'], ['backspace', '⌫', 'Backspace'],
  ['return', '⏎', 'Return'],
];
const MORE_KEYS = [
  ...Array.from({ length: 12 }, (_, n) => [`f${n + 1}`, `F${n + 1}`, `F${n + 1}`]),
  ['home', 'Home', 'Home'], ['end', 'End', 'End'], ['pageUp', 'PgUp', 'Page up'], ['pageDown', 'PgDn', 'Page down'],
  ['delete', 'Del', 'Delete'], ['insert', 'Ins', 'Insert'],
];
const MODIFIER_KEYS = [['ctrl', 'Ctrl', 'Control'], ['alt', 'Alt', 'Alt'], ['shift', '⇧', 'Shift'],
  ['super', 'Super', 'Super']];
const LIVE_HINT = 'Live: each key is sent as you type';

/**
 * Calls `press` at once, then after `delay` ms and every `interval` ms after that, until `stop()`.
 * `clock` has setTimeout/clearTimeout (a fake one in tests).
 */
export function createRepeater(press, clock = globalThis, { delay = REPEAT_DELAY_MS, interval = REPEAT_INTERVAL_MS } = {}) {
  let timer = null;
  const schedule = (wait) => {
    timer = clock.setTimeout(() => {
      press();
      schedule(interval);
    }, wait);
  };
  return {
    start() {
      if (timer !== null) return;
      press();
      schedule(delay);
    },
    stop() {
      if (timer === null) return;
      clock.clearTimeout(timer);
      timer = null;
    },
    get running() { return timer !== null; },
  };
}

/** The message Send (or Send + Enter) sends for the field's `value`; null when there is nothing to send. */
export function textMessage(value, enter) {
  const text = cleanText(value);
  if (text.length > 0) return { type: 'typeText', text, enter: Boolean(enter) };
  return enter ? { type: 'pressKey', key: 'return' } : null;
}

/**
 * How much of the view the keyboard covers, in CSS pixels: its panel plus the part of the layout viewport the
 * system keyboard hides (`innerHeight` below the visual viewport). 0 when closed.
 */
export function coveredBy({ open, panelHeight, innerHeight, viewportHeight, viewportTop = 0 }) {
  if (!open) return 0;
  const systemKeyboard = viewportHeight === undefined ? 0 : Math.max(0, innerHeight - viewportHeight - viewportTop);
  return Math.round(panelHeight + systemKeyboard);
}

/**
 * Builds the keyboard panel (closed) inside `parent`; `send(message)` sends a device message; `paste()`, when
 * given, is what its Paste button does (the viewer's "Paste to computer", core/clipboard.js).
 */
export function createKeyboard(parent, { send, paste = null }) {
  const element = document.createElement('div');
  element.className = 'keyboard';
  element.hidden = true;
  element.dataset.page = 'main';
  element.setAttribute('role', 'group');
  element.setAttribute('aria-label', 'Keyboard');
  Object.assign(element.style, { position: 'fixed', left: '0', right: '0', bottom: '0', zIndex: '10' });

  const sticky = new StickyModifiers();
  const modifiers = modifierButtons(sticky);
  // Every key sent takes the held modifiers; one held for a single key is released after it.
  const sendKey = (message) => {
    send(message);
    if (sticky.used()) modifiers.show();
  };
  const pressNamed = (key) => sendKey(keyMessage(key, sticky.held()));

  const bar = document.createElement('div');
  bar.className = 'keyboard-bar';
  const live = textButton('Live', 'live');
  live.setAttribute('role', 'switch');
  live.setAttribute('aria-checked', 'false');
  live.setAttribute('aria-label', 'Live typing');
  keepFocus(live);
  // The panel covers the viewer's toolbar (and its keyboard button): it closes itself from here too.
  const hide = textButton('Hide', 'hide');
  hide.setAttribute('aria-label', 'Hide the keyboard');
  keepFocus(hide);
  bar.append(...modifiers.buttons, live, pageSwitch(element), hide);

  const backspace = createRepeater(() => pressNamed('backspace'));
  const keyRow = (className, keys) => {
    const row = document.createElement('div');
    row.className = `keyboard-keys ${className}`;
    for (const [key, face, name] of keys) row.append(keyButton(key, face, name, pressNamed, backspace));
    return row;
  };

  const form = document.createElement('form');
  form.className = 'keyboard-text';
  const field = document.createElement('input');
  Object.assign(field, { type: 'text', autocomplete: 'off', spellcheck: false, enterKeyHint: 'send' });
  field.setAttribute('aria-label', 'Text to type on the computer');
  field.maxLength = 8000;  // UTF-16 units; cleanText keeps 2,000 characters
  const sendButton = textButton('Send', 'send');
  const enterButton = textButton('Send + Enter', 'send-enter');
  form.append(field, sendButton, enterButton);
  const mainKeys = keyRow('keys-main', SPECIAL_KEYS);
  if (paste) {
    // At the end of the special keys: on a phone that row wraps anyway, and the bar above stays one row.
    const pasteButton = textButton('Paste', 'paste');
    pasteButton.setAttribute('aria-label', 'Paste to computer');
    keepFocus(pasteButton);
    pasteButton.addEventListener('click', () => paste());
    mainKeys.append(pasteButton);
  }
  element.append(bar, mainKeys, keyRow('keys-more', MORE_KEYS), form);
  parent.append(element);

  const submit = (enter) => {
    const message = textMessage(field.value, enter);
    if (message) send(message);
    field.value = '';
  };
  sendButton.addEventListener('click', () => submit(false));
  enterButton.addEventListener('click', () => submit(true));
  // The system keyboard's own Return sends the text and presses Enter, as a terminal user expects.
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (isLive()) pressNamed('return');
    else submit(true);
  });

  const isLive = () => live.getAttribute('aria-checked') === 'true';
  live.addEventListener('click', () => {
    const on = !isLive();
    live.setAttribute('aria-checked', String(on));
    element.classList.toggle('live', on);
    field.placeholder = on ? LIVE_HINT : '';
    // Keys, not words: the system keyboard must not capitalize or correct what is sent at once.
    field.setAttribute('autocapitalize', on ? 'off' : 'sentences');
    field.setAttribute('autocorrect', on ? 'off' : 'on');
    if (on) submit(false);  // what was composed before goes first
    field.focus();
  });
  listenLive(field, { isLive, held: () => sticky.held(), sendKey });

  const listeners = new Set();
  let lastCovered = 0;
  const coveredHeight = () => coveredBy({
    open: !element.hidden, panelHeight: element.getBoundingClientRect().height, innerHeight: window.innerHeight,
    viewportHeight: window.visualViewport?.height, viewportTop: window.visualViewport?.offsetTop,
  });
  const update = () => {
    const system = element.hidden ? 0 : coveredBy({
      open: true, panelHeight: 0, innerHeight: window.innerHeight, viewportHeight: window.visualViewport?.height,
      viewportTop: window.visualViewport?.offsetTop,
    });
    element.style.bottom = `${system}px`;  // sit on top of the system keyboard, not behind it
    const covered = coveredHeight();
    if (covered === lastCovered) return;
    lastCovered = covered;
    for (const listener of listeners) listener(covered);
  };
  window.visualViewport?.addEventListener('resize', update);
  window.visualViewport?.addEventListener('scroll', update);
  if (globalThis.ResizeObserver) new ResizeObserver(update).observe(element);
  // A backspace held while the page loses focus or is hidden would repeat forever.
  window.addEventListener('blur', () => backspace.stop());
  document.addEventListener('visibilitychange', () => backspace.stop());

  const keyboard = {
    element,
    coveredHeight,
    /** Calls `callback(coveredHeight)` whenever the covered height changes (opening and closing included). */
    onCoverChange(callback) {
      listeners.add(callback);
      return () => listeners.delete(callback);
    },
    open() {
      element.hidden = false;
      update();
      field.focus();
    },
    close() {
      backspace.stop();
      sticky.clear();  // a modifier left held would surprise the next key, much later
      modifiers.show();
      field.blur();
      element.hidden = true;
      update();
    },
  };
  hide.addEventListener('click', () => keyboard.close());
  return keyboard;
}

/**
 * Live mode on the text field: a key with a meaning of its own (a named key, a chord) is sent on keydown and
 * kept from the field; text arrives as edits (`beforeinput`, which the system keyboards of phones send when
 * their keydown says nothing) and is sent and kept out too, so the field stays empty; an input method's
 * composition (Hangul) is left to finish in the field and sent whole.
 */
function listenLive(field, { isLive, held, sendKey }) {
  field.addEventListener('keydown', (event) => {
    if (!isLive()) return;
    const message = liveKeydown(event, held());
    if (!message) return;
    event.preventDefault();
    sendKey(message);
  });
  field.addEventListener('beforeinput', (event) => {
    if (!isLive() || event.isComposing) return;
    event.preventDefault();
    for (const message of liveInput(event, held())) sendKey(message);
  });
  field.addEventListener('compositionend', (event) => {
    if (!isLive()) return;
    for (const message of liveText(event.data ?? '', held())) sendKey(message);
    setTimeout(() => { field.value = ''; });  // after the browser has put the composed text in
  });
}

/** The sticky modifiers' buttons, and `show()`, which makes them show the machine's states. */
function modifierButtons(sticky) {
  const buttons = MODIFIER_KEYS.map(([name, face, label]) => {
    const button = textButton(face, 'modifier');
    button.dataset.modifier = name;
    button.setAttribute('aria-label', label);
    keepFocus(button);
    button.addEventListener('click', (event) => {
      sticky.tap(name, event.timeStamp);
      show();
    });
    return button;
  });
  const show = () => {
    for (const button of buttons) {
      const state = sticky.state(button.dataset.modifier);
      button.dataset.state = state;
      button.setAttribute('aria-pressed', String(state !== 'off'));
      button.title = { off: '', once: 'Held for the next key', locked: 'Locked: tap to release' }[state];
    }
  };
  show();
  return { buttons, show };
}

/** "F1…": on a narrow screen, switches the panel between its two pages of keys (CSS hides the other one). */
function pageSwitch(panel) {
  const button = textButton('F1…', 'more');
  button.setAttribute('aria-label', 'More keys');
  button.setAttribute('aria-pressed', 'false');
  keepFocus(button);
  button.addEventListener('click', () => {
    const more = panel.dataset.page !== 'more';
    panel.dataset.page = more ? 'more' : 'main';
    button.setAttribute('aria-pressed', String(more));
    button.textContent = more ? 'Esc' : 'F1…';
  });
  return button;
}

/** Keeps the focus (and the system keyboard) on the text field when `button` is tapped. */
function keepFocus(button) {
  button.addEventListener('mousedown', (event) => event.preventDefault());
}

function keyButton(key, face, name, press, backspace) {
  const button = textButton(face, `key-${key}`);
  button.dataset.key = key;
  button.setAttribute('aria-label', name);
  keepFocus(button);
  if (key !== 'backspace') {
    button.addEventListener('click', () => press(key));
    return button;
  }
  button.addEventListener('pointerdown', (event) => {
    event.preventDefault();
    button.setPointerCapture?.(event.pointerId);
    backspace.start();
  });
  for (const end of ['pointerup', 'pointercancel', 'lostpointercapture', 'touchend', 'touchcancel', 'blur']) {
    button.addEventListener(end, () => backspace.stop());
  }
  // A keyboard user (Enter or Space on the focused button) gets one press per activation.
  button.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      press('backspace');
    }
  });
  return button;
}

function textButton(label, className) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = className;
  button.textContent = label;
  return button;
}
