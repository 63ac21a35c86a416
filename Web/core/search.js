// App search ranking, the same rule as DeckKit's AppSearch (DESIGN.md#search), checked against
// Tests/Fixtures/rules/search.json. Runs on the device so typing never waits for the host.

const INITIALS = 'ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ';
const FIRST_SYLLABLE = 0xac00;
const LAST_SYLLABLE = 0xd7a3;
// 21 vowels × 28 finals share each initial consonant.
const SYLLABLES_PER_INITIAL = 588;

/** "미리보기" → "ㅁㄹㅂㄱ"; characters that are not Hangul syllables stay as they are. */
export function choseong(text) {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0);
    out += code >= FIRST_SYLLABLE && code <= LAST_SYLLABLE
      ? INITIALS[Math.floor((code - FIRST_SYLLABLE) / SYLLABLES_PER_INITIAL)]
      : ch;
  }
  return out;
}

const isInitialsOnly = (query) => [...query].every((ch) => INITIALS.includes(ch));

// choseong() swaps one UTF-16 unit for one, so an index into the initials is an index into the name.
function locate(app, query) {
  const name = app.name.toLowerCase();
  if (name.startsWith(query)) return { group: 'namePrefix', field: 'name', at: 0 };
  const inside = name.indexOf(query);
  if (inside >= 0) return { group: 'nameContains', field: 'name', at: inside };
  const initials = isInitialsOnly(query) ? choseong(app.name).indexOf(query) : -1;
  if (initials >= 0) return { group: 'initials', field: 'name', at: initials };
  const inId = app.id.toLowerCase().indexOf(query);
  if (inId >= 0) return { group: 'id', field: 'id', at: inId };
  return null;
}

const GROUPS = ['namePrefix', 'nameContains', 'initials', 'id'];

/**
 * Apps matching the query: `{app, group, field, range}`, best group first, catalog order within a group;
 * `range` is [start, end) in UTF-16 units of `app[field]`, for highlighting. A blank query lists every app.
 */
export function search(apps, rawQuery) {
  const query = rawQuery.trim().toLowerCase();
  if (!query) return apps.map((app) => ({ app, group: 'all', field: null, range: null }));
  return apps
    .map((app, order) => ({ app, order, hit: locate(app, query) }))
    .filter(({ hit }) => hit !== null)
    .sort((a, b) => GROUPS.indexOf(a.hit.group) - GROUPS.indexOf(b.hit.group) || a.order - b.order)
    .map(({ app, hit }) => ({ app, group: hit.group, field: hit.field, range: [hit.at, hit.at + query.length] }));
}

const HANGUL = /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7a3]/;

/**
 * The app search field's hint: in the device's language (Korean, else English), mentioning the Hangul initials
 * search (ㅁㅁ finds 메모) only to someone who reads Korean or whose apps have Korean names.
 */
export function searchPlaceholder(languages = [], apps = []) {
  if (String(languages[0] ?? '').toLowerCase().startsWith('ko')) return '앱 검색 (초성: ㅁㅁ → 메모)';
  return apps.some((app) => HANGUL.test(app.name ?? '')) ? 'Search apps (initials: ㅁㅁ finds 메모)' : 'Search apps';
}
