import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiRequestError } from '../../lib/api-client.browser.ts';
import { onReconnect } from '../pwa/connection.browser.ts';
import { fetchProductPage } from './api-client.browser.ts';
import { type ListingErrors, type ListingField, listingHref, readListing } from './listing.ts';
import type { Product } from './product.ts';
import { DEFAULT_QUERY, defaultSort, type ProductPage, type ProductQuery } from './search.ts';

export type SearchStatus = 'idle' | 'loading' | 'error';

/** Why the last request failed, in the API's words when it answered; the results shown are then the last good ones. */
export interface SearchFailure {
  message: string;
  /** The API refused the query (4xx): retrying the same will not help. */
  refused: boolean;
}

/** Where the listing starts: what the Worker rendered (listing.server.ts), so hydration shows the same. */
export interface ListingStart {
  /** The query of the URL; `page` is how many pages are shown. */
  query: ProductQuery;
  /** Parameters of the URL that were left out, and why. */
  errors: ListingErrors;
}

/**
 * What the shopper typed into the search box before the island hydrated (client:idle): read
 * during the first client render, before React sets the field back to the server's text.
 */
function searchTypedBeforeHydration(serverText: string): string {
  if (typeof document === 'undefined') return serverText;
  return document.querySelector<HTMLInputElement>('#product-search')?.value.trim() ?? serverText;
}

/** Pages 1 to `query.page` of a query as one list (the listing's URL shows that many). */
async function fetchPages(query: ProductQuery, signal: AbortSignal): Promise<ProductPage> {
  const numbers = Array.from({ length: Math.max(1, query.page) }, (_, i) => i + 1);
  const answers = await Promise.all(numbers.map((page) => fetchProductPage({ ...query, page }, signal)));
  const last = answers[answers.length - 1]!;
  return { ...last, items: answers.flatMap((a) => a.items), page: Math.min(query.page, last.pageCount) };
}

/** What the listing says when a request fails: the API's own message when it refused, the connection only when there was no answer. */
function failureOf(error: unknown): { failure: SearchFailure; fields: ListingErrors } {
  if (error instanceof ApiRequestError && error.status >= 400 && error.status < 500) {
    const fields: ListingErrors = {};
    for (const issue of error.issues) {
      const field = issue.field.split('.')[0] as ListingField;
      fields[field] ??= issue.message;
    }
    return { failure: { message: error.message, refused: true }, fields };
  }
  if (error instanceof ApiRequestError && error.status === 0) {
    return {
      failure: { message: 'We could not reach the store. Check your connection and try again.', refused: false },
      fields: {},
    };
  }
  const status = error instanceof ApiRequestError ? ` (the server answered ${error.status})` : '';
  return {
    failure: { message: `The store could not load products just now${status}. Please try again.`, refused: false },
    fields: {},
  };
}

/**
 * The product browser's query and results. They start as the Worker rendered them; the
 * filters live in the URL (/products?category=phones), each change a history entry of its
 * own (Back undoes it; the island reads the URL again), the number of pages shown too (kept
 * on Back, replaced rather than added). Every change fetches from D1 (cancelling the answer
 * still under way); the search box applies once typing pauses.
 */
