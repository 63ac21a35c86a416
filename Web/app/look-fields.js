// The edit sheet's looks (PROTOCOL §6 "Looks"): a colour swatch from the palette (or the kind's own), an icon (an
// emoji typed or chosen from a few, or an installed app's picture), and "hide the label". Every kind has them, so
// they sit below the kind's fields and are merged into whatever the sheet saves. Rules live in Web/core/looks.js.
import { emojiProblem, lookFields as looksOf, PALETTE, PALETTE_HEX } from '../core/looks.js';

/** A few emoji for a tablet whose keyboard has none; any one character may be typed instead. */
const SUGGESTED = ['🎵', '⭐', '🔥', '💻', '📁', '🌐', '📧', '🎮', '🎬', '⚙️', '🔒', '💡'];
const NAMES = {
  red: 'Red', orange: 'Orange', yellow: 'Yellow', lime: 'Lime', green: 'Green', teal: 'Teal', cyan: 'Cyan',
  blue: 'Blue', indigo: 'Indigo', purple: 'Purple', pink: 'Pink', grey: 'Grey',
};

/** Wires the looks fields inside `dialog`; `pickApp()` resolves to an app of the catalogue or null. */
export function lookFields(dialog, { pickApp, appName, iconFor }) {
  const swatches = dialog.querySelector('#edit-colors');
  const emoji = dialog.querySelector('#edit-emoji');
  const appButton = dialog.querySelector('#edit-icon-app');
  const clearButton = dialog.querySelector('#edit-icon-clear');
  const hide = dialog.querySelector('#edit-hide-label');
  swatches.replaceChildren(swatch('', 'Kind colour'), ...PALETTE.map((name) => swatch(name, NAMES[name])));
  dialog.querySelector('#edit-emoji-choices').replaceChildren(...SUGGESTED.map((e) => emojiChoice(e)));
  let appIcon = '';

  const showApp = () => {
    appButton.replaceChildren();
    const src = appIcon ? iconFor(appIcon) : null;
    if (src) appButton.append(Object.assign(document.createElement('img'), { src, alt: '' }));
    appButton.append(document.createTextNode(appIcon ? (appName(appIcon) ?? appIcon) : 'App icon…'));
    appButton.classList.toggle('chosen', Boolean(appIcon));
  };
  const setIcon = ({ app = '', text = '' }) => {
    appIcon = app;
    emoji.value = text;
    showApp();
  };

  emoji.addEventListener('input', () => { if (emoji.value) setIcon({ text: emoji.value }); });
  clearButton.addEventListener('click', () => setIcon({}));
  appButton.addEventListener('click', async () => {
    const app = await pickApp();
    if (app) setIcon({ app: app.id });
  });
  dialog.querySelector('#edit-emoji-choices').addEventListener('click', (e) => {
    const choice = e.target.closest('[data-emoji]');
    if (choice) setIcon({ text: choice.dataset.emoji });
  });

  return {
    /** Shows the looks of `button` (none for a new key). */
    fill(button) {
      const look = looksOf(button);
      swatches.querySelector(`input[value="${look.color ?? ''}"]`).checked = true;
      setIcon({ app: look.icon?.app ?? '', text: look.icon?.emoji ?? '' });
      hide.checked = look.hideLabel === true;
    },
    /** The look fields to merge into the saved button; absent ones keep the kind's look. */
    read() {
      const look = {};
      const color = swatches.querySelector('input:checked')?.value;
      if (color) look.color = color;
      const text = emoji.value.trim();
      if (text) look.icon = { emoji: text };
      else if (appIcon) look.icon = { app: appIcon };
      if (hide.checked) look.hideLabel = true;
      return look;
    },
    /** What is wrong with the icon, in the host's words, or ''. */
    problem() {
      const text = emoji.value.trim();
      return text ? sentence(emojiProblem(text)) : '';
    },
  };
}

function swatch(name, title) {
  const label = document.createElement('label');
  label.className = 'swatch';
  label.title = title;
  const input = Object.assign(document.createElement('input'), { type: 'radio', name: 'color', value: name });
  input.setAttribute('aria-label', title);
  const chip = document.createElement('span');
  if (name) chip.style.background = PALETTE_HEX[name];
  else chip.className = 'kind-colour';
  label.append(input, chip);
  return label;
}

function emojiChoice(text) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'emoji-choice';
  button.dataset.emoji = text;
  button.textContent = text;
  button.setAttribute('aria-label', `Icon ${text}`);
  return button;
}

const sentence = (text) => (text ? `${text[0].toUpperCase()}${text.slice(1)}.` : '');
