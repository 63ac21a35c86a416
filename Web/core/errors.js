// The host's errors on the device (PROTOCOL §1, §6): which waiting place an `error` belongs to, and the words a
// person reads. DOM-free, so `node --test` checks both.

/**
 * Whether `error` answers a message of type `request` (one of `requests`). The host names the message it answers
 * in `error.request`; a host that does not yet (older builds) leaves it out, and then `guess()` decides — the
 * caller's own clue, e.g. the file name in the message or "I am the only one waiting".
 */
export function answers(error, requests, guess = () => false) {
  const wanted = Array.isArray(requests) ? requests : [requests];
  if (typeof error?.request === 'string') return wanted.includes(error.request);
  return Boolean(guess());
}

/** "no display has id 7" → "No display has id 7."; already-punctuated text keeps its own end. */
export function sentence(text) {
  const trimmed = String(text ?? '').trim();
  if (!trimmed) return '';
  const first = trimmed[0].toLocaleUpperCase() + trimmed.slice(1);
  return /[.!?…:"”]$/.test(first) ? first : `${first}.`;
}

const BY_CODE = {
  badMessage: 'The computer did not accept that request.',
  unknownType: 'The computer does not know that request: update the TouchDeck host.',
  unavailable: 'The computer cannot do that right now.',
  mustBeSealed: 'The connection was not sealed; it will reconnect.',
  badSeal: 'A message did not arrive intact.',
};

/** The sentence shown for a host error: its own text when it has one, else a line for its code. */
export function describeError(error) {
  return sentence(error?.message) || BY_CODE[error?.code] || 'The computer could not do that.';
}
