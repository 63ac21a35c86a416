// The app picker (DESIGN.md#search, #client): a fixed search field above a list that renders only the visible rows.
import { search } from '../core/search.js';

const ROW_HEIGHT = 52;
const OVERSCAN = 6;

export class AppPicker {
  /** `placeholder(apps)`: the search field's hint for this catalog (Web/core/search.js searchPlaceholder). */
  constructor(dialog, { requestApps, placeholder = () => 'Search apps' }) {
    this.placeholder = placeholder;
    this.dialog = dialog;
    this.field = dialog.querySelector('#app-search');
    this.count = dialog.querySelector('#app-count');
    this.list = dialog.querySelector('#app-list');
    this.inner = dialog.querySelector('.app-list-inner');
    this.requestApps = requestApps;
    this.apps = [];
    this.results = [];
    this.resolve = null;
    this.field.addEventListener('input', () => this.#filter());
    this.field.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && this.results.length === 1) this.#choose(this.results[0].app);
    });
    this.list.addEventListener('scroll', () => this.#renderRows());
    dialog.querySelector('#picker-cancel').addEventListener('click', () => this.#choose(null));
    dialog.addEventListener('close', () => this.#choose(null));
  }

  /** Shows the picker; resolves with the chosen app or null. The field is not focused on open. */
  pick() {
    this.field.value = '';
    this.dialog.showModal();
    this.field.blur();
    this.list.scrollTop = 0;
    this.#filter();
    this.requestApps();
    return new Promise((resolve) => { this.resolve = resolve; });
  }

  setApps(apps) {
    this.apps = apps;
    this.field.placeholder = this.placeholder(apps);
    if (this.dialog.open) this.#filter();
  }

  #choose(app) {
    const resolve = this.resolve;
    this.resolve = null;
    if (this.dialog.open) this.dialog.close();
    resolve?.(app);
  }

  #filter() {
    this.results = search(this.apps, this.field.value);
    const n = this.results.length;
    this.count.textContent = this.apps.length === 0 ? 'Loading apps…' : `${n} ${n === 1 ? 'app' : 'apps'}`;
    this.inner.style.height = `${n * ROW_HEIGHT}px`;
    this.#renderRows();
  }

  #renderRows() {
    const top = this.list.scrollTop;
    const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(this.results.length, Math.ceil((top + this.list.clientHeight) / ROW_HEIGHT) + OVERSCAN);
    const rows = [];
    for (let i = first; i < last; i++) rows.push(this.#row(this.results[i], i));
    this.inner.replaceChildren(...rows);
  }

  #row({ app, field, range }, i) {
    const row = document.createElement('button');
    row.type = 'button';
    row.className = 'app-row';
    row.setAttribute('role', 'option');
    row.style.top = `${i * ROW_HEIGHT}px`;
    row.dataset.appId = app.id;
    const icon = document.createElement(app.icon ? 'img' : 'span');
    if (app.icon) { icon.src = app.icon; icon.alt = ''; } else icon.className = 'no-icon';
    const text = document.createElement('span');
    text.append(highlighted(app.name, field === 'name' ? range : null));
    const id = document.createElement('span');
    id.className = 'id';
    id.append(highlighted(app.id, field === 'id' ? range : null));
    text.append(id);
    row.append(icon, text);
    row.addEventListener('click', () => this.#choose(app));
    return row;
  }
}

function highlighted(name, range) {
  const out = document.createElement('span');
  out.className = 'name';
  if (!range) {
    out.textContent = name;
    return out;
  }
  const mark = document.createElement('mark');
  mark.textContent = name.slice(range[0], range[1]);
  out.append(name.slice(0, range[0]), mark, name.slice(range[1]));
  return out;
}
