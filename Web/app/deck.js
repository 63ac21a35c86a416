// The deck: pages of keycaps, press and long-press, swipe between pages, result glow (DESIGN.md#client); keys held
// while pressed (push-to-talk) and edit mode, in which a tap on any key opens its editor.
import { SLOTS_PER_PAGE } from '../core/layout.js';
import { PressLooks } from '../core/press-looks.js';
import { isKnownKind, keySubtitle, shownLabel } from '../core/key-kinds.js';
import { mediaLook, NO_PLAYER, nowPlayingLook, readMediaState } from '../core/media-state.js';
import { drawnCovered, spanOf } from '../core/spans.js';
import { SliderSender, sliderLabel, sliderValue } from '../core/slider.js';
import { STANDARD_GRID } from '../core/grids.js';
import { keyColor, keyIcon, showsLabel } from '../core/looks.js';
import { pagesAt, pageTurnName, turnPage } from '../core/folders.js';
import { isHoldKey, KeyHolds, touchMeaning } from '../core/key-hold.js';
import { KeyStates, liveButton } from '../core/key-state.js';
import { ICONS } from './icons.js';

export const LONG_PRESS_MS = 450;
export const MIN_PRESS_MS = 120;
export const GLOW_MS = 1200;
const FAIL_MS = 2000;
const MOVE_CANCEL_PX = 10;
const SWIPE_PX = 50;
/** A dragged key held this near the deck's left or right edge this long turns the page (PROTOCOL §6 "Moving keys"). */
const EDGE_PX = 36;
const EDGE_TURN_MS = 550;

/**
 * Renders the layout and turns touches into `press(page, index, path)` and `edit(page, index, path)` calls; a key
 * held while pressed gives `onHold(pressDown)` when the finger lands and `onHold(pressUp)` once when it leaves.
 */
export class DeckView {
  constructor(root, dots, {
    onPress, onEdit, onMove = () => {}, onHold = () => {}, onEditing = () => {}, hostProtocol = () => 3,
    iconFor, imageFor, notify = () => {}, onSlide = () => {},
  }) {
    this.onSlide = onSlide;
    this.root = root;
    this.dots = dots;
    this.onPress = onPress;
    this.onEdit = onEdit;
    this.onMove = onMove;
    this.onHold = onHold;
    this.onEditing = onEditing;
    this.hostProtocol = hostProtocol;
    this.holds = new KeyHolds();
    // Edit mode (the header's Edit): a tap on any key opens its editor, keys held while pressed included.
    this.editing = false;
    this.drag = null;
    this.iconFor = iconFor;
    this.imageFor = imageFor;
    this.notify = notify;
    // The whole deck, and the folder shown: the folder keys from the deck down (PROTOCOL §6 "Folders and
    // pages"), each with the page its parent showed, to go back to. Each device opens folders on its own.
    this.deck = [Array(SLOTS_PER_PAGE).fill(null)];
    this.path = [];
    this.pages = this.deck;
    this.current = 0;
    this.looks = new PressLooks();
    this.media = NO_PLAYER;
    // Live looks (PROTOCOL §6 "Live looks"): the latest keyState of each key, drawn over its configured look.
    this.live = new KeyStates();
    this.profile = '';
    this.editable = true;
    this.strip = document.createElement('div');
    this.strip.className = 'page-strip';
    root.append(this.strip);
    this.#listenForSwipes();
    this.#listenForLetGo();
  }

  /**
   * Shows the host's layout; the grid only ever changes here. The folder shown stays open while it is still
   * there (another device may have deleted it: then the deepest folder of the path that is left).
   */
  show(pages, profile = this.profile) {
    this.deck = pages;
    this.profile = profile ?? '';
    // Live looks stay on keys still in their place; the host sends them again for another profile.
    this.live.keepSame(this.profile, (path, page, index) => pagesAt(pages, path)?.[page]?.[index] ?? null);
    while (this.path.length && !pagesAt(pages, this.path)) this.current = this.path.pop().from;
    this.#draw();
  }

