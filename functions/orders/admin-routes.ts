import { Hono, type Context } from 'hono';
import { z } from 'zod';
import {
  adminOrderApi,
  adminOrderQuerySchema,
  cancelOrderSchema,
  confirmPaymentSchema,
  deliverOrderSchema,
  shipOrderSchema,
} from '../../src/features/orders/admin/admin-order-api.ts';
import { orderLookupSchema } from '../../src/features/orders/checkout.ts';
import { listOrders, moveOrder, orderDetail } from './admin.ts';
import type { AdminMove } from './admin-moves.ts';
import type { SignedInEnv } from '../accounts/session.ts';
import { deliverEmailsLater } from '../platform/outbox.ts';
import { reply } from '../platform/reply.ts';
import { validate } from '../platform/validate.ts';
import { at } from '../platform/routing.ts';

const numberParam = validate('param', z.object({ number: orderLookupSchema.shape.number }));

/** The admin's moves' contracts: each answers with the order as it now is. */
type MoveEndpoint = (typeof adminOrderApi)['confirmPayment' | 'ship' | 'deliver' | 'cancel'];

/** An admin's move on the order `number` (functions/orders/admin.ts), its e-mail sent after the answer. */
async function move(c: Context<SignedInEnv>, endpoint: MoveEndpoint, number: string, action: AdminMove) {
  const detail = await moveOrder(c.var.db, c.var.config, c.var.user, number, action);
  deliverEmailsLater(c);
  return reply(c, endpoint, detail);
}

/** Where the admin router mounts this one (functions/admin/routes.ts): each route's path is its contract's (src/features/orders/admin/admin-order-api.ts). */
export const ADMIN_ORDERS_BASE = '/api/admin/orders';

/**
 * /api/admin/orders (behind requireAdmin, functions/admin/routes.ts): the list, one
 * order, and the admin's moves, each made on the version the admin loaded (409
 * `order_changed` otherwise) and answered with the order as it now is.
 */
export const adminOrdersRoute = new Hono<SignedInEnv>()
  .get(at(ADMIN_ORDERS_BASE, adminOrderApi.orders), validate('query', adminOrderQuerySchema), async (c) =>
    reply(c, adminOrderApi.orders, await listOrders(c.var.db, c.var.config, c.req.valid('query'))),
  )
  .get(at(ADMIN_ORDERS_BASE, adminOrderApi.order), numberParam, async (c) =>
    reply(c, adminOrderApi.order, await orderDetail(c.var.db, c.var.config, c.req.valid('param').number)),
  )
  .post(at(ADMIN_ORDERS_BASE, adminOrderApi.confirmPayment), numberParam, validate('json', confirmPaymentSchema), (c) =>
    move(c, adminOrderApi.confirmPayment, c.req.valid('param').number, { action: 'confirm_payment', body: c.req.valid('json') }),
  )
  .post(at(ADMIN_ORDERS_BASE, adminOrderApi.ship), numberParam, validate('json', shipOrderSchema), (c) =>
    move(c, adminOrderApi.ship, c.req.valid('param').number, { action: 'ship', body: c.req.valid('json') }),
  )
  .post(at(ADMIN_ORDERS_BASE, adminOrderApi.deliver), numberParam, validate('json', deliverOrderSchema), (c) =>
    move(c, adminOrderApi.deliver, c.req.valid('param').number, { action: 'deliver', body: c.req.valid('json') }),
  )
  .post(at(ADMIN_ORDERS_BASE, adminOrderApi.cancel), numberParam, validate('json', cancelOrderSchema), (c) =>
    move(c, adminOrderApi.cancel, c.req.valid('param').number, { action: 'cancel', body: c.req.valid('json') }),
  );
