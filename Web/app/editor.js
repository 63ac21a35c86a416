// The edit sheet (DESIGN.md#client): kind picker, fields per kind, delete for existing buttons. Save only sends the
// request; the grid changes when the host's new layout arrives. A save the host refuses (`badMessage`) opens the
// sheet again with what was being saved and the host's words.
import {
  characterCount, defaultLabel, isMediaAction, isOpenTarget, MAX_TEXT, MEDIA_ACTIONS, OPEN_TARGET_RULE,
} from '../core/key-kinds.js';
import { hotkeyFields } from './hotkey-fields.js';
import { CompoundFields } from './compound-fields.js';
import { lookFields } from './look-fields.js';
import { folderDepth, MAX_FOLDER_DEPTH, mayAddFolder } from '../core/folders.js';
import { readStateCommand, stateCommandFields, withStateCommand } from '../core/key-state.js';
import { SLIDER_BINDINGS } from '../core/slider.js';

const KINDS = [
  'app', 'command', 'terminal', 'record', 'hotkey', 'text', 'open', 'media', 'micMute', 'nowPlaying', 'slider', 'multi',
  'toggle', 'folder', 'page', 'profile',
];


export class EditSheet {
  constructor(dialog, {
    onSave, onDelete, onCopied, pickApp, appName, iconFor, recordFields, profiles = null, storeImage, imageFor,
  }) {
    this.dialog = dialog;
    this.form = dialog.querySelector('form');
    this.label = dialog.querySelector('#edit-label');
    this.command = dialog.querySelector('#edit-command');
    this.directory = dialog.querySelector('#edit-directory');
    this.text = dialog.querySelector('#edit-text');
    this.enter = dialog.querySelector('#edit-enter');
    this.textCount = dialog.querySelector('#edit-text-count');
    this.target = dialog.querySelector('#edit-target');
    this.mediaAction = dialog.querySelector('#edit-media-action');
    this.mediaAction.replaceChildren(...Object.entries(MEDIA_ACTIONS).map(([action, name]) => new Option(name, action)));
    this.spanAlong = dialog.querySelector('#edit-span-along');
    this.slider = {
      bind: dialog.querySelector('#edit-slider-bind'), app: dialog.querySelector('#edit-slider-app'),
      command: dialog.querySelector('#edit-slider-command'), span: dialog.querySelector('#edit-slider-span'),
      along: dialog.querySelector('#edit-slider-along'),
    };
    this.slider.bind.replaceChildren(...Object.entries(SLIDER_BINDINGS).map(([bind, name]) => new Option(name, bind)));
    this.appButton = dialog.querySelector('#pick-app');
    this.error = dialog.querySelector('#edit-error');
    this.deleteButton = dialog.querySelector('#edit-delete');
    this.callbacks = { onSave, onDelete, onCopied, pickApp, appName, iconFor, recordFields };
    this.hotkey = hotkeyFields(dialog, { onChange: () => this.#showDefaultLabel() });
    this.compound = new CompoundFields(dialog, { onChange: () => this.#showDefaultLabel() });
    this.looks = lookFields(dialog, { pickApp, appName, iconFor, storeImage, imageFor });
    // A key's state command (PROTOCOL §6 "Live looks"), any kind: kept when the key is saved, and its last error.
    this.stateCommand = dialog.querySelector('#edit-state-command');
    this.stateEvery = dialog.querySelector('#edit-state-every');
    this.stateError = dialog.querySelector('#edit-state-error');
    this.pageGo = dialog.querySelector('#edit-page-go');
    this.pageNumber = dialog.querySelector('#edit-page-number');
    this.profileFields = profileFields(dialog, profiles);
    this.slot = null;
    this.pending = null;
    this.appId = '';
    this.form.addEventListener('change', () => this.#showFields());
    this.form.addEventListener('input', () => this.#showDefaultLabel());
    this.text.addEventListener('input', () => this.#countText());
    this.form.addEventListener('submit', (e) => { e.preventDefault(); this.#save(); });
    dialog.querySelector('#edit-cancel').addEventListener('click', () => dialog.close());
    dialog.addEventListener('close', () => this.hotkey.stop());
    // Copy and paste (PROTOCOL §6 "Moving keys, copy and undo"): a key copied here, kept on this device, is put
    // into another slot (of any page, folder or profile) through the host like any new key.
    this.copyButton = dialog.querySelector('#edit-copy');
    this.pasteButton = dialog.querySelector('#edit-paste');
    this.copied = null;
    this.copyButton.addEventListener('click', () => {
      this.copied = structuredClone(this.original);
      dialog.close();
      this.callbacks.onCopied?.(this.copied);
    });
    this.pasteButton.addEventListener('click', () => {
      const button = structuredClone(this.copied);
      this.pending = { ...this.slot, button, existing: false };
      this.callbacks.onSave(this.slot.page, this.slot.index, button, this.slot.path);
      dialog.close();
    });
    this.deleteButton.addEventListener('click', () => {
      this.callbacks.onDelete(this.slot.page, this.slot.index, this.slot.path);
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

  /**
   * `existing` says whether the slot holds this button (Edit) or it is a draft for an empty slot (Add); `path`
   * names the folder the slot is in (PROTOCOL §6 "Folders and pages"), [] for the deck.
   */
  open(page, index, button, existing = Boolean(button), path = []) {
    this.slot = { page, index, path };
    this.original = button;
    // A folder cannot be made where it would be more than four deep (an existing one may stay a folder).
    this.dialog.querySelector('.kind-choice-folder').hidden = !mayAddFolder(path) && button?.kind !== 'folder';
    this.pending = null;
    this.dialog.querySelector('#edit-title').textContent = existing ? 'Edit button' : 'Add a button';
    this.form.elements.kind.value = button?.kind ?? 'app';
    this.label.value = button?.label ?? '';
    this.command.value = button?.command ?? '';
    this.directory.value = button?.directory ?? '';
    this.text.value = button?.text ?? '';
    this.enter.checked = button?.enter === true;
    this.target.value = button?.target ?? '';
    this.mediaAction.value = isMediaAction(button?.action) ? button.action : 'playPause';
    this.spanAlong.value = button?.along === 'column' ? 'column' : 'row';
    this.slider.bind.value = Object.hasOwn(SLIDER_BINDINGS, button?.bind) ? button.bind : 'speakers';
    this.slider.app.value = button?.kind === 'slider' ? button.app ?? '' : '';
    this.slider.command.value = button?.kind === 'slider' ? button.command ?? '' : '';
    this.slider.span.value = String([2, 3, 4].includes(button?.span) && button?.kind === 'slider' ? button.span : 2);
    this.slider.along.value = button?.along === 'column' ? 'column' : 'row';
    this.pageGo.value = ['next', 'previous', 'page'].includes(button?.go) ? button.go : 'next';
    this.pageNumber.value = String(Number.isInteger(button?.page) ? button.page + 1 : 1);
    this.hotkey.fill(button);
    this.compound.fill(button);
    this.looks.fill(button);
    this.profileFields.fill(button);
    const state = stateCommandFields(button);
    this.stateCommand.value = state.command;
    this.stateEvery.value = state.every;
    this.showKeyState(null);
    this.#setApp(button?.appId ?? '');
    this.callbacks.recordFields?.fill(button); // recording: monitor and fps (Web/app/recordings.js)
    this.deleteButton.hidden = !existing;
    this.copyButton.hidden = !existing;
    // A folder pasted here would be too deep: not offered (the host would refuse it too).
    this.pasteButton.hidden = existing || !this.copied || path.length + folderDepth(this.copied) > MAX_FOLDER_DEPTH;
    if (!this.pasteButton.hidden) this.pasteButton.textContent = `Paste “${this.copied.label}”`;
    this.error.textContent = '';
    this.#showFields();
    this.#countText();
    this.dialog.showModal();
  }

  close() { if (this.dialog.open) this.dialog.close(); }

  /**
   * The host refused the last save as a bad message (a target it does not open…): the sheet opens again with
   * that button and the host's words. Returns whether there was a save to take it.
   */
  refused(message) {
    const pending = this.pending;
    if (!pending) return false;
    this.open(pending.page, pending.index, pending.button, pending.existing, pending.path);
    this.error.textContent = message;
    return true;
  }

  /**
   * The key's live look came (`message`: the keyState, for the sheet open on that key only; absent: the key the
   * sheet opened with): its state command's last error shows under the field, or nothing once a run works.
   */
  showKeyState(state, message) {
    if (message) {
      const path = message.path ?? [];
      const slot = this.slot;
      if (!this.dialog.open || !slot || slot.page !== message.page || slot.index !== message.index
        || JSON.stringify(slot.path.map(({ page, index }) => ({ page, index }))) !== JSON.stringify(path.map(({ page, index }) => ({ page, index })))) return;
    }
    const error = state?.error ?? '';
    this.stateError.textContent = error ? `The state command failed: ${error}` : '';
    this.stateError.hidden = !error;
  }

  /** The profiles there are changed (PROTOCOL §6 "Profiles"): the profile key's list follows. */
  showProfiles(names) { this.profileFields.setNames(names); }

  /** A new profile or an import this sheet asked for worked: the profile key's list shows it chosen, and says so. */
  profileAdded(name, note, imported = false) { this.profileFields.choose(name, note, imported); }

  /** The host refused an import or a new profile: said where it was asked. */
  profileRefused(message) { return this.profileFields.refused(message); }

  /** The host's new layout arrived: the last save went through. */
  settled() { this.pending = null; }

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
    for (const k of KINDS) this.dialog.querySelector(`.kind-${k}`).hidden = k !== kind;
    this.dialog.querySelector('.page-number').hidden = this.pageGo.value !== 'page';
    this.dialog.querySelector('.slider-app').hidden = this.slider.bind.value !== 'app';
    this.dialog.querySelector('.slider-script').hidden = this.slider.bind.value !== 'script';
    if (kind !== 'hotkey') this.hotkey.stop();
    this.#showDefaultLabel();
  }

  // The label a key of a new kind gets when it is left empty shows as the field's hint.
  #showDefaultLabel() {
    this.label.placeholder = defaultLabel(this.#button('')) || '';
  }

  #countText() {
    const n = characterCount(this.text.value);
    this.textCount.textContent = `${n} / ${MAX_TEXT}`;
    this.textCount.classList.toggle('over', n > MAX_TEXT);
  }

  #button(label) {
    const kind = this.form.elements.kind.value;
    const button = { kind, label };
    if (kind === 'app') button.appId = this.appId;
    if (kind === 'command') button.command = this.command.value.trim();
    if (kind === 'terminal') button.directory = this.directory.value.trim();
    if (kind === 'record') Object.assign(button, this.callbacks.recordFields.read());
    if (kind === 'hotkey') Object.assign(button, this.hotkey.read());
    if (kind === 'text') Object.assign(button, { text: this.text.value, enter: this.enter.checked });
    if (kind === 'open') button.target = this.target.value.trim();
    if (kind === 'media') button.action = this.mediaAction.value;
    // A wide control (PROTOCOL §6 "Tiles and sliders"): the host refuses it where its slots are not free.
    if (kind === 'nowPlaying') Object.assign(button, { span: 2 }, this.spanAlong.value === 'column' ? { along: 'column' } : {});
    if (kind === 'slider') Object.assign(button, this.#sliderFields());
    if (kind === 'multi') Object.assign(button, this.compound.readMulti());
    if (kind === 'toggle') Object.assign(button, this.compound.readToggle());
    // A folder edited keeps its keys; a new one gets its first page from the host.
    if (kind === 'folder' && this.original?.kind === 'folder') button.pages = this.original.pages;
    if (kind === 'page') Object.assign(button, this.#pageTurn());
    if (kind === 'profile') button.profile = this.profileFields.read();
    Object.assign(button, this.looks.read());
    return withStateCommand(button, this.#stateFields());
  }

  #sliderFields() {
    const { bind, app, command, span, along } = this.slider;
    const fields = { bind: bind.value, span: Number(span.value) };
    if (along.value === 'column') fields.along = 'column';
    if (bind.value === 'app') fields.app = app.value.trim();
    if (bind.value === 'script') fields.command = command.value.trim();
    return fields;
  }

  #stateFields() { return { command: this.stateCommand.value, every: this.stateEvery.value }; }

  #pageTurn() {
    const go = this.pageGo.value;
    return go === 'page' ? { go, page: Math.max(0, Math.round(Number(this.pageNumber.value) || 1) - 1) } : { go };
  }

  #problem(button) {
    switch (button.kind) {
      case 'app': return button.appId ? '' : 'Choose an app.';
      case 'command': return button.command ? '' : 'Enter a command.';
      case 'slider':
        if (button.bind === 'app' && !button.app) return "Enter the app's name.";
        return button.bind === 'script' && !button.command?.includes('{value}') ? 'The command needs {value} in it.' : '';
      case 'hotkey': return this.hotkey.problem();
      case 'text': return !button.text ? 'Enter the text to type.'
        : characterCount(button.text) > MAX_TEXT ? `A text key types at most ${MAX_TEXT} characters.` : '';
      case 'open': return !button.target ? 'Enter an address or a path.'
        : isOpenTarget(button.target) ? '' : OPEN_TARGET_RULE;
      case 'multi': case 'toggle': return this.compound.problem(button.kind);
      case 'profile': return button.profile ? '' : 'Choose the profile the key shows.';
      default: return '';
    }
  }

  #save() {
    const draft = this.#button(this.label.value.trim());
    const button = { ...draft, label: draft.label || defaultLabel(draft) };
    const problem = this.#problem(button) || this.looks.problem() || readStateCommand(this.#stateFields()).problem
      || (!button.label ? 'Give the button a label.' : '');
    if (problem) {
      this.error.textContent = problem;
      return;
    }
    const existing = !this.deleteButton.hidden;
    this.pending = { ...this.slot, button, existing };
    this.callbacks.onSave(this.slot.page, this.slot.index, button, this.slot.path);
    this.dialog.close();
  }
}

/**
 * A profile key's fields: the profile it shows, chosen from the host's list, and the two ways to make one: a new
 * empty profile, or a profile file from this device (exported on this or another computer) through a file picker.
 * `profiles` gives `{ names(), add(name), importFile(text, size) }`; the host answers with `profiles` and
 * `profileImported`, or an error shown here.
 */
function profileFields(dialog, profiles) {
  const select = dialog.querySelector('#edit-profile');
  const note = dialog.querySelector('#edit-profile-note');
  const picker = dialog.querySelector('#edit-profile-file');
  // What this sheet asked the host for and waits on: null, { add: NAME } or { import: true }.
  let asked = null;
  let wanted = '';
  const setNames = (names) => {
    const keep = wanted || select.value;
    select.replaceChildren(...names.map((name) => new Option(name, name)));
    if (keep && !names.includes(keep)) select.append(new Option(`${keep} (not on this computer)`, keep));
    if (keep) select.value = keep;
  };
  dialog.querySelector('#edit-profile-new').addEventListener('click', () => {
    const name = prompt('Name of the new profile')?.trim();
    if (!name) return;
    asked = { add: name.toLowerCase() };
    note.textContent = '';
    profiles?.add(name);
  });
  dialog.querySelector('#edit-profile-import').addEventListener('click', () => picker.click());
  picker.addEventListener('change', async () => {
    const file = picker.files?.[0];
    picker.value = '';
    if (!file) return;
    asked = { import: true };
    note.textContent = `Importing ${file.name}…`;
    const problem = profiles?.importFile(await file.text(), file.size);
    if (problem) {
      asked = null;
      note.textContent = problem;
    }
  });
  return {
    fill(button) {
      wanted = button?.kind === 'profile' ? String(button.profile ?? '') : '';
      note.textContent = '';
      asked = null;
      setNames(profiles?.names() ?? []);
      if (!wanted && select.options.length) select.selectedIndex = 0;
    },
    read: () => select.value,
    setNames(names) { setNames(names); },
    /** A profile came: chosen when it is the one this sheet asked for (`imported`: the import's answer). */
    choose(name, text, imported) {
      if (!asked || (imported ? !asked.import : asked.add !== name.toLowerCase())) return;
      asked = null;
      wanted = name;
      setNames(profiles?.names() ?? []);
      select.value = name;
      note.textContent = text;
      select.dispatchEvent(new Event('input', { bubbles: true })); // the label's hint names it
    },
    refused(message) {
      if (!asked || !dialog.open) return false;
      asked = null;
      note.textContent = message;
      return true;
    },
  };
}
