import { callApi } from '../../lib/api-client.browser.ts';
import { productApi } from './product-api.ts';
import { productQueryToParams, type ProductPage, type ProductQuery } from './search.ts';

/** Browser-side calls to the product API. */

export function fetchProductPage(query: Partial<ProductQuery>, signal?: AbortSignal): Promise<ProductPage> {
  return callApi(productApi.list, { query: productQueryToParams(query, { withPage: true }), signal });
}