  /**
   * A `keyState`: kept (for redraws and folders opened later) and, when its key shows, drawn in place: a finger on
   * the key keeps its press, and ten a second per key touch only that key's face.
   */
  showKeyState(message) {
    const path = Array.isArray(message?.path) ? message.path : [];
    const shown = message?.profile === this.profile;
    const button = shown ? pagesAt(this.deck, path)?.[message.page]?.[message.index] ?? null : undefined;
    const state = this.live.receive(message, button ?? undefined);
    if (!state || !shown || !samePath(state.path, this.folderPath) || this.#isBack(state.page, state.index)) return;
    const key = this.keyAt(state.page, state.index);
    const configured = this.pages[state.page]?.[state.index];
    if (key && configured) this.#showLive(key, configured, state.page, state.index);
  }

  /** The live look and error of a key of the profile shown (for its edit sheet), or null. */
  keyStateAt(page, index, path = []) { return this.live.get(this.profile, path, page, index); }

  /** The connection was lost: live looks go (the host sends them again after authorization). */
  forgetKeyStates() {
    if (!this.live.size) return;
    this.live.clear();
    for (const key of this.strip.querySelectorAll('.key[data-live-shown]')) {
      const button = this.pages[key.dataset.page]?.[key.dataset.index];
      if (button) this.#showLive(key, button, Number(key.dataset.page), Number(key.dataset.index));
    }
  }

  /**
   * Draws `button` with its live look (if any) on `key`, in place: the colour, the on/off look and the marks
   * (badge, value bar, error mark) change on the key as it is; the face's label and icon are built again only
   * when they change.
   */
  #showLive(key, button, page, index) {
    const state = this.live.get(this.profile, this.folderPath, page, index);
    const live = liveButton(button, state);
    const shown = live.button;
    if (state) key.dataset.liveShown = ''; else delete key.dataset.liveShown;
    if (keyColor(shown)) key.dataset.color = keyColor(shown); else delete key.dataset.color;
    const face = key.querySelector('.face');
    const look = JSON.stringify([shown.label, shown.icon ?? null, shown.hideLabel ?? null]);
    if (key._look !== look) {
      key._look = look;
      face.replaceChildren(...this.#faceContent(shown));
      if (shown.kind === 'media') this.#showMediaLook(key, shown);
      if (shown.kind === 'nowPlaying') this.#showNowPlaying(key);
      key.setAttribute('aria-label', shownLabel(shown));
    }
    if (live.state) key.dataset.live = live.state; else delete key.dataset.live;
    let badge = face.querySelector('.live-badge');
    if (live.badge && !badge) face.append(badge = span('live-badge'));
    if (badge && !live.badge) badge.remove();
    else if (badge && badge.textContent !== live.badge) badge.textContent = live.badge;
    if (button.kind === 'slider') return this.#showSlider(key, live);
    let bar = face.querySelector('.live-value');
    if (live.value != null && !bar) {
      face.append(bar = span('live-value'));
      bar.append(span('live-value-fill'));
    }
    if (bar && live.value == null) bar.remove();
    else if (bar) bar.style.setProperty('--value', String(live.value));
    let mark = face.querySelector('.live-error');
    if (live.error && !mark) face.append(mark = text('span', 'live-error', '!'));
    if (mark && !live.error) mark.remove();
    key.classList.toggle('state-failed', Boolean(live.error));
    // The reason is the key's title and, for screen readers, its description.
    if (live.error) key.title = `State command: ${live.error}`; else key.removeAttribute('title');
    key.setAttribute('aria-description', live.error ? `State command failed: ${live.error}` : key._description ?? '');
  }

  /**
   * A slider's value (its source's, from its live look) on its track, in place; while a finger drags it, the
   * finger's value shows instead. Its error (the app plays nothing…) dims it and says why.
   */
  #showSlider(key, live) {
    const value = key._dragging ? key._value : live?.value;
    const known = value != null && !live?.error;
    key.style.setProperty('--value', String(known || key._dragging ? value : 0));
    key.setAttribute('aria-valuenow', String(Math.round((value ?? 0) * 100)));
    key.querySelector('.slider-value').textContent = known || key._dragging ? `${Math.round(value * 100)}%` : '–';
    key.classList.toggle('state-failed', Boolean(live?.error));
    if (live?.error) key.title = live.error; else key.removeAttribute('title');
  }

