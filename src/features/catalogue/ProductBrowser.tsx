import { SlidersHorizontal } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { CategoryId } from './categories.ts';
import { FilterChips } from './FilterChips.tsx';
import { FilterPanel } from './FilterPanel.tsx';
import { ProductCard } from './ProductCard.tsx';
import { SORTS, searchTerms, type ProductPage, type SortId } from './search.ts';
import { useProductSearch } from './use-product-search.browser.ts';
import './ProductBrowser.css';

interface Props {
  /** The first page for the default query, rendered at build for a fast first paint. */
  initial: ProductPage;
  /** Categories that have products, in menu order. */
  categories: CategoryId[];
}

export default function ProductBrowser({ initial, categories }: Props) {
  const search = useProductSearch(initial);
  const { query, items, page, status, apply, clearAll } = search;
  const [filtersOpen, setFiltersOpen] = useState<boolean | null>(null);

  // Until now CSS decided (open on wide screens); from here the Filters button does.
  useEffect(() => setFiltersOpen(window.matchMedia('(min-width: 960px)').matches), []);

  return (
    <div className="browser">
      <div className="browser__top">
        <div className="field browser__search">
          <label htmlFor="product-search" className="visually-hidden">
            Search products
          </label>
          <input
            id="product-search"
            type="search"
            className="input"
            placeholder="Search phones, laptops, TVs…"
            value={search.searchText}
            onChange={(e) => search.setSearchText(e.target.value)}
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
          <label htmlFor="product-sort" className="visually-hidden">
            Sort by
          </label>
          <select
            id="product-sort"
            className="input"
            value={query.sort}
            onChange={(e) => apply({ sort: e.target.value as SortId })}
          >
            {SORTS.filter((s) => s.id !== 'relevance' || searchTerms(query.q).length > 0).map((s) => (
              <option key={s.id} value={s.id}>
                Sort: {s.label}
              </option>
            ))}
          </select>
        </div>
      </div>

      <div className="browser__layout">
        <FilterPanel
          id="filter-panel"
          open={filtersOpen}
          categories={categories}
          brands={page.brands}
          query={query}
          apply={apply}
        />

        <section className="browser__results" aria-labelledby="results-count">
          <h2 className="visually-hidden">Results</h2>
          <div className="browser__status">
            <p id="results-count" role="status" aria-live="polite">
              {page.total} {page.total === 1 ? 'product' : 'products'}
              {status === 'loading' && <span className="muted"> · updating…</span>}
            </p>
            <FilterChips query={query} apply={apply} clearSearch={search.clearSearch} clearAll={clearAll} />
          </div>
          {status === 'error' && (
            <p className="field-error" role="alert">
              We could not load products. Check your connection and try again.
            </p>
          )}
          {items.length === 0 && status !== 'loading' ? (
            <div className="empty card">
              <h2>No products found</h2>
              <p className="muted">Try a different search or fewer filters.</p>
              <button type="button" className="btn btn-outline" onClick={clearAll}>
                Clear All
              </button>
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
              <button type="button" className="btn btn-outline" onClick={search.loadMore} disabled={status === 'loading'}>
                Load More Products
              </button>
            </div>
          )}
        </section>
      </div>
    </div>
  );
}
