// The monitor picker's Extend card (PROTOCOL "Extend"): this device as an extra monitor, with where it goes beside
// the computer's monitors. Offered: tapping the card extends; its placement row chooses (and remembers) the side.
// Not offered: the card is greyed and says the host's reason.
import { PLACEMENTS } from '../core/extend.js';

const WORDS = { right: 'Right of', left: 'Left of', above: 'Above', below: 'Below' };
const el = (tag, cls, text) => Object.assign(document.createElement(tag), cls ? { className: cls } : {},
  text !== undefined ? { textContent: text } : {});

/**
 * `offer`: the host's displays.extend; `placement`: the side remembered; `onPlacement(side)` when it changes;
 * `onChoose(side)` when the user extends.
 */
export function extendCard(offer, { placement, onPlacement, onChoose }) {
  const card = el('div', 'extend-card');
  card.setAttribute('role', 'listitem');
  const start = el('button', 'extend-start');
  start.type = 'button';
  // A sketch of the two: the computer's monitors and this device on the chosen side, top- or left-aligned.
  const diagram = el('div', 'extend-diagram');
  const pair = el('div', 'extend-pair');
  pair.append(el('span', 'extend-computer', 'Computer'), el('span', 'extend-device', 'This device'));
  diagram.append(pair);
  start.append(diagram, el('span', 'display-name', 'Extend'),
    el('span', 'display-size', 'Use this device as an extra monitor'));
  card.append(start);
  if (!offer.offered) {
    card.setAttribute('aria-disabled', 'true');
    start.disabled = true;
    diagram.dataset.placement = 'right';
    const reason = el('p', 'extend-reason', offer.reason || 'This computer cannot add a monitor.');
    start.setAttribute('aria-label', `Extend: not available. ${reason.textContent}`);
    card.append(reason);
    return card;
  }
  let side = placement;
  const group = el('div', 'extend-placement');
  group.setAttribute('role', 'radiogroup');
  group.setAttribute('aria-label', 'Where the monitor goes, beside the computer\'s monitors');
  const show = () => {
    diagram.dataset.placement = side;
    start.setAttribute('aria-label', `Extend: use this device as an extra monitor, ${WORDS[side].toLowerCase()} `
      + 'the computer\'s monitors');
    for (const button of group.children) button.setAttribute('aria-checked', String(button.dataset.placement === side));
  };
  for (const option of PLACEMENTS) {
    const button = el('button', 'extend-side', WORDS[option]);
    button.type = 'button';
    button.dataset.placement = option;
    button.setAttribute('role', 'radio');
    button.addEventListener('click', () => {
      side = option;
      onPlacement(option);
      show();
    });
    group.append(button);
  }
  card.append(group);
  show();
  start.addEventListener('click', () => onChoose(side));
  return card;
}
