// Profiles (PROTOCOL §6 "Profiles"): named decks. The host keeps them all, the shared current one, and which one
// each device shows; the device only asks to switch, to follow the shared one or keep its own, to add, delete or
// rename one and to import a profile file. DOM-free, so `node --test` checks the messages against
// Tests/Fixtures/messages.

import { cleanName } from './names.js';

/** The largest profile file the host reads (ProfileFile.maxBytes); a larger one is refused here before sending. */
export const MAX_PROFILE_FILE_BYTES = 2 << 20;

/** What a device shows before the host says (a host before profiles sends no `profiles`): one deck. */
export const NO_PROFILES = Object.freeze({ names: [], current: '', shown: '', follows: true });

/** A `profiles` message as the header shows it; anything malformed reads as no profiles. */
export function readProfiles(message) {
  const names = Array.isArray(message?.names) ? message.names.filter((name) => typeof name === 'string') : [];
  if (!names.length) return NO_PROFILES;
  const shown = names.includes(message.shown) ? message.shown : names[0];
  const current = names.includes(message.current) ? message.current : shown;
  return { names, current, shown, follows: message.follows !== false };
}

export const switchProfile = (name) => ({ type: 'switchProfile', name });
export const followProfile = (follow) => ({ type: 'followProfile', follow: Boolean(follow) });
export const addProfile = (name) => ({ type: 'addProfile', name });
export const deleteProfile = (name) => ({ type: 'deleteProfile', name });
export const renameProfile = (name, newName) => ({ type: 'renameProfile', name, newName });

/**
 * What renaming profile `from` to the name typed, `wanted`, sends, by the host's rules (names cleaned, unique ignoring
 * case; a profile may change its own case): `{ message }`, `{ problem }` said to the user, or `{}` when nothing
 * changes (cancelled, or the same name).
 */
export function renameRequest(names, from, wanted) {
  if (wanted == null) return {};
  const name = cleanName(wanted);
  if (!name) return { problem: 'A profile’s name needs a visible character.' };
  if (name === from) return {};
  const taken = names.find((other) => other !== from && other.toLowerCase() === name.toLowerCase());
  if (taken) return { problem: `A profile is already called “${taken}”.` };
  return { message: renameProfile(from, name) };
}

/** Why profile `name` cannot be deleted from here ('' when it can): the host keeps at least one. */
export const deleteProblem = (names, name) =>
  (names.length < 2 || !names.includes(name) ? 'The last profile cannot be deleted.' : '');

/** The `importProfile` message for a file's text, or a reason it is not sent (too large). */
export function importProfile(text, byteLength = new TextEncoder().encode(text).length) {
  if (byteLength > MAX_PROFILE_FILE_BYTES) return { problem: 'That file is larger than 2 MiB: it is not a profile file.' };
  return { message: { type: 'importProfile', file: text } };
}

/** What a profile key is called when its label is left empty, and what the header says of the deck shown. */
export const profileKeyLabel = (button) => (typeof button?.profile === 'string' ? button.profile : '');
