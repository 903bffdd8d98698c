import { SlidersHorizontal, X } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchProductPage } from './api-client.ts';
import { categoryLabel, type CategoryId } from './categories.ts';
import type { Product } from './product.ts';
import { ProductCard } from './ProductCard.tsx';
import {
  DEFAULT_QUERY,
  PRICE_FILTER_MAX_NAIRA,
  SORTS,
  parseProductQuery,
  productQueryToParams,
  type ProductPage,
  type ProductQuery,
  type SortId,
} from './search.ts';
import { formatNaira } from '../../lib/money.ts';
import type { Brand } from './brands.ts';
import './ProductBrowser.css';

interface Props {
  /** The first page for the default query, rendered at build for a fast first paint. */
  initial: ProductPage;
  /** Categories that have products, in menu order. */
  categories: CategoryId[];
}

type Status = 'idle' | 'loading' | 'error';

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

export default function ProductBrowser({ initial, categories }: Props) {
  const [typedEarly] = useState(searchTypedBeforeHydration);
  const [query, setQuery] = useState<ProductQuery>(DEFAULT_QUERY);
  const [items, setItems] = useState<Product[]>(initial.items);
  const [page, setPage] = useState({ page: initial.page, total: initial.total, brands: initial.brands });
  const [status, setStatus] = useState<Status>('idle');
  const [searchText, setSearchText] = useState('');
  const [filtersOpen, setFiltersOpen] = useState<boolean | null>(null);
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
    } catch (error) {
      if (!controller.signal.aborted) setStatus('error');
    }
  }, []);

  // On arrival: take the filters from the URL (?category=phones) and refresh from D1.
  useEffect(() => {
    setFiltersOpen(window.matchMedia('(min-width: 960px)').matches);
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
    return () => window.removeEventListener('popstate', onPop);
  }, [load, typedEarly]);

  const apply = useCallback(
    (change: Partial<ProductQuery>) => {
      setQuery((current) => {
        const next = { ...current, ...change, page: 1 };
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

  const toggle = <T extends string>(list: T[], value: T) =>
    list.includes(value) ? list.filter((v) => v !== value) : [...list, value];

  const chips: { key: string; label: string; remove: () => void }[] = [
    ...(query.q ? [{ key: 'q', label: `“${query.q}”`, remove: () => { setSearchText(''); apply({ q: '' }); } }] : []),
    ...query.category.map((c) => ({ key: `c-${c}`, label: categoryLabel(c), remove: () => apply({ category: query.category.filter((x) => x !== c) }) })),
    ...query.brand.map((b) => ({ key: `b-${b}`, label: b, remove: () => apply({ brand: query.brand.filter((x) => x !== b) }) })),
    ...(query.minPrice !== DEFAULT_QUERY.minPrice || query.maxPrice !== DEFAULT_QUERY.maxPrice
      ? [{
          key: 'price',
          label: `${formatNaira(query.minPrice * 100)} – ${formatNaira(query.maxPrice * 100)}`,
          remove: () => apply({ minPrice: DEFAULT_QUERY.minPrice, maxPrice: DEFAULT_QUERY.maxPrice }),
        }]
      : []),
  ];
  const clearAll = () => {
    setSearchText('');
    apply({ ...DEFAULT_QUERY, sort: query.sort });
  };

  const brandOptions = [...new Set([...page.brands, ...query.brand])].sort((a, b) => a.localeCompare(b));

  return (
    <div className="browser">
      <div className="browser__top">
        <div className="field browser__search">
          <label htmlFor="product-search" className="visually-hidden">Search products</label>
          <input
            id="product-search"
            type="search"
            className="input"
            placeholder="Search phones, laptops, TVs…"
            value={searchText}
            onChange={(e) => setSearchText(e.target.value)}
          />
        </div>
        <button
          type="button"
          className="btn btn-outline"
          aria-expanded={filtersOpen ?? false}
          aria-controls="filter-panel"
          onClick={() => setFiltersOpen((open) => !open)}
        >
          <SlidersHorizontal size={18} aria-hidden="true" /> Filters
        </button>
        <div className="field browser__sort">
          <label htmlFor="product-sort" className="visually-hidden">Sort by</label>
          <select
            id="product-sort"
            className="input"
            value={query.sort}
            onChange={(e) => apply({ sort: e.target.value as SortId })}
          >
            {SORTS.map((s) => (
              <option key={s.id} value={s.id}>Sort: {s.label}</option>
            ))}
          </select>
        </div>
      </div>

      <div className="browser__layout">
        <aside
          id="filter-panel"
          className="card browser__filters"
          data-open={filtersOpen === null ? 'auto' : String(filtersOpen)}
          aria-label="Filters"
        >
          <fieldset>
            <legend>Category</legend>
            {categories.map((c) => (
              <label key={c} className="check">
                <input type="checkbox" checked={query.category.includes(c)} onChange={() => apply({ category: toggle(query.category, c) })} />
                {categoryLabel(c)}
              </label>
            ))}
          </fieldset>
          <fieldset>
            <legend>Price (₦)</legend>
            <div className="price-range">
              <NairaInput
                label="Min"
                value={query.minPrice}
                whenEmpty={DEFAULT_QUERY.minPrice}
                onCommit={(value) => apply({ minPrice: Math.min(value, query.maxPrice) })}
              />
              <NairaInput
                label="Max"
                value={query.maxPrice}
                whenEmpty={PRICE_FILTER_MAX_NAIRA}
                onCommit={(value) => apply({ maxPrice: Math.max(value, query.minPrice) })}
              />
            </div>
          </fieldset>
          <fieldset>
            <legend>Brand</legend>
            <div className="brand-list">
              {brandOptions.map((b) => (
                <label key={b} className="check">
                  <input type="checkbox" checked={query.brand.includes(b as Brand)} onChange={() => apply({ brand: toggle(query.brand, b as Brand) })} />
                  {b}
                </label>
              ))}
            </div>
          </fieldset>
        </aside>

        <section className="browser__results" aria-labelledby="results-count">
          <h2 className="visually-hidden">Results</h2>
          <div className="browser__status">
            <p id="results-count" role="status" aria-live="polite">
              {page.total} {page.total === 1 ? 'product' : 'products'}
              {status === 'loading' && <span className="muted"> · updating…</span>}
            </p>
            {chips.length > 0 && (
              <ul className="chips" aria-label="Active filters">
                {chips.map((chip) => (
                  <li key={chip.key}>
                    <button type="button" className="chip" onClick={chip.remove} aria-label={`Remove filter ${chip.label}`}>
                      {chip.label} <X size={14} aria-hidden="true" />
                    </button>
                  </li>
                ))}
                <li>
                  <button type="button" className="chip chip--clear" onClick={clearAll}>Clear All</button>
                </li>
              </ul>
            )}
          </div>
          {status === 'error' && (
            <p className="field-error" role="alert">We could not load products. Check your connection and try again.</p>
          )}
          {items.length === 0 && status !== 'loading' ? (
            <div className="empty card">
              <h2>No products found</h2>
              <p className="muted">Try a different search or fewer filters.</p>
              <button type="button" className="btn btn-outline" onClick={clearAll}>Clear All</button>
            </div>
          ) : (
            <div className="grid grid-products">
              {items.map((p, i) => (
                <ProductCard key={p.id} product={p} eager={i < 2} />
              ))}
            </div>
          )}
          {items.length < page.total && (
            <div className="load-more">
              <button type="button" className="btn btn-outline" onClick={loadMore} disabled={status === 'loading'}>
                Load More Products
              </button>
            </div>
          )}
        </section>
      </div>
    </div>
  );
}

interface NairaInputProps {
  label: string;
  value: number;
  /** What an empty or invalid entry means (the default end of the range). */
  whenEmpty: number;
  onCommit: (value: number) => void;
}

/** A whole-naira amount, applied when the shopper leaves the field or presses Enter. */
function NairaInput({ label, value, whenEmpty, onCommit }: NairaInputProps) {
  const commit = (raw: string) => {
    const n = Math.floor(Number(raw));
    const next = raw.trim() !== '' && Number.isFinite(n) && n >= 0 ? n : whenEmpty;
    if (next !== value) onCommit(next);
  };
  return (
    <label className="field">
      <span className="muted">{label}</span>
      <input
        className="input"
        type="number"
        inputMode="numeric"
        min={0}
        step={1000}
        defaultValue={value}
        key={value}
        onBlur={(e) => commit(e.target.value)}
        onKeyDown={(e) => e.key === 'Enter' && commit(e.currentTarget.value)}
      />
    </label>
  );
}
