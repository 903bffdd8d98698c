import type { Context } from 'hono';
import { z } from 'zod';
import { tradeInRequestSchema, tradeInReferenceSchema } from '../../src/features/trade-ins/trade-in.ts';
import { tradeInApi } from '../../src/features/trade-ins/trade-in-api.ts';
import { sessionUser } from '../accounts/session.ts';
import { deliverEmailsLater } from '../platform/outbox.ts';
import { createRouter, type AppEnv } from '../platform/app.ts';
import { invalidRequest } from '../platform/errors.ts';
import { rateLimit } from '../platform/rate-limit.ts';
import { reply } from '../platform/reply.ts';
import { noteReference } from '../platform/request-log.ts';
import { validate } from '../platform/validate.ts';
import { findForRequester } from './find.ts';
import { placeSwapOrder } from './order.ts';
import { replyPlaced } from '../orders/reply.ts';
import { respondToOffer } from './respond.ts';
import { readSubmission, submissionBytes } from './photos.ts';
import { holdUploadBytes } from '../platform/upload-budget.ts';
import { submitTradeIn } from './submit.ts';
import { loadTradeInView } from './view.ts';
import { at } from '../platform/routing.ts';

const PRIVATE = { 'cache-control': 'no-store' };
const referenceParam = z.object({ reference: tradeInReferenceSchema });

/** Per client: sending requests (each may carry 8 MB of photos), looking them up and answering offers, placing swap orders. */
const limited = {
  submit: rateLimit({ name: 'trade_ins.submit', rule: (config) => config.RATE_LIMIT_TRADE_IN }),
  lookup: rateLimit({ name: 'trade_ins.lookup', rule: (config) => config.RATE_LIMIT_LOOKUP }),
  order: rateLimit({ name: 'orders.place', rule: (config) => config.RATE_LIMIT_PLACE_ORDER }),
};

/** Where the shopper's trade-in routes are mounted (functions/index.ts): each route's path is its contract's (src/features/trade-ins/trade-in-api.ts). */
export const TRADE_INS_BASE = '/api/trade-ins';

/**
 * /api/trade-ins: a shopper's trade-in requests (sell or swap a device). Sent as a guest or
 * signed in; found again by reference and e-mail, or on the account's Trade-ins page; the
 * store's offer is answered here, and an accepted swap becomes an order.
 */
export const tradeInsRoute = createRouter()
  // multipart/form-data: the fields as JSON in `request`, photos in `photos` (functions/trade-ins/photos.ts).
  // The photos are held in memory until they are in R2: each submission holds its size of the
  // isolate's upload budget meanwhile, and past the budget is told to try again (503).
  .post(at(TRADE_INS_BASE, tradeInApi.submit), limited.submit, async (c) => {
    const release = holdUploadBytes(c, submissionBytes(c.req.raw));
    try {
      const { fields, photos } = await readSubmission(c.req.raw);
      const parsed = tradeInRequestSchema.safeParse(fields);
      if (!parsed.success) throw invalidRequest(parsed.error);
      const user = await sessionUser(c);
      const tradeIn = await submitTradeIn(c.var.db, c.env.IMAGES, c.var.config, parsed.data, photos, user?.id ?? null);
      noteReference(c, tradeIn.reference);
      deliverEmailsLater(c);
      return reply(c, tradeInApi.submit, { tradeIn }, 201, PRIVATE);
    } finally {
      release();
    }
  })
  .post(at(TRADE_INS_BASE, tradeInApi.lookup), limited.lookup, validate('json', tradeInApi.lookup.body), async (c) => {
    const { reference, email } = c.req.valid('json');
    noteReference(c, reference);
    const row = await findForRequester(c.var.db, c.var.config, reference, { email });
    return reply(c, tradeInApi.lookup, { tradeIn: await loadTradeInView(c.var.db, row) }, 200, PRIVATE);
  })
  .post(
    at(TRADE_INS_BASE, tradeInApi.respond),
    limited.lookup,
    validate('param', referenceParam),
    validate('json', tradeInApi.respond.body),
    (c) => respond(c, c.req.valid('param').reference, c.req.valid('json')),
  )
  .post(
    at(TRADE_INS_BASE, tradeInApi.order),
    limited.order,
    validate('param', referenceParam),
    validate('json', tradeInApi.order.body),
    async (c) => {
      const body = c.req.valid('json');
      const user = await sessionUser(c);
      const row = await findForRequester(c.var.db, c.var.config, c.req.valid('param').reference, { user, email: body.email });
      return replyPlaced(c, await placeSwapOrder(c.var.db, c.var.config, row, body, user));
    },
  );

/** The requester's answer to the offer they saw (functions/trade-ins/respond.ts). */
async function respond(c: Context<AppEnv>, reference: string, { email, ...answer }: z.output<typeof tradeInApi.respond.body>) {
  const user = await sessionUser(c);
  const row = await findForRequester(c.var.db, c.var.config, reference, { user, email });
  const answered = await respondToOffer(c.var.db, c.var.config, row, answer, user?.id ?? null);
  if (answered.moved) deliverEmailsLater(c);
  return reply(c, tradeInApi.respond, { tradeIn: answered.tradeIn }, 200, PRIVATE);
}
