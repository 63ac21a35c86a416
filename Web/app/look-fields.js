// The edit sheet's looks (PROTOCOL §6 "Looks"): a colour swatch from the palette (or the kind's own), an icon (an
// emoji typed or chosen from a few, an installed app's picture, or an image chosen on this device and stored on the
// host), and "hide the label". Every kind has them, so they sit below the kind's fields and are merged into whatever
// the sheet saves. Rules live in Web/core/looks.js and Web/core/stored-icons.js.
import { emojiProblem, lookFields as looksOf, PALETTE, PALETTE_HEX } from '../core/looks.js';
import { iconFileProblem, imageName } from '../core/stored-icons.js';

/** A few emoji for a tablet whose keyboard has none; any one character may be typed instead. */
const SUGGESTED = ['🎵', '⭐', '🔥', '💻', '📁', '🌐', '📧', '🎮', '🎬', '⚙️', '🔒', '💡'];
const NAMES = {
  red: 'Red', orange: 'Orange', yellow: 'Yellow', lime: 'Lime', green: 'Green', teal: 'Teal', cyan: 'Cyan',
  blue: 'Blue', indigo: 'Indigo', purple: 'Purple', pink: 'Pink', grey: 'Grey',
};

/**
 * Wires the looks fields inside `dialog`; `pickApp()` resolves to an app of the catalogue or null; `storeImage(file)`
 * sends a picture to the host and resolves to `{ name }` or `{ problem }`; `imageFor(name)` is a stored icon's
 * picture once it is here.
 */
export function lookFields(dialog, { pickApp, appName, iconFor, storeImage, imageFor }) {
  const swatches = dialog.querySelector('#edit-colors');
  const emoji = dialog.querySelector('#edit-emoji');
  const appButton = dialog.querySelector('#edit-icon-app');
  const clearButton = dialog.querySelector('#edit-icon-clear');
  const hide = dialog.querySelector('#edit-hide-label');
  const imageButton = dialog.querySelector('#edit-icon-image');
  const imageFile = dialog.querySelector('#edit-icon-file');
  const imageNote = dialog.querySelector('#edit-icon-note');
  swatches.replaceChildren(swatch('', 'Kind colour'), ...PALETTE.map((name) => swatch(name, NAMES[name])));
  dialog.querySelector('#edit-emoji-choices').replaceChildren(...SUGGESTED.map((e) => emojiChoice(e)));
  let appIcon = '';
  let image = '';
  // Counts the pictures chosen: an answer for one that was replaced (or a sheet opened again) is not shown.
  let storing = 0;
  let waiting = false;

  const showApp = () => {
    appButton.replaceChildren();
    const src = appIcon ? iconFor(appIcon) : null;
    if (src) appButton.append(Object.assign(document.createElement('img'), { src, alt: '' }));
    appButton.append(document.createTextNode(appIcon ? (appName(appIcon) ?? appIcon) : 'App icon…'));
    appButton.classList.toggle('chosen', Boolean(appIcon));
  };
  const showImage = () => {
    imageButton.replaceChildren();
    const src = image ? imageFor?.(image) : null;
    if (src) imageButton.append(Object.assign(document.createElement('img'), { src, alt: '' }));
    imageButton.append(document.createTextNode(image ? 'Image' : 'Choose image…'));
    imageButton.classList.toggle('chosen', Boolean(image));
  };
  const setIcon = ({ app = '', text = '', stored = '' }) => {
    appIcon = app;
    image = stored;
    emoji.value = text;
    showApp();
    showImage();
  };

  emoji.addEventListener('input', () => { if (emoji.value) setIcon({ text: emoji.value }); });
  clearButton.addEventListener('click', () => setIcon({}));
  imageButton.addEventListener('click', () => imageFile.click());
  imageFile.addEventListener('change', async () => {
    const file = imageFile.files?.[0];
    imageFile.value = '';
    if (!file) return;
    const serial = ++storing;
    const problem = iconFileProblem(file);
    waiting = !problem;
    imageNote.textContent = problem ? sentence(problem) : `Storing ${file.name}…`;
    if (problem) return;
    const answer = await storeImage(file);
    if (serial !== storing) return;
    waiting = false;
    imageNote.textContent = answer.name ? '' : sentence(answer.problem);
    if (answer.name) setIcon({ stored: answer.name });
  });
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
      setIcon({ app: look.icon?.app ?? '', text: look.icon?.emoji ?? '', stored: imageName(look) ?? '' });
      hide.checked = look.hideLabel === true;
      storing += 1;
      waiting = false;
      imageNote.textContent = '';
    },
    /** A stored icon's picture arrived: the chosen one shows on its button. */
    showImage,
    /** The look fields to merge into the saved button; absent ones keep the kind's look. */
    read() {
      const look = {};
      const color = swatches.querySelector('input:checked')?.value;
      if (color) look.color = color;
      const text = emoji.value.trim();
      if (text) look.icon = { emoji: text };
      else if (appIcon) look.icon = { app: appIcon };
      else if (image) look.icon = { image };
      if (hide.checked) look.hideLabel = true;
      return look;
    },
    /** What is wrong with the icon, in the host's words, or ''. */
    problem() {
      const text = emoji.value.trim();
      if (text) return sentence(emojiProblem(text));
      return waiting ? 'Wait until the image is stored.' : '';
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