  /**
   * A slider follows the finger from where it lands (the page does not turn under it) and sends its value at most
   * 20 times a second, the last always; in edit mode a tap opens its editor. Arrow keys move it by 5 %.
   */
  #attachSlider(key, button, page, index) {
    const along = spanOf(button)?.along ?? 'row';
    const path = this.folderPath;
    const sender = new SliderSender((value) => this.onSlide(page, index, path, value));
    const live = () => liveButton(button, this.live.get(this.profile, path, page, index));
    const moveTo = (value) => {
      key._value = value;
      this.#showSlider(key, live());
      sender.move(value);
    };
    const at = (e) => sliderValue(key.querySelector('.slider-track').getBoundingClientRect(), { x: e.clientX, y: e.clientY }, along);
    key.addEventListener('pointerdown', (e) => {
      e.stopPropagation();
      if (this.editing) return;
      key.setPointerCapture?.(e.pointerId);
      key._dragging = true;
      key.classList.add('sliding');
      moveTo(at(e));
    });
    key.addEventListener('pointermove', (e) => { if (key._dragging) moveTo(at(e)); });
    const end = (e) => {
      e.stopPropagation();
      if (!key._dragging) return;
      key._dragging = false;
      key.classList.remove('sliding');
      this.#showSlider(key, live());
    };
    key.addEventListener('pointerup', end);
    key.addEventListener('pointercancel', end);
    key.addEventListener('lostpointercapture', end);
    key.addEventListener('click', () => { if (this.editing) this.onEdit(page, index, path); });
    key.addEventListener('contextmenu', (e) => e.preventDefault());
    key.addEventListener('keydown', (e) => {
      const step = { ArrowUp: 0.05, ArrowRight: 0.05, ArrowDown: -0.05, ArrowLeft: -0.05 }[e.key];
      if (step == null) return;
      e.preventDefault();
      const from = key._value ?? live().value ?? 0;
      moveTo(Math.round(Math.min(1, Math.max(0, from + step)) * 100) / 100);
    });
    key.setAttribute('role', 'slider');
    key.setAttribute('aria-orientation', along === 'row' ? 'horizontal' : 'vertical');
    key.setAttribute('aria-valuemin', '0');
    key.setAttribute('aria-valuemax', '100');
    key.setAttribute('aria-label', button.label || sliderLabel(button));
    this.#showSlider(key, live());
  }

  /** Another deck comes (another profile): the next `show` starts on its first page, no folder open. */
  leave() {
    this.path = [];
    this.current = 0;
  }

  /** The folder keys from the deck down to the folder shown, as edits and presses name it. */
  get folderPath() { return this.path.map(({ page, index }) => ({ page, index })); }

  #draw() {
    const pages = pagesAt(this.deck, this.path);
    this.pages = pages;
    this.current = Math.min(this.current, pages.length - 1);
    this.root.dataset.depth = String(this.path.length);
    this.strip.replaceChildren(...pages.map((page, p) => this.#renderPage(page, p)));
    this.#renderDots();
    this.#scrollTo(this.current, false);
    // How many layouts were drawn: lets tests (and curious users) see the host's layout has arrived.
    this.root.dataset.layouts = String(Number(this.root.dataset.layouts ?? 0) + 1);
  }

  /** Forgets the layout (the device was revoked): nothing of the host's stays on screen behind the PIN sheet. */
  clear() {
    this.deck = [Array(SLOTS_PER_PAGE).fill(null)];
    this.pages = this.deck;
    this.path = [];
    this.current = 0;
    this.strip.replaceChildren(this.#renderPage(this.pages[0], 0));
    this.#renderDots();
    this.#scrollTo(0, false);
  }

  /**
   * Puts app pictures on keys once the catalog arrives (app keys, and keys whose icon is an app's), and stored
   * icons' pictures once they arrive, in place: a finger on a key keeps its press.
   */
  updateIcons() {
    for (const key of this.strip.querySelectorAll('.key[data-page]')) {
      const configured = this.pages[key.dataset.page]?.[key.dataset.index];
      const button = configured && liveButton(configured, this.keyStateAt(key.dataset.page, key.dataset.index, this.folderPath)).button;
      const icon = button && keyIcon(button, this.iconFor, this.imageFor);
      if (!icon?.src || key.querySelector('.icon')) continue;
      key.querySelector('.label').before(iconElement(icon));
      key.querySelector('.sub')?.remove();
      key.querySelector('.label').hidden = !showsLabel(button, true);
    }
  }

  /**
   * A press result: a command that started shows a neutral "running" look (never the success glow) until its
   * outcome; the outcome is a glow in the kind's colour, or a red border. Found by page and slot when it
   * arrives, so it lands on its key whichever page shows and however often the deck was drawn meanwhile.
   */
  showResult(result) {
    const path = result.path ?? [];
    const { index, look, running } = this.looks.take({ ...result, page: lookPage(result.page, path) });
    // A key in another folder than the one shown keeps its look for when it is drawn again.
    const key = samePath(path, this.folderPath) ? this.keyAt(result.page, index) : null;
    if (!key) return;
    key.classList.toggle('running', running);
    if (look === 'running') return;
    const cls = look === 'ok' ? 'glow' : 'failed';
    key.classList.remove('glow', 'failed');
    void key.offsetWidth; // restart the transition when the same key is pressed again
    key.classList.add(cls);
    clearTimeout(key._resultTimer);
    key._resultTimer = setTimeout(() => key.classList.remove(cls), look === 'ok' ? GLOW_MS : FAIL_MS);
  }

  /**
   * The host's latest `mediaState` (null: no player, as when the connection is lost): media keys show it, in
   * place, so a finger on a key keeps its press.
   */
  showMedia(state) {
    this.media = readMediaState(state, performance.now());
    for (const key of this.strip.querySelectorAll('.key.kind-media')) {
      const button = this.pages[key.dataset.page]?.[key.dataset.index];
      if (button) this.#showMediaLook(key, button);
    }
    for (const key of this.strip.querySelectorAll('.key.kind-nowPlaying')) this.#showNowPlaying(key);
    this.#followPosition();
  }

  /** A now-playing tile's face: the art, the title and artist, the position as a bar (in place). */
  #showNowPlaying(key) {
    const { look, title, artist, art, progress } = nowPlayingLook(this.media, performance.now());
    key.dataset.media = look;
    const image = key.querySelector('.np-art');
    if (image.getAttribute('src') !== (art || null)) {
      if (art) image.src = art; else image.removeAttribute('src');
    }
    image.hidden = !art;
    key.querySelector('.np-title').textContent = title;
    key.querySelector('.np-artist').textContent = artist;
    const bar = key.querySelector('.np-progress');
    bar.hidden = progress == null;
    if (progress != null) bar.style.setProperty('--value', String(progress));
  }

  /** While something plays, tiles move their position bar on once a second (the host sends only seeks). */
  #followPosition() {
    clearInterval(this.positionTimer);
    this.positionTimer = null;
    if (this.media.status !== 'playing' || this.media.position == null) return;
    this.positionTimer = setInterval(() => {
      for (const key of this.strip.querySelectorAll('.key.kind-nowPlaying')) this.#showNowPlaying(key);
    }, 1000);
  }

  #showMediaLook(key, button) {
    const { look, mark, caption } = mediaLook(button, this.media);
    key.dataset.media = look;
    const icon = key.querySelector('.media-mark');
    if (icon.dataset.mark !== mark) icon.innerHTML = ICONS[mark] ?? '';
    icon.dataset.mark = mark;
    key.querySelector('.media-status').textContent = caption;
  }

  /** The connection was lost: the outcomes of commands still running will not come. */
  forgetRunning() {
    for (const { page, index } of this.looks.clear()) {
      if (Number.isInteger(page)) this.keyAt(page, index)?.classList.remove('running');
    }
    this.strip.querySelectorAll('.key.running').forEach((key) => key.classList.remove('running'));
  }

  /**
   * Whether this device may change the deck: when not, the "+" of empty slots and the keys' Edit actions are
   * hidden (CSS on `.read-only`), in place, so a finger on a key keeps its press. Long-press still calls
   * `onEdit`, which says why nothing opens.
   */
  setEditable(editable) {
    this.editable = editable;
    if (!editable) this.setEditing(false);
    this.root.classList.toggle('read-only', !editable);
    this.root.closest('.app')?.classList.toggle('read-only-deck', !editable); // the grid size is an edit too
    for (const key of this.strip.querySelectorAll('.key.empty')) key.setAttribute('aria-description', this.#emptyHint());
  }

  #emptyHint() { return this.editable ? 'Add a button' : 'Empty slot'; }

  /** Edit mode on or off (off whenever this device may not edit); `onEditing(on)` follows. */
  setEditing(on) {
    const editing = Boolean(on) && this.editable;
    if (editing === this.editing) return;
    this.editing = editing;
    this.root.classList.toggle('editing', editing);
    this.root.closest('.app')?.classList.toggle('editing', editing);
    this.onEditing(editing);
  }

  /** The page was hidden: every key held comes up (one `pressUp` each). */
  letGoAll() {
    for (const message of this.holds.upAll()) {
      this.onHold(message);
      this.#showLetGo(message);
    }
  }

  /** The connection was lost: the host let go of what this device held; the keys stop looking held. */
  dropHolds() {
    for (const held of this.holds.forget()) this.#showLetGo(held);
  }

  #holdDown(key, page, index, pointer) {
    const message = this.holds.down(pointer, { page, index, path: this.folderPath });
    if (!message) return;
    key.classList.add('down', 'held');
    this.heldSince = performance.now();
    this.onHold(message);
  }

  /** A pointer that held a key lifted, was cancelled or lost its capture: the key's `pressUp`, once. */
  #letGo(pointer) {
    const message = this.holds.up(pointer);
    if (!message) return;
    this.onHold(message);
    this.#showLetGo(message);
  }

  #showLetGo({ page, index, path = [] }) {
    const key = samePath(path, this.folderPath) ? this.keyAt(page, index) : null;
    if (!key) return;
    key.classList.remove('held');
    this.#lift(key, this.heldSince ?? 0);
  }

  /**
   * A held key is let go wherever its pointer ends (listened for on the window, so a key drawn again meanwhile —
   * a new layout — still lets go), and when the page is hidden.
   */
  #listenForLetGo() {
    const ended = (e) => this.#letGo(e.pointerId);
    addEventListener('pointerup', ended, true);
    addEventListener('pointercancel', ended, true);
    document.addEventListener('lostpointercapture', ended, true);
    document.addEventListener('visibilitychange', () => { if (document.hidden) this.letGoAll(); });
    addEventListener('pagehide', () => this.letGoAll());
  }

  keyAt(page, index) {
    return this.strip.querySelector(`.key[data-page="${page}"][data-index="${index}"]`);
  }

  #renderPage(slots, p) {
    const page = document.createElement('div');
    page.className = 'page';
    page.setAttribute('aria-label', `Page ${p + 1}`);
    // A wide control is drawn across the slots it covers, which are not drawn (PROTOCOL §6 "Tiles and sliders").
    const covered = drawnCovered(slots, this.root.closest('.app')?.dataset.grid ?? STANDARD_GRID);
    slots.forEach((button, i) => {
      if (covered.has(i)) return;
      const key = this.#renderKey(button, p, i);
      const span = spanOf(button);
      if (span && !this.#isBack(p, i)) {
        key.dataset.span = String(span.slots);
        key.dataset.along = span.along;
        key.style[span.along === 'row' ? 'gridColumn' : 'gridRow'] = `span ${span.slots}`;
      }
      page.append(key);
    });
    return page;
  }

  /** Opens a folder key's folder on its first page; its back key comes back here. */
  openFolder(page, index) {
    this.path.push({ page, index, from: this.current });
    this.current = 0;
    this.#draw();
  }

  /** Back to the folder (or deck) the shown folder sits in, on the page it showed. */
  closeFolder() {
    const step = this.path.pop();
    if (!step) return;
    this.current = step.from;
    this.#draw();
  }

  #turn(button) {
    const to = turnPage(button, this.current, this.pages.length);
    if (to == null) return this.notify(`${pageTurnName(button)} does not exist here.`);
    this.#scrollTo(to, true);
  }

  // Folder and page keys act on this device; other keys run on the computer.
  #pressed(button, page, index) {
    if (button?.kind === 'folder') return this.openFolder(page, index);
    if (button?.kind === 'page') return this.#turn(button);
    this.onPress(page, index, this.folderPath);
  }

  #isBack(page, index) { return this.path.length > 0 && page === 0 && index === 0; }

  #renderBack() {
    const key = document.createElement('button');
    key.type = 'button';
    key.className = 'key back';
    key.dataset.page = '0';
    key.dataset.index = '0';
    const folder = this.path.at(-1);
    const name = pagesAt(this.deck, this.path.slice(0, -1))?.[folder.page]?.[folder.index]?.label ?? '';
    key.setAttribute('aria-label', 'Back');
    key.setAttribute('aria-description', name ? `Leaves ${name}` : 'Leaves the folder');
    const face = document.createElement('span');
    face.className = 'face';
    const mark = text('span', 'back-mark', '');
    mark.innerHTML = ICONS.back ?? '←';
    face.append(mark, text('span', 'label', 'Back'), text('span', 'sub', name));
    key.append(span('lip'), face);
    key.addEventListener('click', () => this.closeFolder());
    return key;
  }

  #renderKey(button, page, index) {
    if (this.#isBack(page, index)) return this.#renderBack();
    const key = document.createElement('button');
    key.type = 'button';
    // A kind this app does not know is a plain key (PROTOCOL §6 "A kind a device does not know").
    key.className = !button ? 'key empty' : isKnownKind(button.kind) ? `key kind-${button.kind}` : 'key kind-unknown';
    if (button) key.dataset.kind = String(button.kind);
    if (button?.kind === 'toggle') key.dataset.toggle = button.state === 'on' ? 'on' : 'off';
    // A palette colour tints the face; the kind's dot and glow stay the kind's (PROTOCOL §6 "Looks").
    if (keyColor(button)) key.dataset.color = keyColor(button);
    key.classList.toggle('running', this.looks.isRunning(lookPage(page, this.folderPath), index));
    key.dataset.page = page;
    key.dataset.index = index;
    key.setAttribute('aria-label', button ? shownLabel(button) : 'Empty slot');
    const hold = isHoldKey(button, this.hostProtocol());
    key.classList.toggle('hold-key', hold);
    key.classList.toggle('held', hold && this.holds.isHeld({ page, index, path: this.folderPath }));
    key._description = !button ? this.#emptyHint() : hold ? 'Held down on the computer while pressed' : 'Runs on the computer';
    key.setAttribute('aria-description', key._description);
    const face = document.createElement('span');
    face.className = 'face';
    face.append(...(button ? this.#faceContent(button) : [text('span', 'plus', '+')]));
    key.append(span('lip'), face);
    if (button) key.append(this.#editAction(button, page, index));
    if (button?.kind === 'media') this.#showMediaLook(key, button);
    if (button?.kind === 'nowPlaying') this.#showNowPlaying(key);
    key._look = button ? JSON.stringify([button.label, button.icon ?? null, button.hideLabel ?? null]) : '';
    if (button && this.live.get(this.profile, this.folderPath, page, index)) this.#showLive(key, button, page, index);
    if (button?.kind === 'slider') this.#attachSlider(key, button, page, index);
    else this.#attachPress(key, button, page, index);
    return key;
  }

  #faceContent(button) {
    if (button.kind === 'nowPlaying') return nowPlayingFace(button);
    if (button.kind === 'slider') return sliderFace(button);
    const parts = [span('kind-dot')];
    const icon = keyIcon(button, this.iconFor, this.imageFor);
    if (icon) parts.push(iconElement(icon));
    if (button.kind === 'media') parts.push(text('span', 'media-mark', ''));
    const label = shownLabel(button);
    const labelElement = text('span', 'label', label);
    labelElement.hidden = !showsLabel(button, Boolean(icon));
    parts.push(labelElement);
    if (button.kind === 'media') parts.push(text('span', 'sub media-status', ''));
    if (button.kind === 'folder' && !icon) parts.unshift(folderMark());
    const sub = button.kind === 'page' ? pageTurnName(button) : isKnownKind(button.kind) ? keySubtitle(button) : '';
    if (sub && sub !== label && !icon) parts.push(text('span', 'sub', sub));
    return parts;
  }

  // An "Edit" action on every key for screen readers and keyboards (DESIGN.md#client).
  #editAction(button, page, index) {
    const edit = document.createElement('span');
    edit.className = 'sr-only edit-action';
    edit.setAttribute('role', 'button');
    edit.setAttribute('aria-label', `Edit ${shownLabel(button)}`);
    edit.tabIndex = 0;
    const open = (e) => { e.stopPropagation(); this.onEdit(page, index, this.folderPath); };
    edit.addEventListener('click', open);
    edit.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') open(e); });
    return edit;
  }

  #attachPress(key, button, page, index) {
    let start = null;
    let longTimer = null;
    const release = () => { clearTimeout(longTimer); longTimer = null; };
    const meaning = () => touchMeaning(button, { editing: this.editing, hostProtocol: this.hostProtocol() });
    // A tap: presses the key, or opens its editor in edit mode (an empty slot's always: to add a key).
    const tapped = () => (button && !this.editing ? this.#pressed(button, page, index) : this.onEdit(page, index, this.folderPath));
    key.addEventListener('pointerdown', (e) => {
      // Held while pressed (push-to-talk): down at once, up when this pointer ends (#listenForLetGo); a long
      // press is the hold itself, never an edit or a move (those are in edit mode).
      if (meaning() === 'hold') {
        key.setPointerCapture?.(e.pointerId); // a mouse that leaves the key still lets it go where it lifts
        this.#holdDown(key, page, index, e.pointerId);
        return;
      }
      start = { x: e.clientX, y: e.clientY, at: performance.now(), long: false };
      key.classList.add('down');
      longTimer = setTimeout(() => {
        start.long = true;
        // Lifted: a key can now be dragged to another slot; let go where it is to edit it.
        if (button && this.editable) key.classList.add('lifted');
        else {
          this.#lift(key, start.at);
          this.onEdit(page, index, this.folderPath);
        }
      }, LONG_PRESS_MS);
    });
    key.addEventListener('pointermove', (e) => {
      if (!start || Math.hypot(e.clientX - start.x, e.clientY - start.y) <= MOVE_CANCEL_PX) return;
      if (start.long && key.classList.contains('lifted')) {
        if (!this.drag) this.#startDrag(key, button, page, index, e);
        return;
      }
      release();
      key.classList.remove('down');
      start = null;
    });
    key.addEventListener('pointerup', () => {
      if (!start) return;
      release();
      const { long } = start;
      this.#lift(key, start.at);
      start = null;
      if (this.drag) return; // the drag ends on the window (Web/app/deck.js #startDrag)
      if (long) {
        if (key.classList.contains('lifted')) {
          key.classList.remove('lifted');
          this.onEdit(page, index, this.folderPath);
        }
        return;
      }
      tapped();
    });
    key.addEventListener('pointercancel', () => {
      release();
      start = null;
      key.classList.remove('down', 'lifted');
    });
    key.addEventListener('contextmenu', (e) => e.preventDefault());
    // Keyboard users press with Enter/Space (a click with no pointer down before it); a key held while pressed is
    // held while Enter or Space is, and let go when it comes up or the focus leaves.
    key.addEventListener('click', (e) => {
      if (e.detail !== 0 || meaning() === 'hold') return;
      this.#lift(key, performance.now());
      tapped();
    });
    const holdKey = (e) => (e.key === 'Enter' || e.key === ' ') && meaning() === 'hold';
    key.addEventListener('keydown', (e) => {
      if (!holdKey(e)) return;
      e.preventDefault();
      if (!e.repeat) this.#holdDown(key, page, index, KEYBOARD);
    });
    key.addEventListener('keyup', (e) => { if (e.key === 'Enter' || e.key === ' ') this.#letGo(KEYBOARD); });
    key.addEventListener('blur', () => this.#letGo(KEYBOARD));
  }

  /**
   * A lifted key follows the finger as a ghost; let go over another slot and the host moves it there (a key
   * there swaps into its place). Held at the deck's left or right edge it turns the page, so a key goes to
   * another page too. The back key of a folder neither gives nor takes a key.
   */
  #startDrag(key, button, page, index, e) {
    const box = key.getBoundingClientRect();
    const ghost = key.cloneNode(true);
    ghost.classList.add('drag-ghost');
    ghost.classList.remove('lifted', 'down');
    ghost.style.width = `${box.width}px`;
    ghost.style.height = `${box.height}px`;
    (this.root.closest('.app') ?? document.body).append(ghost); // inside the app, where the keys' sizes are set
    key.classList.add('drag-source');
    this.root.classList.add('dragging');
    const offset = { x: e.clientX - box.left, y: e.clientY - box.top };
    const drag = { from: { page, index }, path: this.folderPath, ghost, key, target: null, edgeTimer: null, edge: 0 };
    this.drag = drag;
    const place = (x, y) => {
      ghost.style.transform = `translate(${x - offset.x}px, ${y - offset.y}px)`;
      drag.target?.classList.remove('drop-target');
      const under = document.elementsFromPoint(x, y).find((el) => el.matches?.('.page .key[data-page]'));
      const isBack = under?.classList.contains('back');
      drag.target = under && under !== key && !isBack ? under : null;
      drag.target?.classList.add('drop-target');
      const area = this.root.getBoundingClientRect();
      const edge = x < area.left + EDGE_PX ? -1 : x > area.right - EDGE_PX ? 1 : 0;
      if (edge !== drag.edge) {
        clearTimeout(drag.edgeTimer);
        drag.edge = edge;
        const turn = () => {
          this.#scrollTo(this.current + edge, true);
          drag.edgeTimer = setTimeout(turn, EDGE_TURN_MS * 2);
        };
        if (edge) drag.edgeTimer = setTimeout(turn, EDGE_TURN_MS);
      }
    };
    const move = (ev) => place(ev.clientX, ev.clientY);
    const end = (ev) => {
      removeEventListener('pointermove', move);
      removeEventListener('pointerup', end);
      removeEventListener('pointercancel', end);
      clearTimeout(drag.edgeTimer);
      ghost.remove();
      key.classList.remove('drag-source', 'lifted', 'down');
      this.root.classList.remove('dragging');
      drag.target?.classList.remove('drop-target');
      this.drag = null;
      const to = ev.type === 'pointerup' ? drag.target : null;
      if (to) this.onMove(drag.from, { page: Number(to.dataset.page), index: Number(to.dataset.index) }, drag.path);
    };
    addEventListener('pointermove', move);
    addEventListener('pointerup', end);
    addEventListener('pointercancel', end);
    place(e.clientX, e.clientY);
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
    // Pages sit a --page-gap apart, so the glow room beside the deck never shows a neighbour's keys.
    this.strip.style.transform = `translateX(calc(${-100 * this.current}% - ${this.current} * var(--page-gap)))`;
    this.#markDot();
  }

  #listenForSwipes() {
    let from = null;
    // A finger holding a key (push-to-talk) may wander; it never turns the page.
    this.root.addEventListener('pointerdown', (e) => { from = this.holds.holds(e.pointerId) ? null : { x: e.clientX, y: e.clientY }; });
    this.root.addEventListener('pointerup', (e) => {
      if (!from || this.drag) return void (from = null);
      const dx = e.clientX - from.x;
      const dy = e.clientY - from.y;
      from = null;
      if (Math.abs(dx) > SWIPE_PX && Math.abs(dx) > Math.abs(dy)) this.#scrollTo(this.current + (dx < 0 ? 1 : -1), true);
    });
  }
}

/** The "pointer" of a key held with Enter or Space. */
const KEYBOARD = 'keyboard';

/** Where a press's look is kept: the deck's keys by page, a folder's by its path and page. */
const lookPage = (page, path) => (path.length ? `${path.map((s) => `${s.page}.${s.index}`).join('/')}/${page}` : page);
const samePath = (a, b) => a.length === b.length && a.every((s, i) => s.page === b[i].page && s.index === b[i].index);

/** A folder key's mark: a small folder tab above its label. */
function folderMark() {
  const mark = span('folder-mark');
  mark.innerHTML = ICONS.folder ?? '';
  return mark;
}

/**
 * An app's or a stored icon's picture, or an emoji drawn by the device's font (it is the user's own choice of
 * symbol). A picture that does not draw gives its place back to the label.
 */
function iconElement(icon) {
  if (icon.emoji) return text('span', 'icon emoji', icon.emoji);
  const img = document.createElement('img');
  img.className = icon.image ? 'icon image' : 'icon';
  img.alt = '';
  if (icon.image) img.dataset.image = icon.image;
  img.addEventListener('error', () => {
    const label = img.parentElement?.querySelector('.label');
    if (label) label.hidden = false;
    img.remove();
  }, { once: true });
  img.src = icon.src;
  return img;
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

/** A now-playing tile's face: the album art beside the title, the artist and the position (filled by showMedia). */
function nowPlayingFace(button) {
  const art = document.createElement('img');
  art.className = 'np-art';
  art.alt = '';
  art.hidden = true;
  const words = span('np-words');
  words.append(text('span', 'np-title', ''), text('span', 'np-artist', ''));
  const bar = span('np-progress');
  bar.append(span('np-progress-fill'));
  bar.hidden = true;
  const label = text('span', 'label sr-only', button.label);
  return [span('kind-dot'), art, words, bar, label];
}

/** A slider's face: its label and value above a track whose fill shows the value (`--value` on the key). */
function sliderFace(button) {
  const track = span('slider-track');
  track.append(span('slider-fill'), span('slider-thumb'));
  const words = span('slider-words');
  words.append(text('span', 'label', button.label || sliderLabel(button)), text('span', 'slider-value', '–'));
  return [span('kind-dot'), words, track];
}
