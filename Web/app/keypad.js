// The keypad tab (DESIGN.md#deck): keys are typed on the host as key presses, whatever layout is active.
import { pressable } from './gauge.js';
import { ICONS } from './icons.js';

const KEYS = [
  ['7', '7'], ['8', '8'], ['9', '9'], ['/', '÷'],
  ['4', '4'], ['5', '5'], ['6', '6'], ['*', '×'],
  ['1', '1'], ['2', '2'], ['3', '3'], ['-', '−'],
  ['0', '0'], ['.', '.'], ['=', '='], ['+', '+'],
  ['backspace', ICONS.backspace, 'Backspace', 'wide'], ['enter', ICONS.enter, 'Enter', 'wide'],
];

export function buildKeypad(root, onKey) {
  for (const [key, face, name, cls] of KEYS) {
    const el = document.createElement('button');
    el.type = 'button';
    el.className = `key-small${cls ? ` ${cls}` : ''}`;
    if (face.startsWith('<svg')) el.innerHTML = face;
    else el.textContent = face;
    el.dataset.key = key;
    el.setAttribute('aria-label', name ?? face);
    pressable(el);
    el.addEventListener('click', () => onKey(key));
    root.append(el);
  }
}
