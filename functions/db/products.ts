import { and, eq, getTableColumns, inArray } from 'drizzle-orm';
import { isInStock, type Product } from '../../src/features/catalogue/product.ts';
import type { PricingProduct } from '../../src/features/orders/pricing.ts';
import type { Db } from './client.ts';
import { products, type ProductRow } from './schema.ts';
import { parseVariants, VARIANTS_JSON } from './variants.ts';

/** A product row with its variants (VARIANTS_JSON), as the store sells it. */
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
    featured: row.featured,
  };
}

const withVariants = { ...getTableColumns(products), variants: VARIANTS_JSON };

/**
 * Every product on sale (archived ones are left out). Not for requests: the listing reads only
 * what a query matches (product-search.ts). The tests compare that with `searchProducts` over this.
 */
export async function listActiveProducts(db: Db): Promise<Product[]> {
  const rows = await db.select(withVariants).from(products).where(eq(products.active, true));
  return rows.map(toProduct);
}

export async function findActiveProduct(db: Db, id: string): Promise<Product | undefined> {
  const [row] = await db
    .select(withVariants)
    .from(products)
    .where(and(eq(products.id, id), eq(products.active, true)))
    .limit(1);
  return row ? toProduct(row) : undefined;
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
