import { CATEGORIES } from './categories.ts';
import { PRICE_FILTER_MAX_NAIRA, PRICE_FILTER_MIN_NAIRA, parseNairaText, priceRangeProblem } from './price-text.ts';

export { formatNairaText, type NairaText, parseNairaText, priceRangeProblem } from './price-text.ts';
import { DEFAULT_QUERY, defaultSort, parseProductQuery, productQueryToParams, type ProductQuery } from './search.ts';

/**
 * The listing's URL, /products?…: the API's query parameters (search.ts), read the way a page
 * must read a link or a form a shopper sent. The Worker renders the listing from it
 * (listing.server.ts) and its script follows it in place (listing.browser.ts).
 *
 * - A parameter that does not parse is left out and said at its field; the rest still apply,
 *   so a bad link shows a readable message and a list, never an error page.
 * - `page` is how many pages are shown, 1 to `page` (the API's `page` is one page): a shopper
 *   who loaded more and comes back gets the same list from the server, scrolled where they were.
 * - The filter form without JavaScript sends every field and a marker (`sortFor`, the search
 *   text its sort menu was shown for); the page then redirects to the short URL of the query.
 * See docs/decisions/016-listing-rendered-by-the-worker.md.
 */

/** At most this many pages are shown at once (?page=20: 180 products): one URL cannot ask for the whole catalogue. */
export const MAX_LISTING_PAGES = 20;

/** Sent only by the filter form (a hidden field): the search text the sort menu was last shown for. */
export const FORM_MARKER = 'sortFor';

export type ListingField = 'q' | 'category' | 'brand' | 'minPrice' | 'maxPrice' | 'sort' | 'page' | 'featured';
export type ListingErrors = Partial<Record<ListingField, string>>;

export interface Listing {
  /** The query the results are for; `page` is the number of pages shown. */
  query: ProductQuery;
  /** Why a parameter was left out, by field. */
  errors: ListingErrors;
  /** The price boxes as the URL had them (kept when they were refused, so the shopper can fix them). */
  priceText: { min: string; max: string };
  /** The filter form sent these parameters: the page answers with a redirect to `listingHref(query)`. */
  fromForm: boolean;
}

const FIELDS = new Set<string>(['q', 'category', 'brand', 'minPrice', 'maxPrice', 'sort', 'page', 'featured']);

/** Reads /products?… : never fails; what it cannot use is left out and named in `errors`. */
export function readListing(search: URLSearchParams | string): Listing {
  const params = new URLSearchParams(search);
  const fromForm = params.has(FORM_MARKER);
  if (fromForm) {
    // The island's rule for a new search (a new search is ranked by relevance unless the
    // shopper picked another order), for the form: a sort still at its default for the search
    // the menu was shown with is no choice, so the new search gets its own default.
    const sort = params.get('sort') ?? '';
    if (sort === defaultSort(params.get(FORM_MARKER) ?? '')) params.delete('sort');
    params.delete(FORM_MARKER);
  }
  const priceText = { min: params.get('minPrice')?.trim() ?? '', max: params.get('maxPrice')?.trim() ?? '' };
  const errors: ListingErrors = {};
  // Each round leaves out the parameters the last one refused; a query with none left parses.
  for (let round = 0; round < FIELDS.size; round++) {
    const parsed = parseProductQuery(params);
    if (parsed.success) {
      return { query: { ...parsed.data, page: Math.min(parsed.data.page, MAX_LISTING_PAGES) }, errors, priceText, fromForm };
    }
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? '');
      if (!FIELDS.has(field)) continue;
      const refused = field as ListingField;
      if (issue.code === 'custom' && refused === 'maxPrice') {
        // The range as a whole: both ends parsed, the max is below the min.
        const min = parseNairaText(priceText.min);
        const max = parseNairaText(priceText.max);
        errors.maxPrice ??=
          min.ok && max.ok
            ? (priceRangeProblem(min.naira ?? PRICE_FILTER_MIN_NAIRA, max.naira ?? PRICE_FILTER_MAX_NAIRA) ?? issue.message)
            : issue.message;
        params.delete('minPrice');
        params.delete('maxPrice');
        continue;
      }
      errors[refused] ??=
        refused === 'q' || refused === 'minPrice' || refused === 'maxPrice'
          ? issue.message
          : `${LABELS[refused]}: ${issue.message}`;
      params.delete(refused);
    }
  }
  return { query: DEFAULT_QUERY, errors, priceText, fromForm };
}

const LABELS: Record<ListingField, string> = {
  q: 'Search',
  category: 'Category',
  brand: 'Brand',
  minPrice: 'Min price',
  maxPrice: 'Max price',
  sort: 'Sort',
  page: 'Page',
  featured: 'Featured',
};

/** The listing's URL for a query: defaults left out; `page` only past the first. */
export function listingHref(query: Partial<ProductQuery>): string {
  const params = productQueryToParams(query, { withPage: true }).toString();
  return params ? `/products?${params}` : '/products';
}

/**
 * What a listing shows, for its title and description: its search words, else the one category
 * and the one brand it narrows to (a listing of several of either is all products).
 */
function shownBy(query: Pick<ProductQuery, 'q' | 'category' | 'brand'>) {
  return {
    q: query.q.trim(),
    category: query.category.length === 1 ? CATEGORIES.find((c) => c.id === query.category[0]) : undefined,
    brand: query.brand.length === 1 ? query.brand[0] : undefined,
  };
}

/**
 * What a listing is titled by (its <title>, before "| GTS", and its heading): what it shows. A
 * search by its words, one category by its name, one brand by its name, both together;
 * anything wider is all products. Filters on price, sort and page do not change it.
 */
export function listingTitle(query: Pick<ProductQuery, 'q' | 'category' | 'brand'>): string {
  const { q, category, brand } = shownBy(query);
  if (q) return `Search: ${q}`;
  if (category && brand) return `${brand} ${category.label}`;
  if (category) return category.label;
  if (brand) return `${brand} products`;
  return 'All products';
}

/**
 * A listing's meta description, by what it shows as its title is: each category, brand and
 * search page its own words in a search result, not the store's one line on all of them.
 */
export function listingDescription(query: Pick<ProductQuery, 'q' | 'category' | 'brand'>): string {
  const { q, category, brand } = shownBy(query);
  const paying = 'priced in naira and paid by bank transfer';
  if (q) return `Products at GTS matching "${q}", ${paying}. Filter by brand, category and price.`;
  if (category && brand) return `Shop ${brand} ${category.label.toLowerCase()} at GTS, ${paying}. Filter by price.`;
  if (category) return `Shop ${category.label.toLowerCase()} at GTS, ${paying}. Filter by brand and price.`;
  if (brand) return `Shop ${brand} at GTS, ${paying}. Filter by category and price.`;
  return `Shop phones, laptops, TVs, consoles, accessories and video games, ${paying}. Filter by brand, category and price.`;
}

/**
 * The listing for a corrected search ("Did you mean …?" when nothing was found): the same
 * filters with the search text replaced, from the first page. A sort the shopper chose stays;
 * a sort still at the old search's default becomes the new search's default, as the island
 * does for a new search, so the link is the URL the shopper would get by typing it.
 */
export function correctedSearchHref(query: ProductQuery, q: string): string {
  const sort = query.sort === defaultSort(query.q) ? defaultSort(q) : query.sort;
  return listingHref({ ...query, q, sort, page: 1 });
}
