import { env } from 'cloudflare:workers';
import { categoriesOnSale, searchProductsInD1 } from '../../../functions/catalogue/product-search.ts';
import { CATEGORIES, type CategoryId } from './categories.ts';
import { type Listing, readListing } from './listing.ts';
import type { ProductPage } from './search.ts';

/**
 * /products as the Worker renders it (docs/decisions/016-listing-rendered-by-the-worker.md):
 * the URL read by `readListing` (never refused as a whole), its products from D1 through the
 * API's own search (functions/catalogue/product-search.ts), pages 1 to `page` in one statement.
 */
export async function loadListing(
  url: URL,
  d1: D1Database = env.DB,
): Promise<{ listing: Listing; page: ProductPage; categories: CategoryId[] }> {
  const listing = readListing(url.searchParams);
  const pages = listing.query.page;
  const [{ page }, stocked] = await Promise.all([
    searchProductsInD1(d1, { ...listing.query, page: 1 }, { pages }),
    categoriesOnSale(d1),
  ]);
  // Asked for more pages than there are: as many as there are.
  const shown = Math.min(pages, page.pageCount);
  const onSale = new Set(stocked);
  return {
    listing: { ...listing, query: { ...listing.query, page: shown } },
    page: { ...page, page: shown },
    // In menu order; a category the URL asks for stays listed (so it can be unticked).
    categories: CATEGORIES.map((c) => c.id).filter((id) => onSale.has(id) || listing.query.category.includes(id)),
  };
}
