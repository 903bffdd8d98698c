import type { Context } from 'hono';
import { orderLookupSchema } from '../../src/features/orders/checkout.ts';
import { orderApi } from '../../src/features/orders/order-api.ts';
import { sessionUser } from '../accounts/session.ts';
import { deliverEmailsLater } from '../platform/outbox.ts';
import { findOrderForAccount, findOrderForToken, LOOKUP_LIMIT, lookUpGuestOrder } from './find.ts';
import { placeOrder } from './place.ts';
import { replyPlaced } from './reply.ts';
import { moveForShopper, type ShopperMove } from './shopper-moves.ts';
import { quoteCart } from './quote.ts';
import { loadOrderView } from './view.ts';
import { createRouter, type AppEnv } from '../platform/app.ts';
import { ApiError, RetryLater } from '../platform/errors.ts';
import { limitClient, rateLimit } from '../platform/rate-limit.ts';
import { reply } from '../platform/reply.ts';
import { noteReference } from '../platform/request-log.ts';
import { validate } from '../platform/validate.ts';
import { z } from 'zod';
import { at } from '../platform/routing.ts';
import type { OrderRow } from '../platform/schema.ts';

const PRIVATE = { 'cache-control': 'no-store' };

/** The browser that placed an order proves it with `Authorization: Bearer <accessToken>`. */
function bearerToken(c: Context<AppEnv>): string {
  const match = /^Bearer ([A-Za-z0-9_-]{20,200})$/.exec(c.req.header('authorization') ?? '');
  if (!match) throw new ApiError(401, 'unauthorized', "This order's access token is missing.");
  return match[1]!;
}

const orderNumberParam = z.object({ number: orderLookupSchema.shape.number });

/**
 * Per-client limits (functions/platform/rate-limit.ts), from the config so local servers and
 * tests can set their own: placing, reporting and looking up orders are what a script
 * would repeat; the cart's quote runs on every cart change, so it gets far more room.
 * Cancelling is not limited: it only ever gives stock back.
 */
const limited = {
  place: rateLimit({ name: 'orders.place', rule: (config) => config.RATE_LIMIT_PLACE_ORDER }),
  quote: rateLimit({ name: 'orders.quote', rule: (config) => config.RATE_LIMIT_QUOTE }),
  lookup: rateLimit({ name: LOOKUP_LIMIT, rule: (config) => config.RATE_LIMIT_LOOKUP }),
  reportPayment: rateLimit({ name: 'orders.payment_report', rule: (config) => config.RATE_LIMIT_PAYMENT_REPORT }),
};

/** Where the shopper's order routes are mounted (functions/index.ts): each route's path is its contract's (src/features/orders/order-api.ts). */
export const ORDERS_BASE = '/api/orders';

export const ordersRoute = createRouter()
  // Places an order: 201 with the order and its access token; 200 with the same for a retried key.
  .post(at(ORDERS_BASE, orderApi.place), limited.place, validate('json', orderApi.place.body), async (c) => {
    // Signed in: the order belongs to the account (a guest's order joins one once its address is verified).
    const user = await sessionUser(c);
    return replyPlaced(c, await placeOrder(c.var.db, c.var.config, c.req.valid('json'), undefined, user));
  })
  // The cart's live check: each line priced from D1 with what (if anything) stops it.
  .post(at(ORDERS_BASE, orderApi.quote), limited.quote, validate('json', orderApi.quote.body), async (c) => {
    return reply(c, orderApi.quote, await quoteCart(c.var.db, c.var.config, c.req.valid('json').lines), 200, PRIVATE);
  })
  // A guest's tracking lookup by order number and checkout e-mail (a POST keeps the e-mail out of URLs and logs).
  .post(at(ORDERS_BASE, orderApi.lookup), limited.lookup, validate('json', orderApi.lookup.body), async (c) => {
    const lookup = c.req.valid('json');
    noteReference(c, lookup.number);
    return reply(c, orderApi.lookup, { order: await lookUpGuestOrder(c.var.db, c.var.config, lookup) }, 200, PRIVATE);
  })
  // The order as the browser that placed it sees it: the cart's "Continue to payment", and the
  // checkout asking every few seconds while the shopper pays. Only a request that fails (a wrong
  // number or token) counts under the lookup limit, with /track's lookups: a shopper who takes
  // ten minutes over the transfer is never refused their own order, however many shoppers share
  // their address. Its token comes from a random key of the browser's (122 bits: decision 005);
  // wrong ones count here and on report and cancel alike (orderForToken).
  .get(at(ORDERS_BASE, orderApi.get), validate('param', orderNumberParam), async (c) => {
    const order = await orderForToken(c, c.req.valid('param').number);
    return reply(c, orderApi.get, { order: await loadOrderView(c.var.db, c.var.config, order) }, 200, PRIVATE);
  })
  // 'I Have Made Payment': only the browser holding the order's access token may report it.
  .post(at(ORDERS_BASE, orderApi.reportPayment), limited.reportPayment, validate('param', orderNumberParam), (c) =>
    shopperMove(c, c.req.valid('param').number, 'report_payment'),
  )
  // The shopper drops an order they have not paid for (the checkout does this when a changed
  // cart replaces it), so its stock goes back on sale at once instead of after the hold time.
  .post(at(ORDERS_BASE, orderApi.cancel), validate('param', orderNumberParam), (c) =>
    shopperMove(c, c.req.valid('param').number, 'cancel', 'Cancelled by the shopper'),
  );

/**
 * A move the shopper asks for (functions/orders/shopper-moves.ts): by the browser holding the
 * order's token, or, without one, by the signed-in account the order belongs to.
 */
async function shopperMove(c: Context<AppEnv>, number: string, event: ShopperMove, note?: string) {
  const { db, config } = c.var;
  const user = await sessionUser(c);
  const order =
    user && c.req.header('authorization') === undefined
      ? await findOrderForAccount(db, config, number, user.id)
      : await orderForToken(c, number);
  const after = await moveForShopper(db, config, order, event, user?.id ?? null, note);
  if (after.moved) deliverEmailsLater(c);
  const endpoint = event === 'report_payment' ? orderApi.reportPayment : orderApi.cancel;
  return reply(c, endpoint, { order: await loadOrderView(db, config, after.order) }, 200, PRIVATE);
}

/**
 * The order the request's token opens (GET, report, cancel). A wrong number or token counts under
 * the lookup limit, per client and with /track's lookups; past it the answer is 429 for this
 * client's next wrong guesses, so what there is to guess is stopped after RATE_LIMIT_LOOKUP
 * failures on every route that takes a token.
 */
async function orderForToken(c: Context<AppEnv>, number: string): Promise<OrderRow> {
  const { db, config } = c.var;
  try {
    return await findOrderForToken(db, config, number, bearerToken(c));
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'order_not_found')) throw error;
    const limited = await limitClient(db, LOOKUP_LIMIT, c.req.header('cf-connecting-ip'), config.RATE_LIMIT_LOOKUP);
    if (!limited.allowed) throw new RetryLater(limited.retryAfterSeconds, limited.message);
    throw error;
  }
}
