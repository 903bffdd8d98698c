import { env } from 'cloudflare:workers';
import { openDb } from '../../../functions/platform/db.ts';
import { featuredOnSale, findActiveProduct } from '../../../functions/catalogue/products.ts';
import { isProductId, type Product } from './product.ts';

/**
 * What the on-demand product page reads from D1, behind one module so pages never reach into
 * functions/ themselves. /product/{id} renders here for a product added after the build;
 * product pages built from the data files (catalogue.build.ts) are static.
 */
export async function findProductOnSale(id: string): Promise<Product | undefined> {
  return isProductId(id) ? findActiveProduct(openDb(env.DB), id) : undefined;
}

/** The home page's featured shelf from D1 (/partials/featured-shelf). */
export function featuredShelf(): Promise<Product[]> {
  return featuredOnSale(openDb(env.DB));
}
