import { endpoint } from '../../lib/api-contract.ts';
import { productSaleSchema } from './product-choice.ts';

/**
 * One product's answer (`productApi.get`, whose path is written here) read for what the product
 * page sells: each variant's price, stock and picture, with a light check. The page's plain script
 * (product-page.browser.ts) asks it when the connection comes back; a module of its own so that
 * script does not bring the full product schema, and zod, with it.
 */
export const productSaleApi = {
  get: endpoint({ method: 'GET', path: '/api/products/:id', response: productSaleSchema }),
};
