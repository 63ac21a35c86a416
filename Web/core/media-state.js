// What a media key shows (PROTOCOL §6 "What a media key shows"): the host's latest `mediaState` — the player a
// media key would reach and its status. No `mediaState` yet means no player. DOM-free, so `node --test` checks it.

/** The statuses the host sends; anything else is read as `none`. */
export const MEDIA_STATUSES = ['playing', 'paused', 'stopped', 'none'];

/** Before any `mediaState`: no player. */
export const NO_PLAYER = Object.freeze({ status: 'none', player: '' });

/** A `mediaState` message as a state: an unknown status counts as no player (never a guess at playing). */
export function readMediaState(message) {
  const status = MEDIA_STATUSES.includes(message?.status) ? message.status : 'none';
  if (status === 'none') return NO_PLAYER;
  return { status, player: typeof message.player === 'string' ? message.player : '' };
}

// Each action's mark (drawn by the app as an icon); a play/pause key shows the one its press would do, as players
// do: pause while playing, else play.
const MARKS = { next: 'next', previous: 'previous', stop: 'stop' };
const STATUS_WORDS = { playing: 'Playing', paused: 'Paused', stopped: 'Stopped', none: 'No player' };

/**
 * What a media key looks like in `state`: `look` ('playing', 'paused', 'stopped' or 'idle' when there is no
 * player), the `mark` on its face ('play', 'pause', 'next', 'previous', 'stop'; '' for an action this client does not
 * know), and a `caption` ("Playing · vlc", "No player"). Every media key is idle
 * without a player; only a play/pause key's mark follows the status.
 */
export function mediaLook(button, state = NO_PLAYER) {
  const { status, player } = readMediaState(state);
  const look = status === 'none' ? 'idle' : status;
  const mark = button?.action === 'playPause' ? (status === 'playing' ? 'pause' : 'play') : (MARKS[button?.action] ?? '');
  const caption = status === 'none' || !player ? STATUS_WORDS[status] : `${STATUS_WORDS[status]} · ${player}`;
  return { look, mark, caption };
}
