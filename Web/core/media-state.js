// What a media key and a now-playing tile show (PROTOCOL §6 "What a media key shows"): the host's latest `mediaState`
// — the player a media key would reach, its status and its track. No `mediaState` yet means no player. DOM-free, so
// `node --test` checks it.

/** The statuses the host sends; anything else is read as `none`. */
export const MEDIA_STATUSES = ['playing', 'paused', 'stopped', 'none'];

/** Before any `mediaState`: no player. */
export const NO_PLAYER = Object.freeze({ status: 'none', player: '' });

const TRACK_TEXT = ['title', 'artist', 'album'];

/**
 * A `mediaState` message as a state: an unknown status counts as no player (never a guess at playing). The track's
 * title, artist, album, art (a PNG data URL only), position and length are kept when the host sent them, and
 * `receivedAt` (ms, the caller's clock) when passed, to move the position on while playing.
 */
export function readMediaState(message, receivedAt = 0) {
  const status = MEDIA_STATUSES.includes(message?.status) ? message.status : 'none';
  if (status === 'none') return NO_PLAYER;
  const state = { status, player: typeof message.player === 'string' ? message.player : '' };
  for (const field of TRACK_TEXT) if (typeof message[field] === 'string' && message[field]) state[field] = message[field];
  if (typeof message.art === 'string' && message.art.startsWith('data:image/png;base64,')) state.art = message.art;
  for (const field of ['position', 'length']) {
    if (Number.isFinite(message[field]) && message[field] >= 0) state[field] = message[field];
  }
  if (state.position != null) state.receivedAt = receivedAt;
  return state;
}

/**
 * What a now-playing tile shows at `now` (ms, the clock `receivedAt` came from): `title` (the player's name, or
 * "Nothing playing", when the track has none), `artist`, `art` (a data URL or ''), `look` as a media key's, and
 * `progress` 0…1 (null without a position and length), the position moved on by the time since while playing.
 */
export function nowPlayingLook(state = NO_PLAYER, now = 0) {
  const { status } = state;
  const look = status === 'none' ? 'idle' : status;
  const title = state.title ?? (status === 'none' ? 'Nothing playing' : state.player || STATUS_WORDS[status]);
  let progress = null;
  if (state.position != null && state.length > 0) {
    const moved = status === 'playing' ? Math.max(0, now - (state.receivedAt ?? now)) / 1000 : 0;
    progress = Math.min(1, (state.position + moved) / state.length);
  }
  return { look, title, artist: state.artist ?? '', art: state.art ?? '', progress };
}

// Each action's mark (drawn by the app as an icon); a play/pause key shows the one its press would do, as players
// do: pause while playing, else play.
const MARKS = { next: 'next', previous: 'previous', stop: 'stop' };
const STATUS_WORDS = { playing: 'Playing', paused: 'Paused', stopped: 'Stopped', none: 'No player' };

/**
 * What a media key looks like in `state`: `look` ('playing', 'paused', 'stopped' or 'idle' when there is no
 * player), the `mark` on its face ('play', 'pause', 'next', 'previous', 'stop'; '' for an action this client does not
 * know), and a `caption` ("Playing · vlc", "Paused · Track One" when the host names the track, "No player"). Every
 * media key is idle without a player; only a play/pause key's mark follows the status.
 */
export function mediaLook(button, state = NO_PLAYER) {
  const { status, player, title } = readMediaState(state);
  const look = status === 'none' ? 'idle' : status;
  const mark = button?.action === 'playPause' ? (status === 'playing' ? 'pause' : 'play') : (MARKS[button?.action] ?? '');
  const what = title ?? player;
  const caption = status === 'none' || !what ? STATUS_WORDS[status] : `${STATUS_WORDS[status]} · ${what}`;
  return { look, mark, caption };
}
