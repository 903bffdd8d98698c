import type { Context } from 'hono';
import { orderLookupSchema, placeOrderSchema, quoteSchema } from '../../src/features/orders/checkout.ts';
import { deliverPendingEmails } from '../email/outbox.ts';
import { changeOrderStatus, findGuestOrder, findOrderForToken, loadOrderView, placeOrder, quoteLines } from '../orders/orders.ts';
import { createRouter, type AppEnv } from '../lib/app.ts';
import { ApiError } from '../lib/errors.ts';
import { validate } from '../lib/validate.ts';
import { z } from 'zod';

const PRIVATE = { 'cache-control': 'no-store' };

/** Sends what the request queued after the response, without making the shopper wait. */
function deliverEmailsLater(c: Context<AppEnv>) {
  c.executionCtx.waitUntil(
    deliverPendingEmails(c.var.db, c.var.config).catch((err: unknown) => console.error('E-mail delivery failed', err)),
  );
}

/** The browser that placed an order proves it with `Authorization: Bearer <accessToken>`. */
function bearerToken(c: Context<AppEnv>): string {
  const match = /^Bearer ([A-Za-z0-9_-]{20,200})$/.exec(c.req.header('authorization') ?? '');
  if (!match) throw new ApiError(401, 'unauthorized', "This order's access token is missing.");
  return match[1]!;
}

const orderNumberParam = z.object({ number: orderLookupSchema.shape.number });

export const ordersRoute = createRouter()
  // Places an order: 201 with the order and its access token; 200 with the same for a retried key.
  .post('/', validate('json', placeOrderSchema), async (c) => {
    const placed = await placeOrder(c.var.db, c.var.config, c.req.valid('json'));
    if (placed.created) deliverEmailsLater(c);
    return c.json({ order: placed.order, accessToken: placed.accessToken }, placed.created ? 201 : 200, PRIVATE);
  })
  // The cart's live check: each line priced from D1 with what (if anything) stops it.
  .post('/quote', validate('json', quoteSchema), async (c) => {
    return c.json(await quoteLines(c.var.db, c.req.valid('json').lines), 200, PRIVATE);
  })
  // A guest's tracking lookup by order number and checkout e-mail (a POST keeps the e-mail out of URLs and logs).
  .post('/lookup', validate('json', orderLookupSchema), async (c) => {
    const { number, email } = c.req.valid('json');
    const order = await findGuestOrder(c.var.db, c.var.config, number, email);
    return c.json({ order: await loadOrderView(c.var.db, c.var.config, order) }, 200, PRIVATE);
  })
  // 'I Have Made Payment': only the browser holding the order's access token may report it.
  .post('/:number/payment-report', validate('param', orderNumberParam), (c) => moveForShopper(c, c.req.valid('param').number, 'report_payment'))
  // The shopper drops an order they have not paid for (the checkout does this when a changed
  // cart replaces it), so its stock goes back on sale at once instead of after the hold time.
  .post('/:number/cancel', validate('param', orderNumberParam), (c) => moveForShopper(c, c.req.valid('param').number, 'cancel', 'Cancelled by the shopper'));

/**
 * A move the browser holding the order's token asks for. Asking again for a move already
 * made (a retry after a lost answer) gets the order as it is, not an error.
 */
async function moveForShopper(c: Context<AppEnv>, number: string, event: 'report_payment' | 'cancel', note?: string) {
  const { db, config } = c.var;
  const order = await findOrderForToken(db, config, number, bearerToken(c));
  const done = event === 'report_payment' ? 'payment_reported' : 'cancelled';
  if (order.status === done) return c.json({ order: await loadOrderView(db, config, order) }, 200, PRIVATE);
  const moved = await changeOrderStatus(db, config, order, event, 'customer', { note });
  deliverEmailsLater(c);
  return c.json({ order: await loadOrderView(db, config, moved) }, 200, PRIVATE);
}
