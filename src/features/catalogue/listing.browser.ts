import { parsePage } from '../../lib/html-page.browser.ts';
import { onReconnect } from '../pwa/connection.browser.ts';
import { formatNairaText, parseNairaText, priceRangeProblem } from './price-text.ts';

/**
 * /products, made to act in place by a plain script (docs/decisions/004-plain-scripts.md). The
 * Worker renders the listing for its URL, with every control working without JavaScript
 * (ProductBrowser.tsx): a GET form (search, sort, filters), links (chips, Clear All, Load More,
 * "Did you mean", departments) and Add to Cart forms (cart/add-forms.browser.ts). This script
 * keeps that HTML and that one rendering: a change asks the Worker for the listing of the new
 * URL and puts its results in the page, so the cards are always the Worker's HTML.
 *
 * - Each filter, sort or search change is a history entry of its own (Back undoes it); a search
 *   typed in several pauses is one entry; Load More replaces the entry (the URL says how many
 *   pages are shown). Back and Forward show what the URL says.
 * - The search box applies once typing pauses (300 ms) or on Enter; the price boxes when left or
 *   on Enter, after checking the range here (the max below the min is said at the box, and
 *   nothing is sent).
 * - A request still under way when the next starts is cancelled. While one is under way the
 *   count says "updating…". If it fails, the last results stay, marked, with the reason; if the
 *   Worker left out what was typed (a search it refuses), its message shows at the field and the
 *   last results stay.
 * - Focus stays where it was (the same checkbox or box after the results change); after Load
 *   More it moves to the first new product.
 * - Back online, the listing is asked for again (live prices).
 * - What the shopper typed or chose before this script ran is applied when it starts. The
 *   listing says it is ready with `data-ready`.
 */

const COUNT_ID = 'search-count';
const PROBLEM_ID = 'search-problem';

const isInput = (element: unknown): element is HTMLInputElement => element instanceof HTMLInputElement;
const isSelect = (element: unknown): element is HTMLSelectElement => element instanceof HTMLSelectElement;

/**
 * Puts `node` right after `anchor`. Not `after()`/`append()`: the Worker's types (HTMLRewriter's
 * Element, which astro check also loads) overload them to take only text.
 */
function insertAfter(anchor: Node | null | undefined, node: Node) {
  anchor?.parentNode?.insertBefore(node, anchor.nextSibling);
}

/** The path and query of a URL (the listing's history entries never keep a #fragment). */
const here = (url: URL | Location) => `${url.pathname}${url.search}`;

