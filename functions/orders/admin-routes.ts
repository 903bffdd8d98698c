import { Hono, type Context } from 'hono';
import { z } from 'zod';
import {
  adminApi,
  adminOrderQuerySchema,
  cancelOrderSchema,
  confirmPaymentSchema,
  deliverOrderSchema,
  shipOrderSchema,
} from '../../src/features/admin/admin-api.ts';
import { orderLookupSchema } from '../../src/features/orders/checkout.ts';
import { listOrders, moveOrderAsAdmin, orderDetail, type AdminMove } from './admin.ts';
import type { SignedInEnv } from '../accounts/session.ts';
import { deliverEmailsLater } from '../platform/outbox.ts';
import { reply } from '../platform/reply.ts';
import { validate } from '../platform/validate.ts';

const numberParam = z.object({ number: orderLookupSchema.shape.number });

async function move(c: Context<SignedInEnv>, number: string, action: AdminMove) {
  const detail = await moveOrderAsAdmin(c.var.db, c.var.config, c.var.user, number, action);
  deliverEmailsLater(c);
  return detail;
}

/**
 * /api/admin/orders (behind requireAdmin, functions/admin/routes.ts): the list, one
 * order, and the admin's moves, each made on the version the admin loaded (409
 * `order_changed` otherwise) and answered with the order as it now is.
 */
export const adminOrdersRoute = new Hono<SignedInEnv>()
  .get('/', validate('query', adminOrderQuerySchema), async (c) =>
    reply(c, adminApi.orders, await listOrders(c.var.db, c.var.config, c.req.valid('query'))),
  )
  .get('/:number', validate('param', numberParam), async (c) =>
    reply(c, adminApi.order, await orderDetail(c.var.db, c.var.config, c.req.valid('param').number)),
  )
  .post('/:number/confirm-payment', validate('param', numberParam), validate('json', confirmPaymentSchema), async (c) => {
    const body = c.req.valid('json');
    return reply(c, adminApi.confirmPayment, await move(c, c.req.valid('param').number, { action: 'confirm_payment', body }));
  })
  .post('/:number/ship', validate('param', numberParam), validate('json', shipOrderSchema), async (c) => {
    const body = c.req.valid('json');
    return reply(c, adminApi.ship, await move(c, c.req.valid('param').number, { action: 'ship', body }));
  })
  .post('/:number/deliver', validate('param', numberParam), validate('json', deliverOrderSchema), async (c) => {
    const body = c.req.valid('json');
    return reply(c, adminApi.deliver, await move(c, c.req.valid('param').number, { action: 'deliver', body }));
  })
  .post('/:number/cancel', validate('param', numberParam), validate('json', cancelOrderSchema), async (c) => {
    const body = c.req.valid('json');
    return reply(c, adminApi.cancel, await move(c, c.req.valid('param').number, { action: 'cancel', body }));
  });
