// The edit sheet's hotkey fields (PROTOCOL §6 `hotkey`): modifier toggles and a key chosen from a list or typed as
// one character, or a chord recorded from a hardware keyboard attached to the device. Names and mapping live in
// Web/core/hotkeys.js.
import { chordFromEvent, chordLabel, isChordCharacter, KEY_GROUPS, orderedModifiers } from '../core/hotkeys.js';

const CHARACTER = 'character';

/** Wires the fields inside `dialog`; `onChange()` runs after every change of the chord. */
export function hotkeyFields(dialog, { onChange = () => {} } = {}) {
  const select = dialog.querySelector('#edit-hotkey-key');
  const char = dialog.querySelector('#edit-hotkey-char');
  const charField = dialog.querySelector('.key-char');
  const chord = dialog.querySelector('#edit-chord');
  const recordButton = dialog.querySelector('#edit-record-chord');
  const toggles = [...dialog.querySelectorAll('input[name="modifier"]')];
  const hold = dialog.querySelector('#edit-hold');
  const holdHint = dialog.querySelector('#edit-hold-hint');
  const showHold = () => { holdHint.hidden = !hold.checked; };
  hold.addEventListener('change', showHold);
  fillKeyList(select);
  let recording = false;

  const read = () => {
    const named = select.value !== CHARACTER;
    const key = named ? select.value : [...char.value.trim()][0]?.toLocaleLowerCase() ?? '';
    const chord = { key, modifiers: orderedModifiers(toggles.filter((t) => t.checked).map((t) => t.value)) };
    // "Hold while pressed" is saved only when on (PROTOCOL §6: absent is false).
    return hold.checked ? { ...chord, hold: true } : chord;
  };
  const show = () => {
    charField.hidden = select.value !== CHARACTER;
    const now = read();
    chord.textContent = recording ? 'Press the keys on a keyboard…' : chordLabel(now) || 'Choose a key';
    chord.classList.toggle('empty', !now.key && !recording);
    onChange();
  };
  const fill = ({ key = '', modifiers = [] } = {}) => {
    const named = [...select.options].some((o) => o.value === key && key !== CHARACTER);
    select.value = named ? key : CHARACTER;
    char.value = named ? '' : key;
    for (const toggle of toggles) toggle.checked = modifiers.includes(toggle.value);
  };
  const setRecording = (on) => {
    recording = on;
    recordButton.setAttribute('aria-pressed', String(on));
    recordButton.textContent = on ? 'Stop' : 'Record';
    dialog.classList.toggle('recording-chord', on);
    show();
  };

  recordButton.addEventListener('click', () => {
    setRecording(!recording);
    if (recording) recordButton.focus(); // the key presses go to the sheet, not to a text field
  });
  // A hardware key press while recording is the chord (a lone modifier waits for the key it modifies). Taken on
  // the document, first: wherever the focus went (iPad Safari may leave it on the body), no field gets the key.
  dialog.ownerDocument.addEventListener('keydown', (e) => {
    if (!recording) return;
    e.preventDefault();
    e.stopPropagation();
    const pressed = chordFromEvent(e);
    if (!pressed) return;
    fill(pressed);
    setRecording(false);
  }, true);
  // Esc while recording is a key to record, not "close the sheet".
  dialog.addEventListener('cancel', (e) => { if (recording) e.preventDefault(); });
  select.addEventListener('change', () => {
    show();
    if (select.value === CHARACTER) char.focus();
  });
  char.addEventListener('input', () => {
    // One character: the last one typed replaces what was there.
    const characters = [...char.value.trim()];
    if (characters.length > 1) char.value = characters.at(-1);
    show();
  });
  for (const toggle of toggles) toggle.addEventListener('change', show);

  return {
    /** Shows a button's chord (or none for a new key). */
    fill(button) {
      fill(button?.kind === 'hotkey' ? button : {});
      hold.checked = button?.kind === 'hotkey' && button.hold === true; // a recorded chord keeps the switch as it is
      showHold();
      setRecording(false);
    },
    read,
    stop: () => { if (recording) setRecording(false); },
    /** What is wrong with the chord, in words, or ''. */
    problem() {
      const { key } = read();
      if (!key) return 'Choose a key, or record one.';
      if (select.value === CHARACTER && !isChordCharacter(key)) return 'Type one letter, digit or symbol.';
      return '';
    },
  };
}

function fillKeyList(select) {
  const typed = new Option('Typed key', CHARACTER);
  const groups = KEY_GROUPS.map(([name, keys]) => {
    const group = document.createElement('optgroup');
    group.label = name;
    group.append(...keys.map(([value, readable]) => new Option(readable, value)));
    return group;
  });
  select.replaceChildren(typed, ...groups);
}
