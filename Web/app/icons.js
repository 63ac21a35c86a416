// Small inline SVG icons: emoji glyphs are missing on many desktops and render as boxes.

const svg = (body) => `<svg viewBox="0 0 24 24" width="1em" height="1em" fill="none" stroke="currentColor"
  stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">${body}</svg>`;

const speaker = '<path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor" stroke="none"/>';

export const ICONS = {
  speaker: svg(`${speaker}<path d="M16.5 8.5a5 5 0 0 1 0 7M19 6a8.5 8.5 0 0 1 0 12"/>`),
  muted: svg(`${speaker}<path d="M16 9l6 6M22 9l-6 6"/>`),
  backspace: svg('<path d="M21 5H9l-6 7 6 7h12z"/><path d="M12 9l6 6M18 9l-6 6"/>'),
  enter: svg('<path d="M20 5v7a3 3 0 0 1-3 3H5"/><path d="M9 11l-4 4 4 4"/>'),
};
