// Keys are sized from the space left, so the page never scrolls (SPEC §6).

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
  const columns = landscape ? 4 : 3;
  const rows = landscape ? 3 : 4;
  const byWidth = (width - GAP * (columns - 1)) / columns;
  const byHeight = (height - GAP * (rows - 1)) / rows / KEY_ASPECT;
  const side = Math.max(40, Math.floor(Math.min(byWidth, byHeight)));
  app.style.setProperty('--side', `${side}px`);
  // A narrow portrait screen is width-bound: the keys grow taller (up to 1.5× their width) into the height that
  // would otherwise stay empty below the grid.
  const tallest = Math.floor((height - GAP * (rows - 1)) / rows);
  const keyHeight = landscape ? side * KEY_ASPECT : Math.max(side * KEY_ASPECT, Math.min(tallest, side * TALLEST));
  app.style.setProperty('--key-h', `${keyHeight}px`);
  const views = app.querySelector('.views').getBoundingClientRect();
  const kside = Math.floor(Math.min((views.width - 36) / 4, (views.height - 60) / 5.3, 120));
  app.style.setProperty('--kside', `${Math.max(44, kside)}px`);
  return landscape;
}
