import { z } from 'zod';
import { parseProductQuery, searchProducts } from '../../src/features/catalogue/search.ts';
import { findActiveProduct, listActiveProducts } from '../db/products.ts';
import { createRouter } from '../lib/app.ts';
import { ApiError, invalidRequest } from '../lib/errors.ts';
import { validate } from '../lib/validate.ts';

// Shoppers must see an admin's change within seconds: let caches revalidate every time.
const FRESH = { 'cache-control': 'no-cache' };

export const products = createRouter()
  .get('/', async (c) => {
    const query = parseProductQuery(new URL(c.req.url).searchParams);
    if (!query.success) throw invalidRequest(query.error, 'query');
    const catalogue = await listActiveProducts(c.var.db);
    return c.json(searchProducts(catalogue, query.data), 200, FRESH);
  })
  .get('/:id', validate('param', z.object({ id: z.string().regex(/^[a-z0-9-]{1,80}$/, 'Not a product id') })), async (c) => {
    const { id } = c.req.valid('param');
    const product = await findActiveProduct(c.var.db, id);
    if (!product) throw new ApiError(404, 'product_not_found', 'Product not found');
    return c.json(product, 200, FRESH);
  });
