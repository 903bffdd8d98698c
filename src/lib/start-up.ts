/**
 * Where a page's scripts leave the start-up they have not finished yet (promises of
 * `inTurns()`, src/lib/turns.browser.ts): the page's starter (functions/platform/page-scripts.ts)
 * marks `<html data-scripts="ran">` once the scripts have loaded and these have settled. A module
 * of its own: the browser's scripts and the Worker share it, and nothing else.
 */
export const PAGE_START_UPS = 'gtsStartUps';
