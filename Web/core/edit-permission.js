// Whether this device may change the deck (PROTOCOL §6 "Who may edit"). The host does not say at authorization:
// the device learns it from a refusal (`error{code:"notAllowed", request:"setButton"|…}`) or from
// `editPermission{allowed}`, and remembers it so the next visit starts right. Unknown counts as allowed (the
// host refuses anyway, and a new device may edit). DOM-free, so `node --test` checks it.
import { answers } from './errors.js';

const KEY = 'touchdeck.editPermission';

/** The requests that change the deck; a device that may not edit gets `notAllowed` for each. */
export const EDIT_REQUESTS = ['setButton', 'clearButton', 'moveButton'];

/** Whether a host error is the refusal of an edit. An older host without `request` is known by its words. */
export function isEditRefusal(error) {
  return error?.code === 'notAllowed'
    && answers(error, EDIT_REQUESTS, () => String(error.message ?? '').includes('allow-edit'));
}

/**
 * The notice a device that may not edit shows: `{ lead, action, command }`. The command is the one the host's
 * message names (it knows the device's name as `touchdeck devices` shows it, " 2" and all); without a message
 * (the permission came as `editPermission`), the device's own name stands in. A host message in other words
 * than expected is shown whole as the `action`.
 */
export function editNotice(hostMessage, deviceName) {
  const lead = 'This device can only press keys.';
  const found = /touchdeck devices allow-edit\s+("[^"]*"|\S+)\s+on/.exec(String(hostMessage ?? ''));
  if (found) return { lead, action: 'To change the deck, run on the computer:', command: found[0] };
  if (hostMessage) return { lead, action: String(hostMessage), command: '' };
  const name = String(deviceName ?? '').trim() || 'NAME';
  return { lead, action: 'To change the deck, run on the computer:',
    command: `touchdeck devices allow-edit "${name.replaceAll('"', '\\"')}" on` };
}

/** The remembered permission of the paired device, kept in `storage` under its device id. */
export class EditPermission {
  /** @param {object} storage `getItem`/`setItem`/`removeItem` (localStorage in the browser) */
  constructor(storage) {
    this.storage = storage;
  }

  /** What is known for `deviceId`: `{ allowed, message }`; unknown (or another device's record) is allowed. */
  read(deviceId) {
    let saved = null;
    try {
      saved = JSON.parse(this.storage.getItem(KEY) ?? 'null');
    } catch {
      saved = null;
    }
    if (!deviceId || saved?.deviceId !== deviceId) return { allowed: true, message: '' };
    return { allowed: saved.allowed !== false, message: typeof saved.message === 'string' ? saved.message : '' };
  }

  allowed(deviceId) { return this.read(deviceId).allowed; }

  /**
   * Takes what the host said: `editPermission{allowed}` or an edit's refusal (`{allowed:false, message}`).
   * Returns whether the permission changed. A refusal's message is kept for the notice (and outlives a later
   * `editPermission{allowed:false}`, which has none).
   */
  learn(deviceId, { allowed, message = '' }) {
    if (!deviceId) return false;
    const before = this.read(deviceId);
    const kept = allowed ? '' : (message || before.message);
    this.storage.setItem(KEY, JSON.stringify({ deviceId, allowed: Boolean(allowed), message: kept }));
    return before.allowed !== Boolean(allowed);
  }

  /** The device paired again (or was revoked): what was known is no longer true. */
  forget() { this.storage.removeItem(KEY); }
}
