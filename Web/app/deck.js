// The deck: pages of keycaps, press and long-press, swipe between pages, result glow (SPEC §6).
import { SLOTS_PER_PAGE } from '../core/layout.js';

export const LONG_PRESS_MS = 450;
export const MIN_PRESS_MS = 120;
export const GLOW_MS = 1200;
const FAIL_MS = 2000;
const MOVE_CANCEL_PX = 10;
const SWIPE_PX = 50;

/** Renders the layout and turns touches into `press(page, index)` and `edit(page, index)` calls. */
export class DeckView {
  constructor(root, dots, { onPress, onEdit, iconFor }) {
    this.root = root;
    this.dots = dots;
    this.onPress = onPress;
    this.onEdit = onEdit;
    this.iconFor = iconFor;
    this.pages = [Array(SLOTS_PER_PAGE).fill(null)];
    this.current = 0;
    this.strip = document.createElement('div');
    this.strip.className = 'page-strip';
    root.append(this.strip);
    this.#listenForSwipes();
  }

  /** Shows the host's layout; the grid only ever changes here. */
  show(pages) {
    this.pages = pages;
    this.current = Math.min(this.current, pages.length - 1);
    this.strip.replaceChildren(...pages.map((page, p) => this.#renderPage(page, p)));
    this.#renderDots();
    this.#scrollTo(this.current, false);
    // How many layouts were drawn: lets tests (and curious users) see the host's layout has arrived.
    this.root.dataset.layouts = String(Number(this.root.dataset.layouts ?? 0) + 1);
  }

  /** Forgets the layout (the device was revoked): nothing of the host's stays on screen behind the PIN sheet. */
  clear() {
    this.pages = [Array(SLOTS_PER_PAGE).fill(null)];
    this.current = 0;
    this.strip.replaceChildren(this.#renderPage(this.pages[0], 0));
    this.#renderDots();
    this.#scrollTo(0, false);
  }

  /** Puts icons on app keys once the catalog arrives, in place: a finger on a key keeps its press. */
  updateIcons() {
    for (const key of this.strip.querySelectorAll('.key.kind-app')) {
      const button = this.pages[key.dataset.page]?.[key.dataset.index];
      const icon = button && this.iconFor(button.appId);
      if (!icon || key.querySelector('.icon')) continue;
      const img = document.createElement('img');
      img.className = 'icon';
      img.alt = '';
      img.src = icon;
      key.querySelector('.label').before(img);
      key.querySelector('.sub')?.remove();
    }
  }

  /** The press result: a glow in the kind's colour, or a red border. */
  showResult({ page, index, ok }) {
    const key = this.keyAt(page, index);
    if (!key) return;
    const cls = ok ? 'glow' : 'failed';
    key.classList.remove('glow', 'failed');
    void key.offsetWidth; // restart the transition when the same key is pressed again
    key.classList.add(cls);
    clearTimeout(key._resultTimer);
    key._resultTimer = setTimeout(() => key.classList.remove(cls), ok ? GLOW_MS : FAIL_MS);
  }

  keyAt(page, index) {
    return this.strip.querySelector(`.key[data-page="${page}"][data-index="${index}"]`);
  }

  #renderPage(slots, p) {
    const page = document.createElement('div');
    page.className = 'page';
    page.setAttribute('aria-label', `Page ${p + 1}`);
    slots.forEach((button, i) => page.append(this.#renderKey(button, p, i)));
    return page;
  }

  #renderKey(button, page, index) {
    const key = document.createElement('button');
    key.type = 'button';
    key.className = button ? `key kind-${button.kind}` : 'key empty';
    key.dataset.page = page;
    key.dataset.index = index;
    key.setAttribute('aria-label', button ? button.label : 'Empty slot');
    key.setAttribute('aria-description', button ? 'Runs on the computer' : 'Add a button');
    const face = document.createElement('span');
    face.className = 'face';
    face.append(...(button ? this.#faceContent(button) : [text('span', 'plus', '+')]));
    key.append(span('lip'), face);
    if (button) key.append(this.#editAction(button, page, index));
    this.#attachPress(key, button, page, index);
    return key;
  }

  #faceContent(button) {
    const parts = [span('kind-dot')];
    const icon = button.kind === 'app' ? this.iconFor(button.appId) : null;
    if (icon) {
      const img = document.createElement('img');
      img.className = 'icon';
      img.alt = '';
      img.src = icon;
      parts.push(img);
    }
    parts.push(text('span', 'label', button.label));
    const sub = button.kind === 'command' ? button.command : button.kind === 'terminal' ? (button.directory || '~') : '';
    if (sub && !icon) parts.push(text('span', 'sub', sub));
    return parts;
  }

  // An "Edit" action on every key for screen readers and keyboards (SPEC §6).
  #editAction(button, page, index) {
    const edit = document.createElement('span');
    edit.className = 'sr-only edit-action';
    edit.setAttribute('role', 'button');
    edit.setAttribute('aria-label', `Edit ${button.label}`);
    edit.tabIndex = 0;
    const open = (e) => { e.stopPropagation(); this.onEdit(page, index); };
    edit.addEventListener('click', open);
    edit.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') open(e); });
    return edit;
  }

  #attachPress(key, button, page, index) {
    let start = null;
    let longTimer = null;
    const release = () => { clearTimeout(longTimer); longTimer = null; };
    key.addEventListener('pointerdown', (e) => {
      start = { x: e.clientX, y: e.clientY, at: performance.now(), long: false };
      key.classList.add('down');
      longTimer = setTimeout(() => {
        start.long = true;
        this.#lift(key, start.at);
        this.onEdit(page, index);
      }, LONG_PRESS_MS);
    });
    key.addEventListener('pointermove', (e) => {
      if (start && Math.hypot(e.clientX - start.x, e.clientY - start.y) > MOVE_CANCEL_PX) {
        release();
        key.classList.remove('down');
        start = null;
      }
    });
    key.addEventListener('pointerup', () => {
      if (!start) return;
      release();
      const tap = !start.long;
      this.#lift(key, start.at);
      start = null;
      if (tap) button ? this.onPress(page, index) : this.onEdit(page, index);
    });
    key.addEventListener('pointercancel', () => { release(); start = null; key.classList.remove('down'); });
    key.addEventListener('contextmenu', (e) => e.preventDefault());
    // Keyboard users press with Enter/Space (a click with no pointer down before it).
    key.addEventListener('click', (e) => {
      if (e.detail !== 0) return;
      this.#lift(key, performance.now());
      button ? this.onPress(page, index) : this.onEdit(page, index);
    });
  }

  // A quick tap still shows a full 120 ms press.
  #lift(key, downAt) {
    key.classList.add('down');
    const left = Math.max(0, MIN_PRESS_MS - (performance.now() - downAt));
    setTimeout(() => key.classList.remove('down'), left);
  }

  #renderDots() {
    const dots = this.pages.map((_, p) => {
      const dot = document.createElement('button');
      dot.type = 'button';
      dot.setAttribute('role', 'tab');
      dot.setAttribute('aria-label', `Page ${p + 1}`);
      dot.addEventListener('click', () => this.#scrollTo(p, true));
      return dot;
    });
    this.dots.replaceChildren(...dots);
    this.#markDot();
  }

  #markDot() {
    [...this.dots.children].forEach((dot, p) => dot.setAttribute('aria-selected', String(p === this.current)));
  }

  #scrollTo(page, animate) {
    this.current = Math.max(0, Math.min(page, this.pages.length - 1));
    this.strip.style.transition = animate ? '' : 'none';
    this.strip.style.transform = `translateX(${-100 * this.current}%)`;
    this.#markDot();
  }

  #listenForSwipes() {
    let from = null;
    this.root.addEventListener('pointerdown', (e) => { from = { x: e.clientX, y: e.clientY }; });
    this.root.addEventListener('pointerup', (e) => {
      if (!from) return;
      const dx = e.clientX - from.x;
      const dy = e.clientY - from.y;
      from = null;
      if (Math.abs(dx) > SWIPE_PX && Math.abs(dx) > Math.abs(dy)) this.#scrollTo(this.current + (dx < 0 ? 1 : -1), true);
    });
  }
}

function span(cls) {
  const el = document.createElement('span');
  el.className = cls;
  return el;
}

function text(tag, cls, value) {
  const el = document.createElement(tag);
  el.className = cls;
  el.textContent = value;
  return el;
}
