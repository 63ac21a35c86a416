// The edit sheet (SPEC §6): kind picker, fields per kind, delete for existing buttons. Save only sends the
// request; the grid changes when the host's new layout arrives.

export class EditSheet {
  constructor(dialog, { onSave, onDelete, pickApp, appName, iconFor, recordFields }) {
    this.dialog = dialog;
    this.form = dialog.querySelector('form');
    this.label = dialog.querySelector('#edit-label');
    this.command = dialog.querySelector('#edit-command');
    this.directory = dialog.querySelector('#edit-directory');
    this.appButton = dialog.querySelector('#pick-app');
    this.error = dialog.querySelector('#edit-error');
    this.deleteButton = dialog.querySelector('#edit-delete');
    this.callbacks = { onSave, onDelete, pickApp, appName, iconFor, recordFields };
    this.slot = null;
    this.appId = '';
    this.form.addEventListener('change', () => this.#showFields());
    this.form.addEventListener('submit', (e) => { e.preventDefault(); this.#save(); });
    dialog.querySelector('#edit-cancel').addEventListener('click', () => dialog.close());
    this.deleteButton.addEventListener('click', () => {
      this.callbacks.onDelete(this.slot.page, this.slot.index);
      dialog.close();
    });
    this.appButton.addEventListener('click', async () => {
      const app = await this.callbacks.pickApp();
      if (!app) return;
      this.#setApp(app.id);
      if (!this.label.value.trim()) this.label.value = app.name;
    });
  }

  get isOpen() { return this.dialog.open; }

  open(page, index, button) {
    this.slot = { page, index };
    this.dialog.querySelector('#edit-title').textContent = button ? 'Edit button' : 'Add a button';
    this.form.elements.kind.value = button?.kind ?? 'app';
    this.label.value = button?.label ?? '';
    this.command.value = button?.command ?? '';
    this.directory.value = button?.directory ?? '';
    this.#setApp(button?.appId ?? '');
    this.callbacks.recordFields?.fill(button); // recording: monitor and fps (Web/app/recordings.js)
    this.deleteButton.hidden = !button;
    this.error.textContent = '';
    this.#showFields();
    this.dialog.showModal();
  }

  close() { if (this.dialog.open) this.dialog.close(); }

  #setApp(id) {
    this.appId = id;
    const name = id ? this.callbacks.appName(id) : null;
    const icon = id ? this.callbacks.iconFor(id) : null;
    this.appButton.replaceChildren();
    if (icon) {
      const img = document.createElement('img');
      img.src = icon;
      img.alt = '';
      this.appButton.append(img);
    }
    this.appButton.append(document.createTextNode(id ? (name ?? id) : 'Choose an app…'));
  }

  #showFields() {
    const kind = this.form.elements.kind.value;
    for (const k of ['app', 'command', 'terminal', 'record']) this.dialog.querySelector(`.kind-${k}`).hidden = k !== kind;
  }

  #save() {
    const kind = this.form.elements.kind.value;
    const label = this.label.value.trim();
    const button = { kind, label };
    if (kind === 'app') button.appId = this.appId;
    if (kind === 'command') button.command = this.command.value.trim();
    if (kind === 'terminal') button.directory = this.directory.value.trim();
    if (kind === 'record') Object.assign(button, this.callbacks.recordFields.read());
    const problem = !label ? 'Give the button a label.'
      : kind === 'app' && !button.appId ? 'Choose an app.'
        : kind === 'command' && !button.command ? 'Enter a command.' : '';
    if (problem) {
      this.error.textContent = problem;
      return;
    }
    this.callbacks.onSave(this.slot.page, this.slot.index, button);
    this.dialog.close();
  }
}
