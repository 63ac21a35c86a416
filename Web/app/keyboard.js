// The viewer's keyboard (SPEC §8, PROTOCOL §6 "Text input"): a row of special keys and a text field whose text
// is typed into the focused window on the host with Send, or with Send + Enter. It covers the bottom of the
// view instead of shrinking it; the viewer reads `coveredHeight()` (the panel and the system keyboard under it)
// so two fingers can lift the picture by that much. Self-contained: the viewer gives it `send` and shows the
// keyboard button only when the host serves typing (`typingAvailable` in core/textinput.js).
import { cleanText } from '../core/textinput.js';

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

/** Builds the keyboard panel (closed) inside `parent`; `send(message)` sends a device message. */
export function createKeyboard(parent, { send }) {
  const element = document.createElement('div');
  element.className = 'keyboard';
  element.hidden = true;
  element.setAttribute('role', 'group');
  element.setAttribute('aria-label', 'Keyboard');
  Object.assign(element.style, { position: 'fixed', left: '0', right: '0', bottom: '0', zIndex: '10' });

  const row = document.createElement('div');
  row.className = 'keyboard-keys';
  const backspace = createRepeater(() => send({ type: 'pressKey', key: 'backspace' }));
  for (const [key, face, name] of SPECIAL_KEYS) row.append(keyButton(key, face, name, send, backspace));
  // The panel covers the viewer's toolbar (and its keyboard button): it closes itself from here too.
  const hide = textButton('Hide', 'hide');
  hide.setAttribute('aria-label', 'Hide the keyboard');
  hide.addEventListener('mousedown', (event) => event.preventDefault());
  row.append(hide);

  const form = document.createElement('form');
  form.className = 'keyboard-text';
  const field = document.createElement('input');
  Object.assign(field, { type: 'text', autocomplete: 'off', spellcheck: false, enterKeyHint: 'send' });
  field.setAttribute('aria-label', 'Text to type on the computer');
  field.maxLength = 8000;  // UTF-16 units; cleanText keeps 2,000 characters
  const sendButton = textButton('Send', 'send');
  const enterButton = textButton('Send + Enter', 'send-enter');
  form.append(field, sendButton, enterButton);
  element.append(row, form);
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
    submit(true);
  });

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
      field.blur();
      element.hidden = true;
      update();
    },
  };
  hide.addEventListener('click', () => keyboard.close());
  return keyboard;
}

function keyButton(key, face, name, send, backspace) {
  const button = textButton(face, `key-${key}`);
  button.dataset.key = key;
  button.setAttribute('aria-label', name);
  // Keep the focus (and the system keyboard) on the text field.
  button.addEventListener('mousedown', (event) => event.preventDefault());
  if (key !== 'backspace') {
    button.addEventListener('click', () => send({ type: 'pressKey', key }));
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
      send({ type: 'pressKey', key: 'backspace' });
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
