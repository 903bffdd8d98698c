import { z } from 'zod';
import { endpoint } from '../../lib/api-contract.ts';
import { customerFields, customerSchema, placeOrderSchema } from '../orders/checkout.ts';
import { placedOrderSchema } from '../orders/order-view.ts';
import {
  tradeInAnswerSchema,
  tradeInLookupSchema,
  tradeInRequestSchema,
  tradeInResponseSchema,
  tradeInViewSchema,
} from './trade-in.ts';

/**
 * POST /api/trade-ins/:reference/order: an accepted swap becomes an order for the chosen
 * product, with the agreed value as a credit; the Worker prices it (the product's price now,
 * the delivery fee, minus the credit). The details are the checkout's.
 */
export const tradeInOrderSchema = z.object({
  email: customerFields.email.optional(),
  idempotencyKey: placeOrderSchema.shape.idempotencyKey,
  customer: customerSchema,
  /** The product's price (kobo) the shopper saw: a different one now is refused with 409 `price_changed`. */
  price: z.number().int().positive().optional(),
});

/** The shopper's trade-in API (src/lib/api-contract.ts). */
export const tradeInApi = {
  /**
   * multipart/form-data, not JSON: a `request` part holding the form's fields as JSON
   * (`body`, validated as such) and up to 4 `photos` parts. 201 with the stored request.
   */
  submit: endpoint({ method: 'POST', path: '/api/trade-ins', body: tradeInRequestSchema, response: tradeInAnswerSchema }),
  /** A guest's lookup by reference and the request's e-mail (a wrong pair is 404, like an unknown reference). */
  lookup: endpoint({ method: 'POST', path: '/api/trade-ins/lookup', body: tradeInLookupSchema, response: tradeInAnswerSchema }),
  /** The requester accepts or declines the store's offer (signed in as its owner, or with its e-mail). */
  respond: endpoint({
    method: 'POST',
    path: '/api/trade-ins/:reference/respond',
    body: tradeInResponseSchema,
    response: tradeInAnswerSchema,
  }),
  /** The requester turns an accepted swap into an order (same proof as respond). */
  order: endpoint({
    method: 'POST',
    path: '/api/trade-ins/:reference/order',
    body: tradeInOrderSchema,
    response: placedOrderSchema,
  }),
  /** The signed-in shopper's requests, newest first. */
  mine: endpoint({
    method: 'GET',
    path: '/api/account/trade-ins',
    response: z.object({ tradeIns: z.array(tradeInViewSchema) }),
  }),
};
