import { z } from 'zod';
import { requestJson } from '../../lib/api-client.ts';
import { productSchema, type Product } from './product.ts';
import { productQueryToParams, type ProductPage, type ProductQuery } from './search.ts';

/** Browser-side calls to the product API. */

const productPageSchema = z.object({
  items: z.array(productSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  pageCount: z.number().int(),
  brands: z.array(z.string()),
});

export function fetchProductPage(query: Partial<ProductQuery>, signal?: AbortSignal): Promise<ProductPage> {
  return requestJson(`/api/products?${productQueryToParams(query, { withPage: true })}`, productPageSchema, { signal });
}

export function fetchProduct(id: string, signal?: AbortSignal): Promise<Product> {
  return requestJson(`/api/products/${encodeURIComponent(id)}`, productSchema, { signal });
}
