import { callApi } from '../../lib/api-client.browser.ts';
import type { Product } from './product.ts';
import { productApi } from './product-api.ts';
import { productQueryToParams, type ProductPage, type ProductQuery } from './search.ts';

/** Browser-side calls to the product API. */

export function fetchProductPage(query: Partial<ProductQuery>, signal?: AbortSignal): Promise<ProductPage> {
  return callApi(productApi.list, { query: productQueryToParams(query, { withPage: true }), signal });
}

export function fetchProduct(id: string, signal?: AbortSignal): Promise<Product> {
  return callApi(productApi.get, { params: { id }, signal });
}
