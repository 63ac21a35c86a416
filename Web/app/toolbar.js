// The viewer's toolbar: a row of buttons anyone can add to (`add`), so sound, keyboard and record plug in.

export class Toolbar {
  constructor(root) {
    this.root = root;
    this.buttons = new Map();
  }

  /**
   * Adds a button; `label` is its accessible name, `text` what it shows. Buttons added with `end` stay at the
   * end of the row, after any added later without it (Close stays last). Returns the element.
   */
  add({ name, label, text = label, onClick, pressed = null, end = false }) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'tool';
    button.dataset.tool = name;
    button.setAttribute('aria-label', label);
    if (text.startsWith('<svg')) button.innerHTML = text;
    else button.textContent = text;
    if (pressed !== null) button.setAttribute('aria-pressed', String(pressed));
    button.addEventListener('click', () => onClick(button));
    if (end) button.dataset.end = '';
    this.root.insertBefore(button, end ? null : this.root.querySelector('[data-end]'));
    this.buttons.set(name, button);
    return button;
  }

  get(name) { return this.buttons.get(name); }

  show(name, visible) {
    const button = this.buttons.get(name);
    if (button) button.hidden = !visible;
  }

  /** A vacant button keeps its place in the row, unseen and untappable, so its neighbours never move. */
  vacate(name, vacant) {
    const button = this.buttons.get(name);
    if (!button) return;
    button.classList.toggle('vacant', vacant);
    button.disabled = vacant;
    button.setAttribute('aria-hidden', String(vacant));
  }

  setPressed(name, on) { this.buttons.get(name)?.setAttribute('aria-pressed', String(on)); }
}
