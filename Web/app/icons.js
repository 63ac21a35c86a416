// Small inline SVG icons: emoji glyphs are missing on many desktops and render as boxes.

const svg = (body) => `<svg viewBox="0 0 24 24" width="1em" height="1em" fill="none" stroke="currentColor"
  stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">${body}</svg>`;

const speaker = '<path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor" stroke="none"/>';

export const ICONS = {
  speaker: svg(`${speaker}<path d="M16.5 8.5a5 5 0 0 1 0 7M19 6a8.5 8.5 0 0 1 0 12"/>`),
  muted: svg(`${speaker}<path d="M16 9l6 6M22 9l-6 6"/>`),
  backspace: svg('<path d="M21 5H9l-6 7 6 7h12z"/><path d="M12 9l6 6M18 9l-6 6"/>'),
  enter: svg('<path d="M20 5v7a3 3 0 0 1-3 3H5"/><path d="M9 11l-4 4 4 4"/>'),
  // Media keys' marks (Web/core/media-state.js), filled.
  play: svg('<path d="M7 4.5v15l12-7.5z" fill="currentColor"/>'),
  pause: svg('<path d="M8 5v14M16 5v14" stroke-width="4"/>'),
  next: svg('<path d="M5 5v14l9-7z" fill="currentColor"/><path d="M18 5v14" stroke-width="3"/>'),
  previous: svg('<path d="M19 5v14l-9-7z" fill="currentColor"/><path d="M6 5v14" stroke-width="3"/>'),
  stop: svg('<rect x="6" y="6" width="12" height="12" rx="1.5" fill="currentColor"/>'),
  // A folder's keys (Web/app/deck.js): the folder key's mark and the back key in a folder's first slot.
  folder: svg('<path d="M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z" fill="currentColor" stroke="none"/>'),
  back: svg('<path d="M15 5l-7 7 7 7"/>'),
};
