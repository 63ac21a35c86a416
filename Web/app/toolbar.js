// The viewer's toolbar: a row of buttons anyone can add to (`add`), so sound, keyboard and record plug in.

export class Toolbar {
  constructor(root) {
    this.root = root;
    this.buttons = new Map();
  }

  /** Adds a button; `label` is its accessible name, `text` what it shows. Returns the element. */
  add({ name, label, text = label, onClick, pressed = null }) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'tool';
    button.dataset.tool = name;
    button.setAttribute('aria-label', label);
    if (text.startsWith('<svg')) button.innerHTML = text;
    else button.textContent = text;
    if (pressed !== null) button.setAttribute('aria-pressed', String(pressed));
    button.addEventListener('click', () => onClick(button));
    this.root.append(button);
    this.buttons.set(name, button);
    return button;
  }

  get(name) { return this.buttons.get(name); }

  show(name, visible) {
    const button = this.buttons.get(name);
    if (button) button.hidden = !visible;
  }

  setPressed(name, on) { this.buttons.get(name)?.setAttribute('aria-pressed', String(on)); }
}
