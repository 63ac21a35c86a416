// App search ranking, the same rule as DeckKit's AppSearch (SPEC §5), checked against
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

/** Rank of an app for a lowercased, non-empty query: 0 prefix, 1 contains, 2 initials, 3 id; null = no match. */
export function rank(app, query) {
  const name = app.name.toLowerCase();
  if (name.startsWith(query)) return 0;
  if (name.includes(query)) return 1;
  if (isInitialsOnly(query) && choseong(app.name).includes(query)) return 2;
  if (app.id.toLowerCase().includes(query)) return 3;
  return null;
}

/** Apps matching the query, best group first, stable within a group. An empty query lists everything. */
export function search(apps, rawQuery) {
  const query = rawQuery.trim().toLowerCase();
  if (!query) return apps.slice();
  return apps
    .map((app, order) => ({ app, order, rank: rank(app, query) }))
    .filter((hit) => hit.rank !== null)
    .sort((a, b) => a.rank - b.rank || a.order - b.order)
    .map((hit) => hit.app);
}

/** Where the query appears in the name, as [start, end) in UTF-16 units, for highlighting; null if not. */
export function matchRange(name, rawQuery) {
  const query = rawQuery.trim().toLowerCase();
  if (!query) return null;
  let at = name.toLowerCase().indexOf(query);
  if (at < 0 && isInitialsOnly(query)) {
    // choseong() maps each code point to one, so code point positions carry over.
    const points = [...choseong(name)].join('');
    const pointAt = [...points].findIndex((_, i) => [...points].slice(i).join('').startsWith(query));
    if (pointAt < 0) return null;
    at = [...name].slice(0, pointAt).join('').length;
    const end = [...name].slice(0, pointAt + [...query].length).join('').length;
    return [at, end];
  }
  return at < 0 ? null : [at, at + query.length];
}
