// A device that may not change the deck (README "What each device may do", PROTOCOL §6 "Who may edit"): long-press
// and empty slots explain how to allow it instead of opening the edit sheet, the "+" and Edit actions hide, and an
// edit the host refused closes the sheet. Follows `editPermission` at once, both ways, without a reload.
import { EditPermission, editNotice, isEditRefusal } from '../core/edit-permission.js';

/**
 * Wires the permission to the deck. `sheets` are the dialogs that edit (the edit sheet, the app picker), closed
 * when editing stops; `dialog` is the notice. Returns `mayEdit()` and `explain()` for the deck's long-press.
 */
export function setUpEditLock(client, { deck, sheets, dialog, storage = localStorage }) {
  const permission = new EditPermission(storage);
  const deviceId = () => client.credentials?.deviceId ?? null;
  const mayEdit = () => permission.allowed(deviceId());
  const notice = noticeSheet(dialog);
  const explain = () => notice.show(editNotice(permission.read(deviceId()).message, client.name));
  const stopEditing = () => {
    for (const sheet of sheets) if (sheet.open) sheet.close();
  };
  const follow = () => deck.setEditable(mayEdit());

  client.addEventListener('editPermission', ({ detail }) => {
    const wasEditing = sheets.some((sheet) => sheet.open);
    permission.learn(deviceId(), { allowed: detail.allowed === true });
    follow();
    if (mayEdit()) {
      notice.hide();
      return;
    }
    // Turned off while the sheet was open: what would be saved would be refused, so say so now.
    if (wasEditing) {
      stopEditing();
      explain();
    }
  });
  // An edit already sent and refused: the grid never changed (it only shows the host's layout), so closing the
  // sheet and saying why is all there is to undo.
  client.addEventListener('hostError', (event) => {
    if (!isEditRefusal(event.detail)) return;
    event.preventDefault();
    permission.learn(deviceId(), { allowed: false, message: event.detail.message ?? '' });
    follow();
    stopEditing();
    explain();
  });
  client.addEventListener('state', ({ detail }) => {
    // A new pairing (or a revoked device): the old answer was about a device that is gone.
    if (detail.previous === 'pairing' && detail.state === 'authenticating') permission.forget();
    follow();
  });
  client.addEventListener('revoked', () => {
    permission.forget();
    follow();
  });
  follow();
  return { mayEdit, explain };
}

/** The notice: a small sheet with the command to run on the computer, shown once per attempt. */
function noticeSheet(dialog) {
  const title = dialog.querySelector('h2');
  const action = dialog.querySelector('.edit-refused-action');
  const command = dialog.querySelector('.edit-refused-command');
  // A tap beside the sheet (on its backdrop) closes it, as OK does.
  dialog.addEventListener('click', (e) => {
    const r = dialog.getBoundingClientRect();
    const inside = e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom;
    if (e.target === dialog && !inside) dialog.close();
  });
  return {
    show({ lead, action: says, command: run }) {
      title.textContent = lead.replace(/\.$/, '');
      action.textContent = says;
      command.textContent = run;
      command.hidden = !run;
      if (!dialog.open) dialog.showModal();
    },
    hide() { if (dialog.open) dialog.close(); },
  };
}
