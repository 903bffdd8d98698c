import { and, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { forShoppers, isInStock, type Product } from '../../src/features/catalogue/product.ts';
import type { PricingProduct } from '../../src/features/orders/pricing.ts';
import type { Db } from '../platform/db.ts';
import { products, type ProductRow } from '../platform/schema.ts';
import { parseVariants, VARIANTS_JSON } from './variants.ts';

/** How many of a product's reviews are GTS buyers' (absent when none: the product then reads as the catalogue has it). */
export function storeReviews(reviews: number, catalogueReviews: number): { storeReviews?: number } {
  return reviews > catalogueReviews ? { storeReviews: reviews - catalogueReviews } : {};
}

/** A product row with its variants (VARIANTS_JSON), as the store sells it, with D1's exact stock (the admin's view; shoppers get forShoppers()). */
export function toProduct(row: ProductRow & { variants: string }): Product {
  return {
    id: row.id,
    name: row.name,
    brand: row.brand,
    category: row.category,
    description: row.description,
    price: row.price,
    image: row.image,
    variantLabel: row.variantLabel,
    variants: parseVariants(row.variants),
    stock: row.stock,
    inStock: isInStock(row.stock),
    rating: row.rating,
    reviews: row.reviews,
    ...storeReviews(row.reviews, row.catalogueReviews),
    featured: row.featured,
  };
}

/**
 * What shoppers see of a product's rating, as SQL over the `products` row being updated: the
 * catalogue's figures are the product's history (what it was rated elsewhere before this
 * store sold it), and this store's own reviews are added to them, so one review moves a
 * well-reviewed product by its weight instead of replacing 96 reviews with 1. Computed by D1
 * from the tables in the statement that writes it (not read into JS and written back), so
 * reviews saved at once by different buyers all count, whatever order their batches run in.
 *
 * An UPDATE's SET expressions all read the row as it was, so a statement that changes the
 * catalogue's figures is followed by a separate one with these.
 */
const OUR_REVIEWS = 'FROM reviews WHERE reviews.product_id = products.id';
export const SHOWN_RATING_SQL = `coalesce(round((products.catalogue_rating * products.catalogue_reviews + (SELECT coalesce(sum(reviews.rating), 0) ${OUR_REVIEWS})) / nullif(products.catalogue_reviews + (SELECT count(*) ${OUR_REVIEWS}), 0), 1), 0)`;
export const SHOWN_REVIEWS_SQL = `products.catalogue_reviews + (SELECT count(*) ${OUR_REVIEWS})`;

/** Recomputes the rating and review count shoppers see of one product (SHOWN_RATING_SQL). */
export function recomputeShownRating(db: Db, productId: string) {
  return db
    .update(products)
    .set({ rating: sql.raw(SHOWN_RATING_SQL), reviews: sql.raw(SHOWN_REVIEWS_SQL) })
    .where(eq(products.id, productId));
}

const withVariants = { ...getTableColumns(products), variants: VARIANTS_JSON };

/**
 * Every product on sale (archived ones are left out). Not for requests: the listing reads only
 * what a query matches (product-search.ts). The tests compare that with the pure reference search,
 * `searchProducts`, over this.
 */
export async function listActiveProducts(db: Db): Promise<Product[]> {
  const rows = await db.select(withVariants).from(products).where(eq(products.active, true));
  return rows.map((row) => forShoppers(toProduct(row)));
}

/** A product on sale as shoppers see it (its page, GET /api/products/:id, /cart/add): stock up to SHOPPER_STOCK_CAP. */
export async function findActiveProduct(db: Db, id: string): Promise<Product | undefined> {
  const [row] = await db
    .select(withVariants)
    .from(products)
    .where(and(eq(products.id, id), eq(products.active, true)))
    .limit(1);
  return row ? forShoppers(toProduct(row)) : undefined;
}

/** The most products the home page's featured shelf shows. */
export const FEATURED_SHELF_MAX = 24;

/**
 * The home page's featured shelf as D1 has it: featured products on sale, best rated first (as
 * the build's featuredProducts() orders the data files), through the partial index
 * products_featured_idx.
 */
export async function featuredOnSale(db: Db): Promise<Product[]> {
  const rows = await db
    .select(withVariants)
    .from(products)
    .where(and(eq(products.active, true), eq(products.featured, true)))
    .orderBy(desc(products.rating), desc(products.reviews))
    .limit(FEATURED_SHELF_MAX);
  return rows.map((row) => forShoppers(toProduct(row)));
}

/** What pricing an order needs of the products it names, live rows only (archived ones count as missing). */
export async function loadPricingProducts(db: Db, ids: readonly string[]): Promise<Map<string, PricingProduct>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({
      id: products.id,
      name: products.name,
      price: products.price,
      image: products.image,
      variants: VARIANTS_JSON,
      stock: products.stock,
    })
    .from(products)
    .where(and(inArray(products.id, [...new Set(ids)]), eq(products.active, true)));
  return new Map(rows.map((r) => [r.id, { ...r, variants: parseVariants(r.variants) }]));
}
