import { endpoint } from '../../lib/api-contract.ts';
import { productSaleApi } from './product-sale-api.ts';
import { productSchema } from './product.ts';
import { productPageSchema } from './search.ts';

/** The product API's contract (see src/lib/api-contract.ts). */
export const productApi = {
  /** A page of the listing for a query (`?q=&category=&brand=&minPrice=&maxPrice=&sort=&featured=&page=`). */
  list: endpoint({ method: 'GET', path: '/api/products', response: productPageSchema }),
  /** One product on sale; 404 `product_not_found` otherwise. */
  get: endpoint({ method: 'GET', path: productSaleApi.get.path, response: productSchema }),
};