export function useProductSearch(initial: ProductPage, start: ListingStart) {
  const [typedEarly] = useState(() => searchTypedBeforeHydration(start.query.q));
  const [query, setQuery] = useState<ProductQuery>(start.query);
  const [items, setItems] = useState<Product[]>(initial.items);
  const [page, setPage] = useState({
    page: start.query.page,
    total: initial.total,
    brands: initial.brands,
    didYouMean: initial.didYouMean,
  });
  const [status, setStatus] = useState<SearchStatus>('idle');
  const [failure, setFailure] = useState<SearchFailure | null>(null);
  const [fieldErrors, setFieldErrors] = useState<ListingErrors>(start.errors);
  const [searchText, setSearchText] = useState(start.query.q);
  /** The index of the first product a Load More brought, until it has been focused. */
  const [firstNew, setFirstNew] = useState<number | null>(null);
  const request = useRef<AbortController | null>(null);
  const current = useRef(query);
  current.current = query;
  /** The last history entry came from typing: the next pause in the same search replaces it. */
  const typing = useRef(false);

  const shown = useRef(items.length);
  shown.current = items.length;

  const load = useCallback(async (next: ProductQuery, mode: 'replace' | 'append') => {
    request.current?.abort();
    const controller = new AbortController();
    request.current = controller;
    setStatus('loading');
    try {
      if (mode === 'append') {
        const result = await fetchProductPage(next, controller.signal);
        setFirstNew(result.items.length ? shown.current : null);
        setItems((before) => [...before, ...result.items]);
        setPage({ page: result.page, total: result.total, brands: result.brands, didYouMean: result.didYouMean });
        // The URL says how many pages are shown, so Back (or a reload) shows as many.
        window.history.replaceState(window.history.state, '', listingHref(next));
      } else {
        const result = await fetchPages(next, controller.signal);
        setItems(result.items);
        setPage({ page: result.page, total: result.total, brands: result.brands, didYouMean: result.didYouMean });
      }
      setStatus('idle');
      setFailure(null);
    } catch (error) {
      if (controller.signal.aborted) return;
      const { failure: why, fields } = failureOf(error);
      setStatus('error');
      setFailure(why);
      setFieldErrors(fields);
    }
  }, []);

  // The URL changed under the island (Back, Forward): show what it says.
  useEffect(() => {
    const onPop = () => {
      const listing = readListing(window.location.search);
      typing.current = false;
      setQuery(listing.query);
      setSearchText(listing.query.q);
      setFieldErrors(listing.errors);
      void load(listing.query, 'replace');
    };
    window.addEventListener('popstate', onPop);
    // Back online, the listing shows live prices again.
    const stopReconnect = onReconnect(() => void load(current.current, 'replace'));
    return () => {
      window.removeEventListener('popstate', onPop);
      stopReconnect();
    };
  }, [load]);

  /**
   * Changes the filters (back to one page), records them as a new history entry and fetches.
   * `typing`: the search box's own change; one search typed in several pauses is one entry.
   */
  const apply = useCallback(
    (change: Partial<ProductQuery>, { fromTyping = false } = {}) => {
      const before = current.current;
      const next = { ...before, ...change, page: 1 };
      // A new search is ranked by relevance unless the shopper picked another order.
      if (change.q !== undefined && change.sort === undefined && before.sort === defaultSort(before.q)) {
        next.sort = defaultSort(next.q);
      }
      const href = listingHref(next);
      if (href === listingHref(before)) return;
      if (fromTyping && typing.current) window.history.replaceState(null, '', href);
      else window.history.pushState(null, '', href);
      typing.current = fromTyping;
      current.current = next;
      setQuery(next);
      setFieldErrors({});
      void load(next, 'replace');
    },
    [load],
  );

  // The text typed before hydration, if it differs from the URL's, is searched for at once.
  useEffect(() => {
    if (typedEarly !== start.query.q) setSearchText(typedEarly);
  }, [typedEarly, start.query.q]);

  // Search as the shopper types, once they pause.
  useEffect(() => {
    if (searchText.trim() === current.current.q) return;
    const timer = setTimeout(() => apply({ q: searchText.trim() }, { fromTyping: true }), 300);
    return () => clearTimeout(timer);
  }, [searchText, apply]);

  const loadMore = () => {
    void load({ ...query, page: page.page + 1 }, 'append');
  };

  /** Applies the search box now (Enter, the form's submit). */
  const submitSearch = () => {
    typing.current = false;
    apply({ q: searchText.trim() });
  };

  const clearSearch = () => {
    setSearchText('');
    apply({ q: '' });
  };

  /** Every filter and the search back to the defaults; the sort order stays. */
  const clearAll = () => {
    setSearchText('');
    apply({ ...DEFAULT_QUERY, sort: query.sort === 'relevance' ? DEFAULT_QUERY.sort : query.sort });
  };

  /** The first new product has had focus: later renders leave focus alone. */
  const focusedNew = useCallback(() => setFirstNew(null), []);

  return {
    query,
    items,
    page,
    status,
    failure,
    fieldErrors,
    firstNew,
    focusedNew,
    searchText,
    setSearchText,
    apply,
    submitSearch,
    loadMore,
    clearSearch,
    clearAll,
  };
}
