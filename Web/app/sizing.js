// Keys are sized from the space left, so the page never scrolls (DESIGN.md#client), for the deck's grid
// size (the host's
// `layout.grid`, kept in `app.dataset.grid`), transposed on a portrait screen.
import { gridShape, STANDARD_GRID } from '../core/grids.js';

const GAP = 14;
const KEY_ASPECT = 0.94; // height / width, room for the lip
const TALLEST = 1.5; // portrait keys may be this much taller than wide

/** Picks landscape or portrait, sets --side for the deck and --kside for the keypad; returns landscape. */
export function fitKeys(app) {
  const landscape = innerWidth > innerHeight;
  app.classList.toggle('portrait', !landscape);
  app.classList.toggle('landscape', landscape);
  const area = app.querySelector('.pages');
  const { width, height } = area.getBoundingClientRect();
  fitKeypad(app);
  // A hidden deck (another tab shows) has no size to fit to: it is fitted when it shows again (main.js watches
  // its area), never to a size measured while hidden.
  if (width === 0 || height === 0) return landscape;
  const { columns, rows } = gridShape(app.dataset.grid ?? STANDARD_GRID, landscape);
  app.style.setProperty('--columns', String(columns));
  const byWidth = (width - GAP * (columns - 1)) / columns;
  const byHeight = (height - GAP * (rows - 1)) / rows / KEY_ASPECT;
  const side = Math.max(40, Math.floor(Math.min(byWidth, byHeight)));
  app.style.setProperty('--side', `${side}px`);
  // A narrow portrait screen is width-bound: the keys grow taller (up to 1.5× their width) into the height that
  // would otherwise stay empty below the grid.
  const tallest = Math.floor((height - GAP * (rows - 1)) / rows);
  const keyHeight = landscape ? side * KEY_ASPECT : Math.max(side * KEY_ASPECT, Math.min(tallest, side * TALLEST));
  app.style.setProperty('--key-h', `${keyHeight}px`);
  return landscape;
}

function fitKeypad(app) {
  const views = app.querySelector('.views').getBoundingClientRect();
  const kside = Math.floor(Math.min((views.width - 36) / 4, (views.height - 60) / 5.3, 120));
  app.style.setProperty('--kside', `${Math.max(44, kside)}px`);
}
