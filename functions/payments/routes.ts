import { eq } from 'drizzle-orm';
import type { Context } from 'hono';
import { paymentApi, providerParamSchema } from '../../src/features/payments/payment-api.ts';
import { type AppEnv, createRouter } from '../platform/app.ts';
import { ApiError } from '../platform/errors.ts';
import { deliverEmailsLater } from '../platform/outbox.ts';
import { orders, paymentAccounts } from '../platform/schema.ts';
import { reply } from '../platform/reply.ts';
import { noteReference } from '../platform/request-log.ts';
import { at } from '../platform/routing.ts';
import { validate } from '../platform/validate.ts';
import { applyProviderPayment } from './apply.ts';
import { standinPay } from './paystack-standin.ts';
import { paymentProvider, standinSecretKey } from './providers.ts';

/** Where the payments routes are mounted (functions/index.ts). */
export const PAYMENTS_BASE = '/api/payments';
export const PAYSTACK_STANDIN_BASE = '/api/test/paystack';

/**
 * A provider's webhook delivery (decision 023): the signature is checked over the raw bytes, in
 * constant time, before anything is parsed (a forged or altered delivery is a 401 and reads
 * nothing); then the payment it reports is applied once (functions/payments/apply.ts). Any
 * other event is acknowledged and ignored. Providers retry anything but a 2xx, so a delivery
 * the store could not apply (D1 down) is answered 5xx on purpose and comes again.
 */
async function receiveWebhook(c: Context<AppEnv>, provider: 'paystack', request: Request) {
  const configured = paymentProvider(c.var.config);
  if (!configured || configured.id !== provider) {
    throw new ApiError(404, 'not_found', `No payment provider "${provider}" is configured here.`);
  }
  const raw = await request.arrayBuffer();
  if (!(await configured.verifyWebhook(raw, request.headers))) {
    throw new ApiError(401, 'invalid_signature', 'The webhook signature does not match its body.');
  }
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(raw));
  } catch {
    throw new ApiError(400, 'invalid_request', 'The webhook body is not JSON.', [
      { field: '(body)', message: 'The webhook body is not JSON.' },
    ]);
  }
  const payment = configured.paymentIn(body);
  if (!payment) return { received: true as const, ignored: true };
  const applied = await applyProviderPayment(c.var.db, c.var.config, provider, payment, 'webhook');
  if (applied.orderNumber) noteReference(c, applied.orderNumber);
  // A payment that moved its order queued the shopper's e-mail ("paid"): send it now, after the
  // answer, as the shopper's and the admin's moves do, not at the cron's next run.
  if (!applied.duplicate) deliverEmailsLater(c);
  return { received: true as const, duplicate: applied.duplicate, outcome: applied.outcome };
}

export const paymentsRoute = createRouter().post(
  at(PAYMENTS_BASE, paymentApi.webhook),
  validate('param', providerParamSchema),
  async (c) => {
    const { provider } = c.req.valid('param');
    return reply(c, paymentApi.webhook, await receiveWebhook(c, provider, c.req.raw), 200);
  },
);

/**
 * LOCAL RUNS AND TESTS ONLY (404 unless PAYMENTS_STANDIN=true): "pay" an order's account at the
 * stand-in provider. The stand-in records the transfer and signs the `charge.success` delivery
 * Paystack would send; unless `deliver` is false (a webhook that never arrives), it goes to the
 * webhook's own handler as a request, signature and raw body included.
 */
export const paystackStandinRoute = createRouter().post(
  at(PAYSTACK_STANDIN_BASE, paymentApi.standinPay),
  validate('json', paymentApi.standinPay.body),
  async (c) => {
    if (!c.var.config.PAYMENTS_STANDIN) throw new ApiError(404, 'not_found', `There is no API route for POST ${c.req.path}.`);
    const body = c.req.valid('json');
    let { accountNumber, amountKobo } = body;
    if (body.orderNumber) {
      // The order's own account, and by default what it still owes.
      const [found] = await c.var.db
        .select({ accountNumber: paymentAccounts.accountNumber, total: orders.total, paid: orders.amountPaid })
        .from(orders)
        .innerJoin(paymentAccounts, eq(paymentAccounts.orderId, orders.id))
        .where(eq(orders.number, body.orderNumber.toUpperCase()))
        .limit(1);
      if (!found) {
        throw new ApiError(400, 'invalid_request', 'The request is not valid: check orderNumber.', [
          { field: 'orderNumber', message: 'No order with its own account has this number' },
        ]);
      }
      accountNumber = found.accountNumber;
      amountKobo ??= Math.max(1, found.total - found.paid);
    }
    const amount = amountKobo ?? 1;
    const {
      transaction,
      body: delivery,
      signature,
    } = await standinPay(standinSecretKey(c.var.config), { accountNumber, reference: body.reference, amount });
    const webhook = body.deliver
      ? await receiveWebhook(
          c,
          'paystack',
          new Request(new URL('/api/payments/webhook/paystack', c.req.url), {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-paystack-signature': signature },
            body: delivery,
          }),
        )
      : null;
    const answer = { transactionId: String(transaction.id), accountNumber: accountNumber ?? null, amountKobo: amount };
    return reply(c, paymentApi.standinPay, { ...answer, delivered: body.deliver, webhook }, 200);
  },
);
