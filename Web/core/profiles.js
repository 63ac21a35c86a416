// Profiles (PROTOCOL §6 "Profiles"): named decks. The host keeps them all, the shared current one, and which one
// each device shows; the device only asks to switch, to follow the shared one or keep its own, to add, delete or
// rename one and to import a profile file. DOM-free, so `node --test` checks the messages against
// Tests/Fixtures/messages.

import { cleanName } from './names.js';

/** The largest profile file the host reads (ProfileFile.maxBytes); a larger one is refused here before sending. */
export const MAX_PROFILE_FILE_BYTES = 2 << 20;

/** What a device shows before the host says (a host before profiles sends no `profiles`): one deck. */
export const NO_PROFILES = Object.freeze({ names: [], current: '', shown: '', follows: true, apps: {}, focusProfile: '' });

/** A `profiles` message as the header shows it; anything malformed reads as no profiles. */
export function readProfiles(message) {
  const names = Array.isArray(message?.names) ? message.names.filter((name) => typeof name === 'string') : [];
  if (!names.length) return NO_PROFILES;
  const shown = names.includes(message.shown) ? message.shown : names[0];
  const current = names.includes(message.current) ? message.current : shown;
  const apps = {};
  for (const [name, list] of Object.entries(message.apps ?? {})) {
    if (names.includes(name) && Array.isArray(list)) apps[name] = list.filter((app) => typeof app === 'string');
  }
  const focusProfile = names.includes(message.focusProfile) ? message.focusProfile : '';
  return { names, current, shown, follows: message.follows !== false, apps, focusProfile };
}

/** The apps a profile may name at most, and the longest name (ProfileApps on the host). */
export const MAX_PROFILE_APPS = 16;
export const MAX_APP_NAME = 128;

export const setProfileApps = (name, apps) => ({ type: 'setProfileApps', name, apps });

/**
 * What setting the apps profile `name` is for from the text typed (names separated by commas or spaces: desktop
 * entry ids, X11 WM_CLASS names, Wayland app ids) sends: `{ message }`, `{ problem }`, or `{}` when cancelled or
 * unchanged. An empty text clears the list.
 */
export function appsRequest(name, before, typed) {
  if (typed == null) return {};
  const apps = [];
  for (const app of typed.split(/[\s,]+/).filter(Boolean)) {
    if (app.length > MAX_APP_NAME) return { problem: `An app name is at most ${MAX_APP_NAME} characters.` };
    if (!apps.some((other) => other.toLowerCase() === app.toLowerCase())) apps.push(app);
  }
  if (apps.length > MAX_PROFILE_APPS) return { problem: `A profile names at most ${MAX_PROFILE_APPS} apps.` };
  if (apps.join('\n') === (before ?? []).join('\n')) return {};
  return { message: setProfileApps(name, apps) };
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
