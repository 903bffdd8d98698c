import { useCallback, useEffect, useRef, useState } from 'react';
import { onReconnect } from '../pwa/connection.browser.ts';
import { fetchProductPage } from './api-client.browser.ts';
import type { Product } from './product.ts';
import {
  DEFAULT_QUERY,
  defaultSort,
  parseProductQuery,
  productQueryToParams,
  type ProductPage,
  type ProductQuery,
} from './search.ts';

export type SearchStatus = 'idle' | 'loading' | 'error';

function queryFromLocation(): ProductQuery {
  const parsed = parseProductQuery(new URLSearchParams(window.location.search));
  // A hand-edited URL with a bad parameter falls back to the defaults rather than failing.
  return parsed.success ? { ...parsed.data, page: 1 } : DEFAULT_QUERY;
}

/**
 * What the shopper typed into the pre-rendered search box before the island hydrated
 * (client:idle): read during the first client render, before React resets the field.
 */
function searchTypedBeforeHydration(): string {
  if (typeof document === 'undefined') return '';
  return document.querySelector<HTMLInputElement>('#product-search')?.value.trim() ?? '';
}

/**
 * The product browser's query and results: the filters live in the URL (?category=phones,
 * replaced as they change, back/forward restore them), every change fetches from D1
 * (cancelling the answer still under way), and the search box applies once typing pauses.
 * Until the first answer the build-time page `initial` shows.
 */
export function useProductSearch(initial: ProductPage) {
  const [typedEarly] = useState(searchTypedBeforeHydration);
  const [query, setQuery] = useState<ProductQuery>(DEFAULT_QUERY);
  const [items, setItems] = useState<Product[]>(initial.items);
  const [page, setPage] = useState({ page: initial.page, total: initial.total, brands: initial.brands });
  const [status, setStatus] = useState<SearchStatus>('idle');
  const [searchText, setSearchText] = useState('');
  const request = useRef<AbortController | null>(null);

  const load = useCallback(async (next: ProductQuery, append: boolean) => {
    request.current?.abort();
    const controller = new AbortController();
    request.current = controller;
    setStatus('loading');
    try {
      const result = await fetchProductPage(next, controller.signal);
      setItems((current) => (append ? [...current, ...result.items] : result.items));
      setPage({ page: result.page, total: result.total, brands: result.brands });
      setStatus('idle');
    } catch {
      if (!controller.signal.aborted) setStatus('error');
    }
  }, []);

  // On arrival: take the filters from the URL (?category=phones) and refresh from D1.
  useEffect(() => {
    const fromUrl = queryFromLocation();
    setQuery(fromUrl);
    // Early typing wins; the search effect below then applies it.
    setSearchText(typedEarly || fromUrl.q);
    void load(fromUrl, false);
    const onPop = () => {
      const q = queryFromLocation();
      setQuery(q);
      setSearchText(q.q);
      void load(q, false);
    };
    window.addEventListener('popstate', onPop);
    // Back online, the listing shows live prices again.
    const stopReconnect = onReconnect(() => void load(queryFromLocation(), false));
    return () => {
      window.removeEventListener('popstate', onPop);
      stopReconnect();
    };
  }, [load, typedEarly]);

  /** Changes the filters (back to page 1), records them in the URL and fetches. */
  const apply = useCallback(
    (change: Partial<ProductQuery>) => {
      setQuery((current) => {
        const next = { ...current, ...change, page: 1 };
        // A new search is ranked by relevance unless the shopper picked another order.
        if (change.q !== undefined && change.sort === undefined && current.sort === defaultSort(current.q)) {
          next.sort = defaultSort(next.q);
        }
        const params = productQueryToParams(next).toString();
        window.history.replaceState(null, '', params ? `?${params}` : window.location.pathname);
        void load(next, false);
        return next;
      });
    },
    [load],
  );

  // Search as the shopper types, once they pause.
  useEffect(() => {
    if (searchText === query.q) return;
    const timer = setTimeout(() => apply({ q: searchText.trim() }), 300);
    return () => clearTimeout(timer);
  }, [searchText, query.q, apply]);

  const loadMore = () => {
    const next = { ...query, page: page.page + 1 };
    setQuery(next);
    void load(next, true);
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

  return { query, items, page, status, searchText, setSearchText, apply, loadMore, clearSearch, clearAll };
}
