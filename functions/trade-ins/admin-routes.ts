import { Hono } from 'hono';
import { z } from 'zod';
import {
  adminTradeInApi,
  adminTradeInQuerySchema,
  moveTradeInSchema,
} from '../../src/features/trade-ins/admin/admin-trade-in-api.ts';
import { tradeInReferenceSchema } from '../../src/features/trade-ins/trade-in.ts';
import { MAX_TRADE_IN_PHOTOS } from '../../src/features/trade-ins/trade-in.ts';
import { listTradeIns, moveTradeInAsAdmin, tradeInDetail, tradeInPhoto } from './admin.ts';
import type { SignedInEnv } from '../accounts/session.ts';
import { deliverEmailsLater } from '../platform/outbox.ts';
import { reply } from '../platform/reply.ts';
import { validate } from '../platform/validate.ts';
import { at } from '../platform/routing.ts';

const referenceParam = z.object({ reference: tradeInReferenceSchema });
const photoParam = referenceParam.extend({
  index: z.coerce
    .number()
    .int()
    .min(1, 'Photos are numbered from 1')
    .max(MAX_TRADE_IN_PHOTOS, `At most ${MAX_TRADE_IN_PHOTOS} photos`),
});

/** Where the admin router mounts this one (functions/admin/routes.ts): each route's path is its contract's (src/features/trade-ins/admin/admin-trade-in-api.ts). */
export const ADMIN_TRADE_INS_BASE = '/api/admin/trade-ins';

/** /api/admin/trade-ins (behind requireAdmin): the queue, one request with its photos, and the admin's moves. */
export const adminTradeInsRoute = new Hono<SignedInEnv>()
  .get(at(ADMIN_TRADE_INS_BASE, adminTradeInApi.tradeIns), validate('query', adminTradeInQuerySchema), async (c) =>
    reply(c, adminTradeInApi.tradeIns, await listTradeIns(c.var.db, c.req.valid('query'))),
  )
  .get(at(ADMIN_TRADE_INS_BASE, adminTradeInApi.tradeIn), validate('param', referenceParam), async (c) =>
    reply(c, adminTradeInApi.tradeIn, await tradeInDetail(c.var.db, c.req.valid('param').reference)),
  )
  .get(at(ADMIN_TRADE_INS_BASE, adminTradeInApi.tradeInPhoto), validate('param', photoParam), async (c) => {
    const { reference, index } = c.req.valid('param');
    return tradeInPhoto(c.var.db, c.env.IMAGES, reference, index);
  })
  .post(
    at(ADMIN_TRADE_INS_BASE, adminTradeInApi.moveTradeIn),
    validate('param', referenceParam),
    validate('json', moveTradeInSchema),
    async (c) => {
      const detail = await moveTradeInAsAdmin(
        c.var.db,
        c.var.config,
        c.var.user,
        c.req.valid('param').reference,
        c.req.valid('json'),
      );
      deliverEmailsLater(c);
      return reply(c, adminTradeInApi.moveTradeIn, detail);
    },
  );
