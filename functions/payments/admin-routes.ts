import { Hono } from 'hono';
import { z } from 'zod';
import {
  adminPaymentApi,
  adminPaymentQuerySchema,
  attachPaymentSchema,
  resolvePaymentSchema,
} from '../../src/features/payments/admin/admin-payment-api.ts';
import type { SignedInEnv } from '../accounts/session.ts';
import { deliverEmailsLater } from '../platform/outbox.ts';
import { reply } from '../platform/reply.ts';
import { at } from '../platform/routing.ts';
import { validate } from '../platform/validate.ts';
import { attachPayment, listPayments, resolvePayment } from './admin.ts';

/** Where the admin router mounts this one (functions/admin/routes.ts). */
export const ADMIN_PAYMENTS_BASE = '/api/admin/payments';

const idParam = validate('param', z.object({ id: z.uuid('Must be a payment id') }));

/**
 * /api/admin/payments (behind requireAdmin): what the payment provider reported, the ones that
 * wait for a person, attaching an unmatched payment to its order, and marking one dealt with.
 */
export const adminPaymentsRoute = new Hono<SignedInEnv>()
  .get(at(ADMIN_PAYMENTS_BASE, adminPaymentApi.payments), validate('query', adminPaymentQuerySchema), async (c) =>
    reply(c, adminPaymentApi.payments, await listPayments(c.var.db, c.req.valid('query'))),
  )
  .post(at(ADMIN_PAYMENTS_BASE, adminPaymentApi.attachPayment), idParam, validate('json', attachPaymentSchema), async (c) => {
    const payment = await attachPayment(c.var.db, c.var.config, c.var.user, c.req.valid('param').id, c.req.valid('json'));
    // Attaching may pay the order: its e-mail goes after the answer.
    deliverEmailsLater(c);
    return reply(c, adminPaymentApi.attachPayment, payment);
  })
  .post(at(ADMIN_PAYMENTS_BASE, adminPaymentApi.resolvePayment), idParam, validate('json', resolvePaymentSchema), async (c) => {
    const payment = await resolvePayment(c.var.db, c.var.config, c.var.user, c.req.valid('param').id, c.req.valid('json'));
    // A refund sent is e-mailed to the shopper: after the answer.
    deliverEmailsLater(c);
    return reply(c, adminPaymentApi.resolvePayment, payment);
  });
