import { SlidersHorizontal } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { type CategoryId, DEPARTMENTS } from './categories.ts';
import { FilterChips } from './FilterChips.tsx';
import { FilterPanel } from './FilterPanel.tsx';
import { FORM_MARKER, type ListingErrors, listingHref } from './listing.ts';
import { NoResults } from './NoResults.tsx';
import { ProductCard } from './ProductCard.tsx';
import { SEARCH_MAX_LENGTH, SORTS, searchTerms, type ProductPage, type ProductQuery, type SortId } from './search.ts';
import { useHydrated } from './use-hydrated.browser.ts';
import { useProductSearch } from './use-product-search.browser.ts';
import './ProductBrowser.css';

interface Props {
  /** The products the Worker rendered for the URL (pages 1 to `query.page`). */
  initial: ProductPage;
  /** The URL's query (`page`: how many pages are shown) and what it had that could not be used. */
  query: ProductQuery;
  errors: ListingErrors;
  /** The price boxes' text as the URL had it (shown again when it was refused). */
  priceText: { min: string; max: string };
  /** Categories that have products, in menu order. */
  categories: CategoryId[];
}

const FORM_ID = 'product-filters';
/** Above this many characters the search box counts them (the API takes SEARCH_MAX_LENGTH). */
const COUNT_FROM = SEARCH_MAX_LENGTH - 20;

/**
 * /products: search, filters, sort and paging over D1. The Worker renders it for the URL and
 * every control works without JavaScript (a GET form, links, Add to Cart forms); hydrated, the
 * same controls act in place and keep the URL and history in step.
 */
export default function ProductBrowser({ initial, query: startQuery, errors, priceText, categories }: Props) {
  const search = useProductSearch(initial, { query: startQuery, errors });
  const { query, items, page, status, failure, fieldErrors, apply, clearAll } = search;
  const hydrated = useHydrated();
  const [filtersOpen, setFiltersOpen] = useState<boolean | null>(null);
  const grid = useRef<HTMLDivElement>(null);

  // Until now CSS decided (open on wide screens, or when the Filters link targeted it); from here the Filters button does.
  useEffect(
    () => setFiltersOpen(window.matchMedia('(min-width: 960px)').matches || window.location.hash === '#filter-panel'),
    [],
  );

  // After Load More, focus goes to the first new product (its name), so the next Tab continues there.
  const { firstNew, focusedNew } = search;
  useEffect(() => {
    if (firstNew === null) return;
    const card = grid.current?.querySelectorAll<HTMLElement>('[data-product-id]')[firstNew];
    card?.querySelector<HTMLAnchorElement>('.product-card__name a')?.focus();
    focusedNew();
  }, [firstNew, focusedNew]);

  const searchProblem = fieldErrors.q;
  const otherProblems = (['category', 'brand', 'sort', 'page', 'featured'] as const).flatMap((f) =>
    fieldErrors[f] ? [fieldErrors[f]] : [],
  );
  const stale = status === 'error';
  const departments = DEPARTMENTS.filter((id) => categories.includes(id));
  const typed = search.searchText.length;

  return (
    <div className="browser">
      <form
        id={FORM_ID}
        className="browser__top"
        method="get"
        action="/products"
        onSubmit={(e) => {
          e.preventDefault();
          search.submitSearch();
        }}
      >
        <div className="field browser__search">
          <label htmlFor="product-search" className="visually-hidden">
            Search products
          </label>
          <input
            id="product-search"
            name="q"
            type="search"
            className="input"
            placeholder="Search phones, laptops, TVs…"
            value={search.searchText}
            aria-invalid={searchProblem ? true : undefined}
            aria-describedby={searchProblem ? 'search-problem' : typed > COUNT_FROM ? 'search-count' : undefined}
            onChange={(e) => search.setSearchText(e.target.value)}
          />
          {searchProblem ? (
            <p id="search-problem" className="field-error" role="alert">
              {searchProblem}
            </p>
          ) : (
            typed > COUNT_FROM && (
              <p id="search-count" className="muted browser__count">
                {typed} of {SEARCH_MAX_LENGTH} characters
              </p>
            )
          )}
        </div>
        {hydrated ? (
          <button
            type="button"
            className="btn btn-outline"
            aria-expanded={filtersOpen ?? false}
            aria-controls="filter-panel"
            onClick={() => setFiltersOpen((open) => !open)}
          >
            <SlidersHorizontal size={18} aria-hidden="true" /> Filters
          </button>
        ) : (
          // Without JavaScript the panel opens as the link's target (ProductBrowser.css).
          <a className="btn btn-outline" href="#filter-panel">
            <SlidersHorizontal size={18} aria-hidden="true" /> Filters
          </a>
        )}
        <div className="field browser__sort">
          <label htmlFor="product-sort" className="visually-hidden">
            Sort by
          </label>
          <select
            id="product-sort"
            name="sort"
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
        {/* The search the sort menu was shown for: a new search sent with the form gets its own default order. */}
        <input type="hidden" name={FORM_MARKER} value={query.q} />
      </form>

      <div className="browser__layout">
        <FilterPanel
          id="filter-panel"
          form={FORM_ID}
          open={filtersOpen}
          categories={categories}
          brands={page.brands}
          query={query}
          apply={apply}
          priceText={priceText}
          errors={fieldErrors}
          hydrated={hydrated}
        />

        <section className="browser__results" aria-labelledby="results-count">
          <h2 className="visually-hidden">Results</h2>
          <div className="browser__status">
            <p id="results-count" role="status" aria-live="polite">
              {page.total} {page.total === 1 ? 'product' : 'products'}
              {status === 'loading' && <span className="muted"> · updating…</span>}
            </p>
            <FilterChips query={query} apply={apply} clearSearch={search.clearSearch} clearAll={clearAll} hydrated={hydrated} />
          </div>
          {otherProblems.length > 0 && (
            <p className="field-error" role="alert">
              Part of this link could not be used and was left out: {otherProblems.join('; ')}.
            </p>
          )}
          {failure && (
            <div className="browser__failure" role="alert">
              <p className="field-error">{failure.message}</p>
              {items.length > 0 && (
                <p className="muted">
                  {failure.refused
                    ? 'The products below are from your previous search.'
                    : 'The products below may be out of date.'}
                </p>
              )}
            </div>
          )}
          {items.length === 0 && status !== 'loading' ? (
            <NoResults
              query={query}
              didYouMean={page.didYouMean}
              departments={departments}
              hydrated={hydrated}
              clearAll={clearAll}
            />
          ) : (
            <div ref={grid} className="grid grid-products" data-stale={stale || undefined} aria-busy={status === 'loading'}>
              {items.map((p, i) => (
                <ProductCard key={p.id} product={p} eager={i < 2} anchor={`item-${i + 1}`} />
              ))}
            </div>
          )}
          {items.length < page.total && (
            <div className="load-more">
              {hydrated ? (
                <button type="button" className="btn btn-outline" onClick={search.loadMore} disabled={status === 'loading'}>
                  Load More Products
                </button>
              ) : (
                // Without JavaScript: the same listing with one more page, scrolled to the first new product.
                <a
                  className="btn btn-outline"
                  href={`${listingHref({ ...query, page: page.page + 1 })}#item-${items.length + 1}`}
                >
                  Load More Products
                </a>
              )}
            </div>
          )}
        </section>
      </div>
    </div>
  );
}
