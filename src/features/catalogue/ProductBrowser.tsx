import { SlidersHorizontal } from 'lucide-react';
import { CATEGORY_IDS, type CategoryId } from './categories.ts';
import { FilterChips } from './FilterChips.tsx';
import { FilterPanel } from './FilterPanel.tsx';
import { FORM_MARKER, type ListingErrors, listingHref } from './listing.ts';
import { NoResults } from './NoResults.tsx';
import { ProductCard } from './ProductCard.tsx';
import { SEARCH_MAX_LENGTH, SORTS, searchTerms, type ProductPage, type ProductQuery } from './search.ts';
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
 * /products: search, filters, sort and paging over D1, as HTML the Worker renders for the URL
 * (docs/decisions/016-listing-rendered-by-the-worker.md). Not an island: every control works
 * without JavaScript (a GET form, links, Add to Cart forms), and listing.browser.ts, a plain
 * script, makes them act in place (docs/decisions/004-plain-scripts.md): it asks the Worker for
 * the listing of the new URL and puts its results in this page, keeping the URL and history in
 * step. The cards stay the Worker's HTML. The script's hooks are the `data-*` attributes:
 * `data-listing` (the part it replaces), `data-in-place` (links it turns into buttons acting in
 * place), `data-filters-toggle`, `data-apply-filters` (not needed once changes apply at once).
 */
export default function ProductBrowser({ initial: page, query, errors, priceText, categories }: Props) {
  const items = page.items;
  const searchProblem = errors.q;
  // Said above the results too: the price boxes' own message is in the filter panel, closed on a phone.
  const otherProblems = (['minPrice', 'maxPrice', 'category', 'brand', 'sort', 'page', 'featured'] as const).flatMap((f) =>
    errors[f] ? [errors[f]] : [],
  );
  // Every department with products on sale (Gaming Gear, and those an admin adds to), in menu order.
  const departments = CATEGORY_IDS.filter((id) => categories.includes(id));
  const typed = query.q.length;

  return (
    <div className="browser" data-listing>
      <form id={FORM_ID} className="browser__top" method="get" action="/products" data-listing-form>
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
            defaultValue={query.q}
            data-count-from={COUNT_FROM}
            data-max-length={SEARCH_MAX_LENGTH}
            aria-invalid={searchProblem ? true : undefined}
            aria-describedby={searchProblem ? 'search-problem' : typed > COUNT_FROM ? 'search-count' : undefined}
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
        {/* Without JavaScript the panel opens as the link's target (ProductBrowser.css); the script makes it a toggle. */}
        <a className="btn btn-outline" href="#filter-panel" data-filters-toggle>
          <SlidersHorizontal size={18} aria-hidden="true" /> Filters
        </a>
        <div className="field browser__sort">
          <label htmlFor="product-sort" className="visually-hidden">
            Sort by
          </label>
          <select id="product-sort" name="sort" className="input" defaultValue={query.sort}>
            {SORTS.filter((s) => s.id !== 'relevance' || searchTerms(query.q).length > 0).map((s) => (
              <option key={s.id} value={s.id}>
                Sort: {s.label}
              </option>
            ))}
          </select>
        </div>
        {/* The search the sort menu was shown for: a new search sent with the form gets its own default order. */}
        <input type="hidden" name={FORM_MARKER} value={query.q} data-search-shown />
      </form>

      <div className="browser__layout">
        <FilterPanel
          id="filter-panel"
          form={FORM_ID}
          categories={categories}
          brands={page.brands}
          query={query}
          priceText={priceText}
          errors={errors}
        />

        <section className="browser__results" aria-labelledby="results-count">
          <h2 className="visually-hidden">Results</h2>
          <div className="browser__status">
            <p id="results-count" role="status" aria-live="polite">
              {page.total} {page.total === 1 ? 'product' : 'products'}
            </p>
            <FilterChips query={query} />
          </div>
          {otherProblems.length > 0 && (
            <p className="field-error" role="alert">
              Part of this link could not be used and was left out: {otherProblems.join('; ')}.
            </p>
          )}
          {items.length === 0 ? (
            <NoResults query={query} didYouMean={page.didYouMean} departments={departments} />
          ) : (
            <div className="grid grid-products">
              {items.map((p, i) => (
                <ProductCard key={p.id} product={p} eager={i < 2} anchor={`item-${i + 1}`} />
              ))}
            </div>
          )}
          {items.length < page.total && (
            <div className="load-more">
              {/* The same listing with one more page, scrolled to the first new product; in place with the script. */}
              <a
                className="btn btn-outline"
                href={`${listingHref({ ...query, page: page.page + 1 })}#item-${items.length + 1}`}
                data-in-place="load-more"
              >
                Load More Products
              </a>
            </div>
          )}
        </section>
      </div>
    </div>
  );
}
