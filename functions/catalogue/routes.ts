import { z } from 'zod';
import { productIdSchema } from '../../src/features/catalogue/product.ts';
import { productApi } from '../../src/features/catalogue/product-api.ts';
import { parseProductQuery } from '../../src/features/catalogue/search.ts';
import { searchProductsInD1 } from './product-search.ts';
import { findActiveProduct } from './products.ts';
import { createRouter } from '../platform/app.ts';
import { ApiError, invalidRequest } from '../platform/errors.ts';
import { reply } from '../platform/reply.ts';
import { validate } from '../platform/validate.ts';
import { at } from '../platform/routing.ts';

// Shoppers must see an admin's change within seconds: let caches revalidate every time.
const FRESH = { 'cache-control': 'no-cache' };

/** Where the catalogue's routes are mounted (functions/index.ts): each route's path is its contract's (src/features/catalogue/product-api.ts). */
export const PRODUCTS_BASE = '/api/products';

export const products = createRouter()
  .get(at(PRODUCTS_BASE, productApi.list), async (c) => {
    const query = parseProductQuery(new URL(c.req.url).searchParams);
    if (!query.success) throw invalidRequest(query.error, 'query');
    // Search, filters, facets and paging in D1 (functions/catalogue/product-search.ts, decision 012).
    const { page, rowsRead } = await searchProductsInD1(c.var.d1, query.data);
    // How many rows D1 read, when the var EXPOSE_D1_ROWS_READ is "true": for the tests and the
    // benchmark only (scripts/bench.mjs sets it for its own server), never set in wrangler.toml.
    const expose = (c.env as Env & { EXPOSE_D1_ROWS_READ?: string }).EXPOSE_D1_ROWS_READ === 'true';
    const headers = expose ? { ...FRESH, 'x-d1-rows-read': String(rowsRead) } : FRESH;
    return reply(c, productApi.list, page, 200, headers);
  })
  .get(at(PRODUCTS_BASE, productApi.get), validate('param', z.object({ id: productIdSchema })), async (c) => {
    const { id } = c.req.valid('param');
    const product = await findActiveProduct(c.var.db, id);
    if (!product) throw new ApiError(404, 'product_not_found', 'Product not found');
    return reply(c, productApi.get, product, 200, FRESH);
  });
