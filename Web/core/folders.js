// Folders and page keys (PROTOCOL §6 "Folders and pages"), as DeckKit's DeckLayout+Folders and PageTurn have them:
// how deep folders nest, which folder a path names, and where a page key turns. The device opens folders and turns
// pages itself, so it needs these; the host checks every edit again. Run against Tests/Fixtures/rules/folders.json.

/** Folders inside folders at most (DeckLayout.maxFolderDepth); a folder on the deck is 1 deep. */
export const MAX_FOLDER_DEPTH = 4;

const folderPages = (button) => (button?.kind === 'folder' && Array.isArray(button.pages) ? button.pages : null);

/** How many folders deep a button reaches: 0 for a key, 1 for a folder of keys, … */
export function folderDepth(button) {
  const pages = folderPages(button);
  if (!pages) return 0;
  return 1 + Math.max(0, ...pages.flat().map(folderDepth));
}

/** The pages of the deck and of every folder in it, however deep (DeckLayout.pageCount: the 100-page limit). */
export function pageCount(pages) {
  return pages.length + pages.flat().reduce((sum, button) => sum + (folderPages(button) ? pageCount(button.pages) : 0), 0);
}

/** Every button of the deck and of its folders, however deep. */
export function allButtons(pages) {
  return pages.flat().filter(Boolean).flatMap((button) => [button, ...(folderPages(button) ? allButtons(button.pages) : [])]);
}

/** The pages of the folder at `path` (a list of {page, index} of folder keys from the deck down), or null. */
export function pagesAt(pages, path = []) {
  let at = pages;
  for (const { page, index } of path) {
    const inner = folderPages(at?.[page]?.[index]);
    if (!inner) return null;
    at = inner;
  }
  return at;
}

/** Whether a folder may be made in the folder at `path` (the deck for []): it would be path.length + 1 deep. */
export const mayAddFolder = (path) => path.length + 1 <= MAX_FOLDER_DEPTH;

/**
 * The page a page key shows (PageTurn.destination): next and previous go round the pages that hold keys (the
 * always-empty last page is skipped); a numbered page is null when it is not one of them.
 */
export function turnPage(button, current, pageCount) {
  const shown = Math.max(1, pageCount - 1);
  switch (button?.go) {
    case 'next': return current + 1 < shown ? current + 1 : 0;
    case 'previous': return current > 0 && current <= shown ? current - 1 : shown - 1;
    case 'page': return Number.isInteger(button.page) && button.page >= 0 && button.page < shown ? button.page : null;
    default: return null;
  }
}

/** What a page key says it does: "Next page", "Previous page", "Page 3". */
export function pageTurnName(button) {
  if (button?.go === 'next') return 'Next page';
  if (button?.go === 'previous') return 'Previous page';
  return Number.isInteger(button?.page) ? `Page ${button.page + 1}` : '';
}
