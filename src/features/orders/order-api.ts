import { z } from 'zod';
import { endpoint } from '../../lib/api-contract.ts';
import { orderLookupSchema, placeOrderSchema, quoteSchema } from './checkout.ts';
import { orderViewSchema, placedOrderSchema } from './order-view.ts';
import { quoteResultSchema } from './pricing.ts';

/** The order API's answer about one order. */
export const orderAnswerSchema = z.object({ order: orderViewSchema });

/** The order API's contract (see src/lib/api-contract.ts). */
export const orderApi = {
  /** Places an order: 201 with the order and its access token; 200 with the same for a retried key. */
  place: endpoint({ method: 'POST', path: '/api/orders', body: placeOrderSchema, response: placedOrderSchema }),
  /** The cart's live check: each line priced from D1 with what (if anything) stops it. */
  quote: endpoint({ method: 'POST', path: '/api/orders/quote', body: quoteSchema, response: quoteResultSchema }),
  /** A guest's lookup by order number and checkout e-mail. */
  lookup: endpoint({ method: 'POST', path: '/api/orders/lookup', body: orderLookupSchema, response: orderAnswerSchema }),
  /** The order, for the browser holding its access token (`Authorization: Bearer`). */
  get: endpoint({ method: 'GET', path: '/api/orders/:number', response: orderAnswerSchema }),
  /** 'I Have Made Payment', by the browser holding the order's access token (`Authorization: Bearer`). */
  reportPayment: endpoint({ method: 'POST', path: '/api/orders/:number/payment-report', response: orderAnswerSchema }),
  /** The shopper drops an unpaid order (same token). */
  cancel: endpoint({ method: 'POST', path: '/api/orders/:number/cancel', response: orderAnswerSchema }),
};
