import { z } from 'zod';
import { productSchema, type Product } from './product.ts';
import { productQueryToParams, type ProductPage, type ProductQuery } from './search.ts';

/** Browser-side calls to the product API. Every answer is parsed, never trusted. */

const productPageSchema = z.object({
  items: z.array(productSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  pageCount: z.number().int(),
  brands: z.array(z.string()),
});

export class ApiRequestError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

async function getJson<T>(url: string, schema: z.ZodType<T>, signal?: AbortSignal): Promise<T> {
  const response = await fetch(url, { signal, headers: { accept: 'application/json' } });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const message = z.object({ error: z.object({ message: z.string() }) }).safeParse(body);
    throw new ApiRequestError(response.status, message.success ? message.data.error.message : `HTTP ${response.status}`);
  }
  return schema.parse(body);
}

export function fetchProductPage(query: Partial<ProductQuery>, signal?: AbortSignal): Promise<ProductPage> {
  return getJson(`/api/products?${productQueryToParams(query, { withPage: true })}`, productPageSchema, signal);
}

export function fetchProduct(id: string, signal?: AbortSignal): Promise<Product> {
  return getJson(`/api/products/${encodeURIComponent(id)}`, productSchema, signal);
}
