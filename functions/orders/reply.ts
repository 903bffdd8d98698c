import type { Context } from 'hono';
import { orderApi } from '../../src/features/orders/order-api.ts';
import { noteReference } from '../platform/request-log.ts';
import type { AppEnv } from '../platform/app.ts';
import { deliverEmailsLater } from '../platform/outbox.ts';
import { reply } from '../platform/reply.ts';
import type { PlacedOrderResult } from './place.ts';

/**
 * The answer to an order just placed (a cart's in functions/orders/routes.ts, a swap's in
 * functions/trade-ins/routes.ts): 201 with the order and its access token, 200 with the same
 * for a retried key; the confirmation e-mail goes after the answer. Both endpoints answer
 * placedOrderSchema, so both routers reply through this one function.
 */
export function replyPlaced(c: Context<AppEnv>, placed: PlacedOrderResult) {
  noteReference(c, placed.order.number);
  if (placed.created) deliverEmailsLater(c);
  const body = { order: placed.order, accessToken: placed.accessToken };
  return reply(c, orderApi.place, body, placed.created ? 201 : 200, { 'cache-control': 'no-store' });
}
