import { and, eq } from 'drizzle-orm';
import type { Product } from '../../src/features/catalogue/product.ts';
import type { Db } from './client.ts';
import { products, type ProductRow } from './schema.ts';

export function toProduct(row: ProductRow): Product {
  return {
    id: row.id,
    name: row.name,
    brand: row.brand,
    category: row.category,
    description: row.description,
    price: row.price,
    image: row.image,
    variants: row.variants,
    stock: row.stock,
    inStock: row.stock > 0,
    rating: row.rating,
    reviews: row.reviews,
    featured: row.featured,
  };
}

/** Every product on sale (archived ones are left out). */
export async function listActiveProducts(db: Db): Promise<Product[]> {
  const rows = await db.select().from(products).where(eq(products.active, true));
  return rows.map(toProduct);
}

export async function findActiveProduct(db: Db, id: string): Promise<Product | undefined> {
  const [row] = await db
    .select()
    .from(products)
    .where(and(eq(products.id, id), eq(products.active, true)))
    .limit(1);
  return row ? toProduct(row) : undefined;
}
