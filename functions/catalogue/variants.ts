import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { isInStock, type Variant } from '../../src/features/catalogue/product.ts';

/**
 * A product's variants as one JSON column of the product's own row (a correlated subquery
 * in the position order), so a page of products and their variants is one statement and
 * one round trip. Reads `products.id` of the enclosing query.
 */
export const VARIANTS_JSON = sql<string>`(SELECT json_group_array(json_object('id', v.id, 'label', v.label, 'price', v.price_kobo, 'stock', v.stock, 'image', v.image))
  FROM (SELECT * FROM product_variants v WHERE v.product_id = products.id ORDER BY v.position, v.id) v)`;

const storedVariants = z.array(
  z.object({ id: z.string(), label: z.string(), price: z.number().int(), stock: z.number().int(), image: z.string().nullable() }),
);

/** The variants column read back: what the API and the pricing use. */
export function parseVariants(json: string): Variant[] {
  return storedVariants.parse(JSON.parse(json)).map((v) => ({ ...v, inStock: isInStock(v.stock) }));
}