function listing(root: HTMLElement) {
  const form = root.querySelector('form[data-listing-form]');
  const search = form?.querySelector('input[name="q"]');
  /** The search the results are for (the form's `sortFor`). */
  const marker = form?.querySelector('input[data-search-shown]');
  if (!(form instanceof HTMLFormElement) || !isInput(search) || !isInput(marker)) return;
  const countFrom = Number(search.dataset.countFrom);
  const maxLength = Number(search.dataset.maxLength);

  let request: AbortController | null = null;
  /** The last history entry came from typing: the next pause in the same search replaces it. */
  let typingEntry = false;
  let typingTimer: ReturnType<typeof setTimeout> | undefined;
  let filtersOpen = window.matchMedia('(min-width: 960px)').matches || window.location.hash === '#filter-panel';

  /** The form as the listing's URL (the Worker answers a form's URL with a redirect to the short one). */
  const formHref = () => {
    const params = new URLSearchParams();
    for (const [name, value] of new FormData(form)) if (typeof value === 'string') params.append(name, value);
    return `/products?${params}`;
  };

  const layout = () => root.querySelector<HTMLElement>('.browser__layout');
  const results = () => root.querySelector<HTMLElement>('.browser__results');

  /** Links that act in place become buttons (they no longer go anywhere); the panel follows its toggle. */
  const enhance = () => {
    for (const link of root.querySelectorAll<HTMLAnchorElement>('a[data-in-place], a[data-filters-toggle]')) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = link.className;
      for (const name of ['aria-label', 'data-in-place', 'data-filters-toggle']) {
        const value = link.getAttribute(name);
        if (value !== null) button.setAttribute(name, value);
      }
      button.dataset.href = link.getAttribute('href') ?? '';
      if (link.hasAttribute('data-filters-toggle')) button.setAttribute('aria-controls', 'filter-panel');
      while (link.firstChild) button.appendChild(link.firstChild);
      link.replaceWith(button);
    }
    for (const apply of root.querySelectorAll<HTMLElement>('[data-apply-filters]')) apply.hidden = true;
    showFilters();
  };
  const showFilters = () => {
    const panel = root.querySelector<HTMLElement>('#filter-panel');
    if (panel) panel.dataset.open = String(filtersOpen);
    root.querySelector('button[data-filters-toggle]')?.setAttribute('aria-expanded', String(filtersOpen));
  };

  const busy = (on: boolean) => {
    const count = root.querySelector('#results-count');
    count?.querySelector('[data-updating]')?.remove();
    if (on && count) {
      const note = document.createElement('span');
      note.className = 'muted';
      note.dataset.updating = '';
      note.textContent = ' · updating…';
      count.appendChild(note);
    }
    root.querySelector('.grid-products')?.setAttribute('aria-busy', String(on));
  };

  /** The last results stay, marked as not the answer to what is asked now, with why. */
  const failed = (message: string | null, note: string) => {
    busy(false);
    for (const more of root.querySelectorAll<HTMLButtonElement>('button[data-in-place="load-more"]')) more.disabled = false;
    root.querySelector('.browser__failure')?.remove();
    const grid = root.querySelector('.grid-products');
    grid?.setAttribute('data-stale', '');
    const box = document.createElement('div');
    box.className = 'browser__failure';
    box.setAttribute('role', 'alert');
    if (message) {
      const text = document.createElement('p');
      text.className = 'field-error';
      text.textContent = message;
      box.appendChild(text);
    }
    if (grid) {
      const muted = document.createElement('p');
      muted.className = 'muted';
      muted.textContent = note;
      box.appendChild(muted);
    }
    insertAfter(results()?.querySelector('.browser__status'), box);
  };

  /** The search box's problem or character count, as the Worker said it (`from`) or as typed. */
  const showSearchNote = (from?: Element) => {
    for (const id of [COUNT_ID, PROBLEM_ID]) root.querySelector(`#${id}`)?.remove();
    const problem = from?.querySelector(`#${PROBLEM_ID}`);
    let note: Element | null = null;
    if (problem) note = document.importNode(problem, true);
    else if (search.value.length > countFrom) {
      note = document.createElement('p');
      note.id = COUNT_ID;
      note.className = 'muted browser__count';
      note.textContent = `${search.value.length} of ${maxLength} characters`;
    }
    if (note) insertAfter(search, note);
    if (problem) search.setAttribute('aria-invalid', 'true');
    else search.removeAttribute('aria-invalid');
    if (note) search.setAttribute('aria-describedby', note.id);
    else search.removeAttribute('aria-describedby');
  };

  /** What has focus, as something the new results have too: its id, or a checkbox's name and value. */
  const focusKey = (): string | null => {
    const active = document.activeElement;
    if (!(active instanceof HTMLElement) || !layout()?.contains(active)) return null;
    if (isInput(active) && active.type === 'checkbox') return `input[name="${active.name}"][value="${CSS.escape(active.value)}"]`;
    if (isInput(active) && active.name) return `input[name="${active.name}"]`;
    return active.id ? `#${CSS.escape(active.id)}` : null;
  };

  /** The Worker's listing for `incoming`'s URL, put in this page. */
  const show = (incoming: Element, page: DocumentFragment, focusFrom: number | undefined) => {
    const nextSearch = incoming.querySelector('input[name="q"]');
    const nextSort = incoming.querySelector('select[name="sort"]');
    const nextMarker = incoming.querySelector('input[data-search-shown]');
    const nextLayout = incoming.querySelector('.browser__layout');
    const sort = form.querySelector('select[name="sort"]');
    // The shopper may be typing: the box keeps what is in it until they leave it.
    if (isInput(nextSearch) && document.activeElement !== search) search.value = nextSearch.value;
    if (isSelect(sort) && isSelect(nextSort)) {
      sort.replaceChildren(...[...nextSort.options].map((option) => document.importNode(option, true)));
      sort.value = nextSort.value;
    }
    if (isInput(nextMarker)) marker.value = nextMarker.value;
    showSearchNote(incoming);
    const focused = focusKey();
    // The shopper may be typing in a price box (the other one's change brought these results):
    // like the search box, it keeps what is in it, and the caret, until they leave it.
    const active = document.activeElement;
    const typed = isInput(active) && active.dataset.priceBox ? { value: active.value, at: active.selectionStart } : null;
    if (nextLayout) layout()?.replaceWith(document.importNode(nextLayout, true));
    enhance();
    const again = focused ? root.querySelector<HTMLElement>(focused) : null;
    if (typed && isInput(again)) again.value = typed.value;
    again?.focus({ preventScroll: true });
    // After the focus, which would put the caret back at the start.
    if (typed?.at != null && isInput(again)) again.setSelectionRange(typed.at, typed.at);
    if (focusFrom !== undefined) {
      const card = root.querySelectorAll('[data-product-id]')[focusFrom];
      card?.querySelector<HTMLAnchorElement>('.product-card__name a')?.focus();
    }
    // Titled and canonical by what it shows, as the Worker titled it.
    const title = page.querySelector('title')?.textContent;
    if (title) document.title = title;
    const canonical = page.querySelector('link[rel="canonical"]')?.getAttribute('href');
    if (canonical) document.querySelector('link[rel="canonical"]')?.setAttribute('href', canonical);
    const heading = page.querySelector('.page-head h1')?.textContent;
    const h1 = document.querySelector('.page-head h1');
    if (heading && h1) h1.textContent = heading;
  };

  /**
   * Shows the listing of `href`: `push` a new history entry, `replace` this one, or `none` (the
   * URL is already it: Back, Forward, back online).
   */
  const go = async (
    href: string,
    history: 'push' | 'replace' | 'none',
    { focusFrom, typing = false }: { focusFrom?: number; typing?: boolean } = {},
  ) => {
    request?.abort();
    const controller = new AbortController();
    request = controller;
    busy(true);
    let response: Response;
    let page: DocumentFragment;
    try {
      response = await fetch(href, { headers: { accept: 'text/html' }, signal: controller.signal });
      page = parsePage(await response.text());
    } catch {
      if (!controller.signal.aborted)
        failed('We could not reach the store. Check your connection and try again.', 'The products below may be out of date.');
      return;
    }
    if (controller !== request) return;
    const incoming = page.querySelector('[data-listing]');
    if (!response.ok || !incoming) {
      failed(
        `The store could not load products just now (the server answered ${response.status}). Please try again.`,
        'The products below may be out of date.',
      );
      return;
    }
    // The Worker left the search out (too long, say): its reason at the box, the last results kept.
    if (incoming.querySelector(`#${PROBLEM_ID}`)) {
      showSearchNote(incoming);
      failed(null, 'The products below are from your previous search.');
      return;
    }
    const url = new URL(response.url || href, window.location.href);
    if (history === 'push') window.history.pushState(null, '', here(url));
    else if (history === 'replace') window.history.replaceState(window.history.state, '', here(url));
    // Only an entry typing has actually made is replaced by the next pause (not one a cancelled request never made).
    typingEntry = typing && history !== 'none';
    show(incoming, page, focusFrom);
  };

  /** A filter change from the form: a history entry of its own. */
  const applyForm = () => {
    clearTimeout(typingTimer);
    typingEntry = false;
    void go(formHref(), 'push');
  };

  /** Reads a price box; applies the range when it changed and can be searched, says why at the box otherwise. */
  const commitPrice = (edited: HTMLInputElement) => {
    const boxes = [...root.querySelectorAll('input[data-price-box]')].filter(isInput);
    const [min, max] = ['min', 'max'].map((which) => boxes.find((b) => b.dataset.priceBox === which));
    if (!min || !max) return;
    const problemAt = (box: HTMLInputElement | null, message = '') => {
      root.querySelector('#price-problem')?.remove();
      for (const b of boxes) {
        b.removeAttribute('aria-invalid');
        b.removeAttribute('aria-describedby');
      }
      if (!box) return;
      const problem = document.createElement('p');
      problem.id = 'price-problem';
      problem.className = 'field-error';
      problem.setAttribute('role', 'alert');
      problem.textContent = message;
      insertAfter(box.closest('.price-range'), problem);
      box.setAttribute('aria-invalid', 'true');
      for (const b of boxes) b.setAttribute('aria-describedby', 'price-problem');
    };
    const [low, high] = [parseNairaText(min.value), parseNairaText(max.value)];
    if (low.ok) min.value = low.naira === null ? '' : formatNairaText(low.naira);
    if (high.ok) max.value = high.naira === null ? '' : formatNairaText(high.naira);
    if (!low.ok) return problemAt(min, low.message);
    if (!high.ok) return problemAt(max, high.message);
    const range = [low.naira ?? Number(min.dataset.openEnd), high.naira ?? Number(max.dataset.openEnd)] as const;
    // Said at the box, never swapped or clamped: the shopper decides which end was meant.
    const inverted = priceRangeProblem(...range);
    if (inverted) return problemAt(edited, inverted);
    problemAt(null);
    if (range[0] !== Number(min.dataset.applied) || range[1] !== Number(max.dataset.applied)) applyForm();
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    applyForm();
  });
  root.addEventListener('change', (event) => {
    const target = event.target;
    if ((isInput(target) && target.type === 'checkbox') || (isSelect(target) && target.name === 'sort')) applyForm();
  });
  root.addEventListener('focusout', (event) => {
    if (isInput(event.target) && event.target.dataset.priceBox) commitPrice(event.target);
  });
  root.addEventListener('keydown', (event) => {
    // Enter in a price box would send the form as it is: check the range first.
    if (event.key === 'Enter' && isInput(event.target) && event.target.dataset.priceBox) {
      event.preventDefault();
      commitPrice(event.target);
    }
  });
  search.addEventListener('input', () => {
    showSearchNote();
    clearTimeout(typingTimer);
    typingTimer = setTimeout(() => {
      if (search.value.trim() !== marker.value) void go(formHref(), typingEntry ? 'replace' : 'push', { typing: true });
    }, 300);
  });
  root.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const target = event.target instanceof Element ? event.target : null;
    const button = target?.closest<HTMLButtonElement>('button[data-href]');
    if (button?.hasAttribute('data-filters-toggle')) {
      filtersOpen = !filtersOpen;
      showFilters();
      return;
    }
    if (button?.dataset.inPlace === 'load-more') {
      const url = new URL(button.dataset.href ?? '', window.location.href);
      const first = Number(/^#item-(\d+)$/.exec(url.hash)?.[1] ?? 0) - 1;
      button.disabled = true;
      void go(here(url), 'replace', first >= 0 ? { focusFrom: first } : {});
      return;
    }
    // A chip, Clear All, "Did you mean", a department: another listing, in place.
    const link = button ? null : target?.closest<HTMLAnchorElement>('a[href]');
    const href = button?.dataset.href ?? link?.getAttribute('href');
    if (!href) return;
    const url = new URL(href, window.location.href);
    if (url.origin !== window.location.origin || url.pathname !== '/products') return;
    event.preventDefault();
    clearTimeout(typingTimer);
    typingEntry = false;
    if (button) search.value = new URLSearchParams(url.search).get('q') ?? '';
    void go(here(url), 'push');
  });
  window.addEventListener('popstate', () => {
    clearTimeout(typingTimer);
    typingEntry = false;
    search.value = new URLSearchParams(window.location.search).get('q') ?? '';
    void go(here(window.location), 'none');
  });
  onReconnect(() => void go(here(window.location), 'none'));

  enhance();
  root.setAttribute('data-ready', '');
  // Typed or chosen before this script ran (a slow link): applied at once.
  if (search.value.trim() !== marker.value) void go(formHref(), 'push', { typing: true });
  else if (changedBeforeReady(form)) applyForm();
}

/** A sort, checkbox or price box the shopper changed before the script ran (what the Worker rendered is each one's default). */
function changedBeforeReady(form: HTMLFormElement): boolean {
  return [...form.elements].some((element) => {
    if (isSelect(element)) return [...element.options].some((option) => option.selected !== option.defaultSelected);
    if (!isInput(element) || element.name === 'q' || element.type === 'hidden') return false;
    return element.type === 'checkbox' ? element.checked !== element.defaultChecked : element.value !== element.defaultValue;
  });
}

const root = document.querySelector('[data-listing]');
if (root instanceof HTMLElement) listing(root);
