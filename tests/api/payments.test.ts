import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import worker, { api } from '../../functions/index.ts';
import { readConfig } from '../../functions/env.ts';
import { reconcilePayments } from '../../functions/payments/reconcile.ts';
import { openDb } from '../../functions/platform/db.ts';
import { adminPaymentListSchema, adminPaymentSchema } from '../../src/features/payments/admin/admin-payment-api.ts';
import { dashboardSchema } from '../../src/features/admin/admin-api.ts';
import { adminOrderDetailSchema } from '../../src/features/orders/admin/admin-order-api.ts';
import { type OrderView, orderViewSchema, placedOrderSchema, type PlacedOrder } from '../../src/features/orders/order-view.ts';
import { standinPayAnswerSchema, webhookAnswerSchema } from '../../src/features/payments/payment-api.ts';
import { signedInAdmin } from './admin-helpers.ts';
import type { Browser } from './account-helpers.ts';
import { postJson } from './client.ts';
import { chargeSuccess as chargeSuccessEvent, sign, unmatchedPayment } from './payment-helpers.ts';
import { emailsOf, eventsOf, line, makeOverdue, orderRequest, orderRow, setPrice, setStock, stockOf } from './orders-helpers.ts';
import { envWith } from './with-env.ts';
import { formatNaira } from '../../src/lib/money.ts';
import { formatLagosTime } from '../../src/lib/time.ts';

/**
 * Transfers that confirm themselves (decision 023): orders placed with a payment provider get
 * their own account; the provider's signed webhook pays them. The provider here is the real
 * Paystack adapter against the offline stand-in of its API (PAYMENTS_STANDIN), so the signed
 * deliveries below are exactly what Paystack would send.
 */
const PAY_ENV = envWith({ PAYMENTS_STANDIN: 'true' });
const PRODUCT = 'acer-nitro-v-15';

async function call(path: string, init: RequestInit = {}, callEnv: Env = PAY_ENV) {
  const ctx = createExecutionContext();
  const response = await api.fetch(new Request(`http://localhost:8787/api${path}`, init), callEnv, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

async function placeWithProvider(quantity = 1): Promise<PlacedOrder> {
  const response = await call('/orders', {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'http://localhost:8787' },
    body: JSON.stringify(orderRequest({ lines: [await line(PRODUCT, quantity)] })),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return placedOrderSchema.parse(await response.json());
}

/** A transfer into the order's own account at the stand-in: it signs and delivers the webhook. */
async function pay(accountNumber: string, amountKobo: number, deliver = true) {
  const response = await call('/test/paystack/pay', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ accountNumber, amountKobo, deliver }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return standinPayAnswerSchema.parse(await response.json());
}

/** A signed-ready delivery body (tests/api/payment-helpers.ts), as the bytes Paystack sends. */
const chargeSuccess = (accountNumber: string | null, amount: number, overrides: Record<string, unknown> = {}) =>
  JSON.stringify(chargeSuccessEvent(accountNumber, amount, overrides));

const webhook = (body: string, headers: Record<string, string>) =>
  call('/payments/webhook/paystack', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

async function deliver(body: string) {
  const response = await webhook(body, { 'x-paystack-signature': await sign(body) });
  expect(response.status, await response.clone().text()).toBe(200);
  return webhookAnswerSchema.parse(await response.json());
}

/** A move the browser that placed the order makes with its token ('I Have Made Payment', a cancel). */
function shopperMove(placed: PlacedOrder, move: 'payment-report' | 'cancel') {
  return call(`/orders/${placed.order.number}/${move}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${placed.accessToken}`,
      origin: 'http://localhost:8787',
      'content-type': 'application/json',
    },
    body: '{}',
  });
}

async function shopperView(placed: PlacedOrder) {
  const response = await call(`/orders/${placed.order.number}`, { headers: { authorization: `Bearer ${placed.accessToken}` } });
  expect(response.status).toBe(200);
  return orderViewSchema.parse((await response.json<{ order: unknown }>()).order);
}

async function paymentsOf(number: string) {
  const { results } = await env.DB.prepare(
    `select outcome, amount_kobo as amount, refund_kobo as refund from provider_payments
      where order_id = (select id from orders where number = ?) order by created_at, rowid`,
  )
    .bind(number)
    .all<{ outcome: string; amount: number; refund: number }>();
  return results;
}

const amountPaid = async (number: string) =>
  (await env.DB.prepare('select amount_paid_kobo as n from orders where number = ?').bind(number).first<{ n: number }>())!.n;

const countPayments = async () => (await env.DB.prepare('select count(*) as n from provider_payments').first<{ n: number }>())!.n;

/** The order's hold run out, and the cron's expiry job run on it (as twelve hours later). */
async function expire(number: string, secondsAgo?: number) {
  await makeOverdue(number, secondsAgo);
  await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: '*/10 * * * *' }), env);
}

let admin: { browser: Browser };
const startedAt = Date.now();
beforeAll(async () => {
  admin = await signedInAdmin();
  await setStock(PRODUCT, 200);
});

describe('an order with its own account', () => {
  it('shows the order its own account, for as long as it holds the stock, in the answer and the e-mail', async () => {
    const placed = await placeWithProvider();
    const payment = placed.order.payment!;
    expect(payment.ownAccount).toBe(true);
    expect(payment.accountNumber).toMatch(/^\d{10}$/);
    expect(payment.accountNumber).not.toBe('3081726354');
    expect(payment.bankName).toBe('Wema Bank (stand-in)');
    expect(payment.amount).toBe(placed.order.total);
    expect(payment.received).toBe(0);
    expect(payment.takesPaymentUntil).toBe(placed.order.expiresAt);
    const [confirmation] = await emailsOf(placed.order.number);
    expect(confirmation!.text).toContain(`Account number: ${payment.accountNumber}`);
    expect(confirmation!.text).toContain('This account is for this order only');
    // Another order, another account.
    const other = await placeWithProvider();
    expect(other.order.payment!.accountNumber).not.toBe(payment.accountNumber);

    // The shopper says they paid: the e-mail says the payment confirms itself, not that we check with our bank.
    const reported = await call(`/orders/${placed.order.number}/payment-report`, {
      method: 'POST',
      headers: { authorization: `Bearer ${placed.accessToken}`, origin: 'http://localhost:8787' },
    });
    expect(reported.status, await reported.clone().text()).toBe(200);
    const email = (await emailsOf(placed.order.number)).at(-1)!;
    expect(email.subject).toBe(
      `Your GTS order ${placed.order.number}: payment reported, waiting for the transfer to reach its account`,
    );
    expect(email.text).toContain("Your order is marked paid by itself as soon as the transfer reaches this order's account");
    expect(email.text).not.toContain('with our bank');
    expect(email.text).not.toContain('for us to confirm');
  });

  it('keeps the shared account when no provider is configured, and when the provider cannot be reached', async () => {
    const plain = await postJson('/orders', orderRequest({ lines: [await line(PRODUCT)] }));
    expect(plain.status).toBe(201);
    const shared = placedOrderSchema.parse(await plain.json()).order.payment!;
    expect(shared).toMatchObject({ accountNumber: '3081726354', ownAccount: false });

    // A real Paystack key, and Paystack out of reach (a name that resolves nowhere): the sale goes through.
    const down = envWith({ PAYSTACK_SECRET_KEY: 'sk_test_down', PAYSTACK_API_URL: 'https://api.paystack.invalid' });
    const response = await call(
      '/orders',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'http://localhost:8787' },
        body: JSON.stringify(orderRequest({ lines: [await line(PRODUCT)] })),
      },
      down,
    );
    expect(response.status).toBe(201);
    expect(placedOrderSchema.parse(await response.json()).order.payment).toMatchObject({
      accountNumber: '3081726354',
      ownAccount: false,
    });
  });
});

describe('the signed webhook', () => {
  it('pays the order when the full amount lands: status, history by the provider, e-mail, admin view', async () => {
    const placed = await placeWithProvider();
    const { accountNumber } = placed.order.payment!;
    const answer = await pay(accountNumber, placed.order.total);
    expect(answer.webhook).toMatchObject({ received: true, duplicate: false, outcome: 'paid' });
    expect((await orderRow(placed.order.number)).status).toBe('paid');
    expect((await eventsOf(placed.order.number)).at(-1)).toEqual({ from: 'awaiting_payment', to: 'paid', actor: 'provider' });
    const paidEmail = (await emailsOf(placed.order.number)).at(-1)!;
    expect(paidEmail.subject).toMatch(/paid|payment/i);
    // Sent with the webhook's answer, not left for the cron's next run (held: no e-mail API here).
    expect(paidEmail.status).not.toBe('pending');
    const view = await shopperView(placed);
    expect(view.status).toBe('paid');
    expect(view.payment).toBeNull();
    // Paid, it still says its payment confirmed itself: its history reads "waiting for the transfer", not "for us".
    expect(placed.order.paidIntoOwnAccount).toBe(true);
    expect(view.paidIntoOwnAccount).toBe(true);

    const detail = adminOrderDetailSchema.parse(await (await admin.browser.get(`/admin/orders/${placed.order.number}`)).json());
    expect(detail.payment).toMatchObject({ received: placed.order.total, confirmedBy: 'the payment provider (automatic)' });
    expect(detail.providerPayments).toEqual([
      expect.objectContaining({ amount: placed.order.total, outcome: 'paid', refund: 0 }),
    ]);
    expect(detail.history.at(-1)).toMatchObject({ to: 'paid', actor: 'provider' });
  });

  it('"pays" an order by its number at the stand-in (what `npm run pay` does): what it still owes, into its own account', async () => {
    const placed = await placeWithProvider();
    const part = await call('/test/paystack/pay', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orderNumber: placed.order.number, amountKobo: 1_000_000 }),
    });
    expect(standinPayAnswerSchema.parse(await part.json())).toMatchObject({
      accountNumber: placed.order.payment!.accountNumber,
      amountKobo: 1_000_000,
      webhook: { outcome: 'part' },
    });
    const rest = await call('/test/paystack/pay', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orderNumber: placed.order.number.toLowerCase() }),
    });
    const paid = standinPayAnswerSchema.parse(await rest.json());
    expect(paid).toMatchObject({ amountKobo: placed.order.total - 1_000_000, webhook: { outcome: 'paid' } });
    // Its transaction ids go on from the clock, read when paying (workerd's clock stands still at
    // a module's start): a server restarted on the same D1 does not hand out ids it recorded before.
    expect(Number(paid.transactionId)).toBeGreaterThanOrEqual(startedAt);
    const unknown = await call('/test/paystack/pay', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orderNumber: 'GTS-NOSUCHORDR' }),
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: { issues: [{ field: 'orderNumber' }] } });
  });

  it('an account number the provider hands to a later order (its temporary accounts are recycled): the order is placed, and a payment goes to the order it names', async () => {
    // A pool of one: every charge gets the same number, as a closed account is given to the next.
    const POOL_ENV = envWith({ PAYMENTS_STANDIN: 'true', PAYMENTS_STANDIN_ACCOUNT_POOL: '1' });
    const placeInPool = async () => {
      const response = await call(
        '/orders',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: 'http://localhost:8787' },
          body: JSON.stringify(orderRequest({ lines: [await line(PRODUCT, 1)] })),
        },
        POOL_ENV,
      );
      expect(response.status, await response.clone().text()).toBe(201);
      return placedOrderSchema.parse(await response.json());
    };
    const first = await placeInPool();
    const cancelled = await call(
      `/orders/${first.order.number}/cancel`,
      { method: 'POST', headers: { authorization: `Bearer ${first.accessToken}`, origin: 'http://localhost:8787' } },
      POOL_ENV,
    );
    expect(cancelled.status, await cancelled.clone().text()).toBe(200);
    const second = await placeInPool();
    const { accountNumber } = second.order.payment!;
    expect(accountNumber).toBe(first.order.payment!.accountNumber);

    // Paystack's delivery names the charge's reference (the newer order's number).
    const paid = await call(
      '/test/paystack/pay',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ orderNumber: second.order.number }),
      },
      POOL_ENV,
    );
    expect(standinPayAnswerSchema.parse(await paid.json())).toMatchObject({ accountNumber, webhook: { outcome: 'paid' } });
    expect((await orderRow(second.order.number)).status).toBe('paid');
    expect((await orderRow(first.order.number)).status).toBe('cancelled');
    expect(await paymentsOf(first.order.number)).toEqual([]);

    // One without a reference goes to the newest account opened by the time it was paid.
    await deliver(chargeSuccess(accountNumber, 100_000));
    expect((await paymentsOf(second.order.number)).map((p) => p.amount)).toEqual([second.order.total, 100_000]);
    expect(await paymentsOf(first.order.number)).toEqual([]);
  });

  it.each([
    ['signed with another key', async (body: string) => ({ 'x-paystack-signature': await sign(body, 'sk_test_someone_else') })],
    [
      'signed for another body',
      async (body: string) => ({ 'x-paystack-signature': await sign(body.replace('"amount":', '"amount": ')) }),
    ],
    ['without a signature', async () => ({})],
    ['with a signature that is not hex', async () => ({ 'x-paystack-signature': 'z'.repeat(128) })],
    ['with a short signature', async (body: string) => ({ 'x-paystack-signature': (await sign(body)).slice(0, 64) })],
  ])('refuses a delivery %s before reading it: 401, nothing recorded, the order unpaid', async (_name, headersFor) => {
    const placed = await placeWithProvider();
    const before = await countPayments();
    const body = chargeSuccess(placed.order.payment!.accountNumber, placed.order.total);
    const response = await webhook(body, await headersFor(body));
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: 'invalid_signature' } });
    expect(await countPayments()).toBe(before);
    expect((await orderRow(placed.order.number)).status).toBe('awaiting_payment');
    expect(await amountPaid(placed.order.number)).toBe(0);
  });

  it('refuses a tampered amount: a signature made for ₦1 does not pay the order', async () => {
    const placed = await placeWithProvider();
    const small = chargeSuccess(placed.order.payment!.accountNumber, 100);
    const signature = await sign(small);
    const inflated = small.replace('"amount":100', `"amount":${placed.order.total}`);
    expect(inflated).not.toBe(small);
    expect((await webhook(inflated, { 'x-paystack-signature': signature })).status).toBe(401);
    expect((await orderRow(placed.order.number)).status).toBe('awaiting_payment');
  });

  it('counts a redelivered event once, also when the deliveries arrive together', async () => {
    const placed = await placeWithProvider();
    const body = chargeSuccess(placed.order.payment!.accountNumber, 1_000_000);
    const signature = await sign(body);
    const answers = await Promise.all(Array.from({ length: 8 }, () => webhook(body, { 'x-paystack-signature': signature })));
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200));
    const parsed = await Promise.all(answers.map(async (r) => webhookAnswerSchema.parse(await r.json())));
    expect(parsed.filter((a) => !a.duplicate)).toHaveLength(1);
    expect(await paymentsOf(placed.order.number)).toEqual([{ outcome: 'part', amount: 1_000_000, refund: 0 }]);
    expect(await amountPaid(placed.order.number)).toBe(1_000_000);
    // And once more, later: still nothing new.
    expect(await deliver(body)).toMatchObject({ duplicate: true });
    expect(await amountPaid(placed.order.number)).toBe(1_000_000);
    // The shopper is told of the part once, however many deliveries came.
    expect((await emailsOf(placed.order.number)).filter((m) => m.subject.includes('still to pay'))).toHaveLength(1);
  });

  it('part payments e-mail one address at most its hourly limit of order e-mails, however many naira arrive', async () => {
    const limited = envWith({ PAYMENTS_STANDIN: 'true', RATE_LIMIT_EMAIL_RECIPIENT: '3/3600' });
    const email = `parts-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const request = orderRequest({ lines: [await line(PRODUCT, 1)] });
    const response = await call(
      '/orders',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'http://localhost:8787' },
        body: JSON.stringify({ ...request, customer: { ...request.customer, email } }),
      },
      limited,
    );
    expect(response.status).toBe(201);
    const placed = placedOrderSchema.parse(await response.json());
    // Someone who typed the victim's address pays a naira at a time into the order's account.
    for (let i = 0; i < 6; i++) {
      const paid = await call(
        '/test/paystack/pay',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ accountNumber: placed.order.payment!.accountNumber, amountKobo: 100, deliver: true }),
        },
        limited,
      );
      expect(paid.status).toBe(200);
    }
    expect((await paymentsOf(placed.order.number)).map((p) => p.outcome)).toEqual(Array(6).fill('part'));
    const mails = await emailsOf(placed.order.number);
    // The confirmation, and the hour's three part e-mails to that address (a count of their own).
    expect(mails).toHaveLength(4);
    expect(mails.filter((m) => m.subject.includes('still to pay'))).toHaveLength(3);
    // They used none of the address's order confirmations: the next order still gets its own.
    const next = await call(
      '/orders',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'http://localhost:8787' },
        body: JSON.stringify({ ...orderRequest({ lines: [await line(PRODUCT, 1)] }), customer: { ...request.customer, email } }),
      },
      limited,
    );
    expect(next.status).toBe(201);
    const nextOrder = placedOrderSchema.parse(await next.json());
    expect((await emailsOf(nextOrder.order.number)).map((m) => m.subject)).toEqual([
      expect.stringContaining(nextOrder.order.number),
    ]);
  });

  it('keeps a part payment: the order still waits for the rest, shown to the shopper and the admin; the rest pays it', async () => {
    const placed = await placeWithProvider();
    const { accountNumber } = placed.order.payment!;
    const first = 20_000_000;
    expect((await pay(accountNumber, first)).webhook).toMatchObject({ outcome: 'part' });
    const view = await shopperView(placed);
    expect(view.status).toBe('awaiting_payment');
    expect(view.payment).toMatchObject({ received: first, amount: placed.order.total - first, due: true });
    // The shopper hears what arrived, what is still to pay and by when, at the checkout's address.
    const [, part] = await emailsOf(placed.order.number);
    expect(part).toMatchObject({
      recipient: placed.order.customer.email,
      subject: `Your GTS order ${placed.order.number}: ${formatNaira(first)} arrived, ${formatNaira(placed.order.total - first)} still to pay`,
    });
    expect(part!.text).toContain(
      `${formatNaira(placed.order.total - first)} is still to pay, into the same account, by ${formatLagosTime(placed.order.expiresAt)}`,
    );
    expect((await orderRow(placed.order.number)).expires_at).toBe(Math.floor(Date.parse(placed.order.expiresAt) / 1000));

    expect((await pay(accountNumber, placed.order.total - first)).webhook).toMatchObject({ outcome: 'paid' });
    expect((await orderRow(placed.order.number)).status).toBe('paid');
    expect(await paymentsOf(placed.order.number)).toEqual([
      { outcome: 'part', amount: first, refund: 0 },
      { outcome: 'paid', amount: placed.order.total - first, refund: 0 },
    ]);
  });

  it('pays an order when more lands, and flags the excess for a refund; a payment after that is all owed back', async () => {
    const placed = await placeWithProvider();
    const { accountNumber } = placed.order.payment!;
    expect((await pay(accountNumber, placed.order.total + 500_000)).webhook).toMatchObject({ outcome: 'paid' });
    expect((await orderRow(placed.order.number)).status).toBe('paid');
    // The shopper's "paid" e-mail says the extra comes back.
    expect((await emailsOf(placed.order.number)).at(-1)!.text).toContain(
      '₦5,000 more than the total arrived: we will send it back to the account it came from.',
    );
    expect((await pay(accountNumber, 300_000)).webhook).toMatchObject({ outcome: 'extra' });
    expect(await paymentsOf(placed.order.number)).toEqual([
      { outcome: 'paid', amount: placed.order.total + 500_000, refund: 500_000 },
      { outcome: 'extra', amount: 300_000, refund: 300_000 },
    ]);
    // Paid once: one move to paid in the history.
    expect((await eventsOf(placed.order.number)).filter((e) => e.to === 'paid')).toHaveLength(1);
  });

  it('pays an expired order whose stock can be taken again, and takes it', async () => {
    const placed = await placeWithProvider(2);
    await expire(placed.order.number);
    expect((await orderRow(placed.order.number)).status).toBe('expired');
    const stock = await stockOf(PRODUCT);

    expect((await pay(placed.order.payment!.accountNumber, placed.order.total)).webhook).toMatchObject({ outcome: 'late' });
    expect((await orderRow(placed.order.number)).status).toBe('paid');
    expect((await eventsOf(placed.order.number)).at(-1)).toEqual({ from: 'expired', to: 'paid', actor: 'provider' });
    expect(await stockOf(PRODUCT)).toBe(stock - 2);
  });

  it('a payment refused for an expired order does not count towards the next: a kobo after ₦65,999.99 revives nothing', async () => {
    const placed = await placeWithProvider();
    await expire(placed.order.number);
    const { accountNumber } = placed.order.payment!;
    const total = placed.order.total;
    expect((await pay(accountNumber, total - 1)).webhook).toMatchObject({ outcome: 'refund' });
    expect(await amountPaid(placed.order.number)).toBe(0);
    expect((await pay(accountNumber, 1)).webhook).toMatchObject({ outcome: 'refund' });
    expect((await orderRow(placed.order.number)).status).toBe('expired');
    expect(await paymentsOf(placed.order.number)).toEqual([
      { outcome: 'refund', amount: total - 1, refund: total - 1 },
      { outcome: 'refund', amount: 1, refund: 1 },
    ]);

    // The full amount then revives it, and only the two refused payments are owed back (not twice).
    expect((await pay(accountNumber, total)).webhook).toMatchObject({ outcome: 'late' });
    expect((await orderRow(placed.order.number)).status).toBe('paid');
    expect(await amountPaid(placed.order.number)).toBe(total);
    expect((await paymentsOf(placed.order.number)).at(-1)).toEqual({ outcome: 'late', amount: total, refund: 0 });
  });

  it('two short payments landing together on an expired order: neither helps the other revive it', async () => {
    for (let round = 0; round < 3; round++) {
      const placed = await placeWithProvider();
      await expire(placed.order.number);
      const { accountNumber } = placed.order.payment!;
      const answers = await Promise.all([pay(accountNumber, placed.order.total - 1), pay(accountNumber, 1)]);
      expect(answers.map((a) => a.webhook?.outcome)).toEqual(['refund', 'refund']);
      expect((await orderRow(placed.order.number)).status).toBe('expired');
      expect(await amountPaid(placed.order.number)).toBe(0);
    }
  });

  it('a part paid while the order waited still counts when the rest comes after it expired', async () => {
    const placed = await placeWithProvider();
    const { accountNumber } = placed.order.payment!;
    const total = placed.order.total;
    expect((await pay(accountNumber, 1_000_000)).webhook).toMatchObject({ outcome: 'part' });
    await expire(placed.order.number);
    expect((await orderRow(placed.order.number)).status).toBe('expired');
    // Short of the rest: refused, and the part stays what the order holds.
    expect((await pay(accountNumber, 500_000)).webhook).toMatchObject({ outcome: 'refund' });
    expect((await pay(accountNumber, total - 1_000_000)).webhook).toMatchObject({ outcome: 'late' });
    expect((await paymentsOf(placed.order.number)).at(-1)).toEqual({ outcome: 'late', amount: total - 1_000_000, refund: 0 });
    expect((await orderRow(placed.order.number)).status).toBe('paid');
    expect(await amountPaid(placed.order.number)).toBe(total);
  });

  it('flags a late payment for a refund when the stock is gone, and leaves the stock alone', async () => {
    const placed = await placeWithProvider(2);
    await expire(placed.order.number);
    const left = await stockOf(PRODUCT);
    await setStock(PRODUCT, 1);
    try {
      expect((await pay(placed.order.payment!.accountNumber, placed.order.total)).webhook).toMatchObject({ outcome: 'refund' });
      expect((await orderRow(placed.order.number)).status).toBe('expired');
      expect(await stockOf(PRODUCT)).toBe(1);
      expect(await paymentsOf(placed.order.number)).toEqual([
        { outcome: 'refund', amount: placed.order.total, refund: placed.order.total },
      ]);
    } finally {
      await setStock(PRODUCT, left);
    }
  });

  it('I Have Made Payment on an order with its own account leaves its hold as it was (the provider confirms by itself)', async () => {
    const placed = await placeWithProvider();
    const before = (await orderRow(placed.order.number)).expires_at;
    const report = await shopperMove(placed, 'payment-report');
    expect(report.status, await report.clone().text()).toBe(200);
    expect(await orderRow(placed.order.number)).toMatchObject({ status: 'payment_reported', expires_at: before });
    expect(before * 1000).toBe(Date.parse(placed.order.expiresAt));
  });

  it('flags a late payment for a refund when the price changed since the order, up or down, and sells nothing', async () => {
    for (const change of [+5_000_000, -5_000_000]) {
      const placed = await placeWithProvider();
      await expire(placed.order.number);
      const ordered = placed.order.lines[0]!.unitPrice;
      const stock = await stockOf(PRODUCT);
      await setPrice(PRODUCT, ordered + change);
      try {
        expect((await pay(placed.order.payment!.accountNumber, placed.order.total)).webhook).toMatchObject({
          outcome: 'refund',
        });
        expect((await orderRow(placed.order.number)).status).toBe('expired');
        expect(await stockOf(PRODUCT)).toBe(stock);
        expect(await paymentsOf(placed.order.number)).toEqual([
          { outcome: 'refund', amount: placed.order.total, refund: placed.order.total },
        ]);
      } finally {
        await setPrice(PRODUCT, ordered);
      }
    }
  });

  it(`flags a payment that lands more than LATE_PAYMENT_HOURS (${readConfig(PAY_ENV).LATE_PAYMENT_HOURS}) after the order expired for a refund`, async () => {
    const hours = readConfig(PAY_ENV).LATE_PAYMENT_HOURS;
    const placed = await placeWithProvider();
    await expire(placed.order.number, hours * 3600 + 60);
    expect((await orderRow(placed.order.number)).status).toBe('expired');
    const stock = await stockOf(PRODUCT);
    expect((await pay(placed.order.payment!.accountNumber, placed.order.total)).webhook).toMatchObject({ outcome: 'refund' });
    expect((await orderRow(placed.order.number)).status).toBe('expired');
    expect(await stockOf(PRODUCT)).toBe(stock);

    // Just inside the window, the same payment revives its order.
    const inTime = await placeWithProvider();
    await expire(inTime.order.number, hours * 3600 - 300);
    expect((await pay(inTime.order.payment!.accountNumber, inTime.order.total)).webhook).toMatchObject({ outcome: 'late' });
    expect((await orderRow(inTime.order.number)).status).toBe('paid');
  });

  it('flags a payment for a cancelled order for a refund', async () => {
    const placed = await placeWithProvider();
    const cancel = await shopperMove(placed, 'cancel');
    expect(cancel.status).toBe(200);
    // The shopper's own cancel gives no store reason to show.
    expect((await cancel.json<{ order: OrderView }>()).order.cancelReason).toBeNull();
    expect((await pay(placed.order.payment!.accountNumber, placed.order.total)).webhook).toMatchObject({ outcome: 'refund' });
    expect((await orderRow(placed.order.number)).status).toBe('cancelled');
  });

  it('keeps a payment into an account no order has as unmatched', async () => {
    const before = await countPayments();
    expect(await deliver(chargeSuccess('9000000001', 5_000_000))).toMatchObject({ outcome: 'unmatched', duplicate: false });
    const row = await env.DB.prepare(
      'select order_id, outcome, amount_kobo from provider_payments order by rowid desc limit 1',
    ).first();
    expect(row).toEqual({ order_id: null, outcome: 'unmatched', amount_kobo: 5_000_000 });
    expect(await countPayments()).toBe(before + 1);
  });

  it('acknowledges and ignores a signed event that is not a payment', async () => {
    const before = await countPayments();
    const body = JSON.stringify({ event: 'transfer.success', data: { id: 1, amount: 100, status: 'success' } });
    expect(await deliver(body)).toEqual({ received: true, ignored: true });
    const failed = chargeSuccess('9000000002', 100, { status: 'failed' });
    expect(await deliver(failed)).toEqual({ received: true, ignored: true });
    expect(await countPayments()).toBe(before);
  });

  it('answers a signed body that is not JSON with a 400 naming the body, and records nothing', async () => {
    const before = await countPayments();
    const body = '{"event": "charge.success", "data": ';
    const response = await webhook(body, { 'x-paystack-signature': await sign(body) });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        code: 'invalid_request',
        message: 'The webhook body is not JSON.',
        issues: [{ field: '(body)', message: 'The webhook body is not JSON.' }],
      },
    });
    expect(await countPayments()).toBe(before);
  });

  it('refuses to start the stand-in anywhere but a local address: a deployed store with it would give goods away', () => {
    expect(() => readConfig(envWith({ PAYMENTS_STANDIN: 'true', SITE_URL: 'https://gts.ng' }))).toThrow(/PAYMENTS_STANDIN/);
    expect(readConfig(envWith({ PAYMENTS_STANDIN: 'true', SITE_URL: 'http://127.0.0.1:8787' })).PAYMENTS_STANDIN).toBe(true);
  });

  it('is not there without a provider, nor is the stand-in', async () => {
    const body = chargeSuccess('9000000003', 100);
    const response = await call(
      '/payments/webhook/paystack',
      { method: 'POST', headers: { 'content-type': 'application/json', 'x-paystack-signature': await sign(body) }, body },
      env,
    );
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 'not_found' } });
    const standin = await call(
      '/test/paystack/pay',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ reference: 'x', amountKobo: 1 }),
      },
      env,
    );
    expect(standin.status).toBe(404);
    // A provider the store has no adapter for: the path's parameter names the field.
    const unknown = await call('/payments/webhook/flutterwave', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({
      error: { code: 'invalid_request', issues: [expect.objectContaining({ field: 'provider' })] },
    });
  });
});

describe('races', () => {
  it('an admin confirming and the webhook at once: paid once, the money counted once', async () => {
    for (let round = 0; round < 3; round++) {
      const placed = await placeWithProvider();
      const detail = adminOrderDetailSchema.parse(await (await admin.browser.get(`/admin/orders/${placed.order.number}`)).json());
      const [byAdmin, byProvider] = await Promise.all([
        admin.browser.post(`/admin/orders/${placed.order.number}/confirm-payment`, {
          version: detail.version,
          amountReceivedNaira: placed.order.total / 100,
          bankReference: `STATEMENT-${round}`,
        }),
        pay(placed.order.payment!.accountNumber, placed.order.total),
      ]);
      expect([200, 409]).toContain(byAdmin.status);
      expect(byProvider.webhook).toMatchObject({ outcome: 'paid' });
      expect((await orderRow(placed.order.number)).status).toBe('paid');
      expect((await eventsOf(placed.order.number)).filter((e) => e.to === 'paid')).toHaveLength(1);
      expect(await amountPaid(placed.order.number)).toBe(placed.order.total);
      expect(await paymentsOf(placed.order.number)).toEqual([{ outcome: 'paid', amount: placed.order.total, refund: 0 }]);
    }
  });

  it('two payments that each complete the order, at once: one pays it, the other is owed back', async () => {
    const placed = await placeWithProvider();
    const { accountNumber } = placed.order.payment!;
    const answers = await Promise.all([pay(accountNumber, placed.order.total), pay(accountNumber, placed.order.total)]);
    expect(answers.map((a) => a.webhook?.outcome).sort()).toEqual(['extra', 'paid']);
    expect(await amountPaid(placed.order.number)).toBe(2 * placed.order.total);
    expect((await eventsOf(placed.order.number)).filter((e) => e.to === 'paid')).toHaveLength(1);
  });

  it('the webhook and the expiry job at once: the order ends paid, its units held once', async () => {
    for (let round = 0; round < 3; round++) {
      const stock = await stockOf(PRODUCT);
      const placed = await placeWithProvider(1);
      await makeOverdue(placed.order.number);
      const [answer] = await Promise.all([
        pay(placed.order.payment!.accountNumber, placed.order.total),
        worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: '*/10 * * * *' }), env),
      ]);
      expect(['paid', 'late']).toContain(answer.webhook?.outcome);
      expect((await orderRow(placed.order.number)).status).toBe('paid');
      expect(await stockOf(PRODUCT)).toBe(stock - 1);
    }
  });
});

describe('reconciliation', () => {
  it('applies what the provider received but whose webhook never came, once', async () => {
    const placed = await placeWithProvider();
    // The transfer lands at the provider; its delivery is lost.
    const lost = await pay(placed.order.payment!.accountNumber, placed.order.total, false);
    expect(lost).toMatchObject({ delivered: false, webhook: null });
    expect((await orderRow(placed.order.number)).status).toBe('awaiting_payment');

    const run = await reconcilePayments(openDb(env.DB), readConfig(PAY_ENV));
    expect(run.failed).toBe(false);
    expect(run.applied).toBeGreaterThanOrEqual(1);
    expect((await orderRow(placed.order.number)).status).toBe('paid');
    expect((await eventsOf(placed.order.number)).at(-1)).toEqual({ from: 'awaiting_payment', to: 'paid', actor: 'provider' });
    const via = await env.DB.prepare(
      'select via from provider_payments where order_id = (select id from orders where number = ?)',
    )
      .bind(placed.order.number)
      .first<{ via: string }>();
    expect(via).toEqual({ via: 'reconciliation' });

    // The next run finds nothing new; the money is counted once.
    expect(await reconcilePayments(openDb(env.DB), readConfig(PAY_ENV))).toMatchObject({ applied: 0, failed: false });
    expect(await amountPaid(placed.order.number)).toBe(placed.order.total);
  });

  it('runs in the cron, before the expiry job: a lost payment pays its order even at the end of its hold', async () => {
    const placed = await placeWithProvider();
    await pay(placed.order.payment!.accountNumber, placed.order.total, false);
    // The hold ran out meanwhile: the money arrived in time, so the order is paid, not expired.
    await makeOverdue(placed.order.number);
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: '*/10 * * * *' }), PAY_ENV);
    expect((await orderRow(placed.order.number)).status).toBe('paid');
    expect((await eventsOf(placed.order.number)).map((e) => e.to)).toEqual(['awaiting_payment', 'paid']);
  });

  it('says it could not ask the provider, and changes nothing, when the provider is out of reach', async () => {
    const down = envWith({ PAYSTACK_SECRET_KEY: 'sk_test_down', PAYSTACK_API_URL: 'https://api.paystack.invalid' });
    const before = await countPayments();
    expect(await reconcilePayments(openDb(env.DB), readConfig(down))).toEqual({ listed: 0, applied: 0, failed: true });
    expect(await countPayments()).toBe(before);
  });
});

describe("the admin's payments", () => {
  const list = async (view = 'waiting') => {
    const response = await admin.browser.get(`/admin/payments?view=${view}`);
    expect(response.status, await response.clone().text()).toBe(200);
    return adminPaymentListSchema.parse(await response.json());
  };

  it('lists what waits for a person, counts it on the dashboard, and attaches an unmatched payment to its order (which pays it)', async () => {
    const placed = await placeWithProvider();
    // The shopper paid into another account and wrote the order's number nowhere we could read.
    const id = await unmatchedPayment(placed.order.total);
    const waiting = await list();
    expect(waiting.items.find((p) => p.id === id)).toMatchObject({ outcome: 'unmatched', waiting: true, orderNumber: null });
    const dashboard = dashboardSchema.parse(await (await admin.browser.get('/admin/dashboard')).json());
    expect(dashboard.paymentsWaiting).toBe(waiting.waiting);
    expect(waiting.waiting).toBeGreaterThanOrEqual(1);

    const attached = await admin.browser.post(`/admin/payments/${id}/attach`, {
      orderNumber: placed.order.number,
      note: 'Shopper sent the receipt by e-mail',
    });
    expect(attached.status, await attached.clone().text()).toBe(200);
    const payment = adminPaymentSchema.parse(await attached.json());
    expect(payment).toMatchObject({
      orderNumber: placed.order.number,
      outcome: 'paid',
      waiting: false,
      resolution: `attached to ${placed.order.number}: Shopper sent the receipt by e-mail`,
    });
    expect((await orderRow(placed.order.number)).status).toBe('paid');
    expect((await eventsOf(placed.order.number)).at(-1)).toMatchObject({ to: 'paid', actor: 'provider' });
    const audit = await env.DB.prepare("select action, actor_email from admin_audit where entity = 'payment' and entity_id = ?")
      .bind(id)
      .all();
    expect(audit.results).toEqual([{ action: 'attach', actor_email: expect.stringContaining('@') }]);
    expect((await list()).items.some((p) => p.id === id)).toBe(false);
    expect((await list('all')).items.some((p) => p.id === id)).toBe(true);
  });

  it('attaches a payment once: a second attach (a double click, another admin) is refused and counts nothing', async () => {
    const placed = await placeWithProvider();
    const id = await unmatchedPayment(1_000_000);
    const both = await Promise.all([
      admin.browser.post(`/admin/payments/${id}/attach`, { orderNumber: placed.order.number, note: 'First click' }),
      admin.browser.post(`/admin/payments/${id}/attach`, { orderNumber: placed.order.number, note: 'Second click' }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await amountPaid(placed.order.number)).toBe(1_000_000);
    expect((await shopperView(placed)).payment).toMatchObject({ received: 1_000_000, amount: placed.order.total - 1_000_000 });
  });

  it('lists a payment attached to an order that was already paid as owed back, in full', async () => {
    const placed = await placeWithProvider();
    await pay(placed.order.payment!.accountNumber, placed.order.total);
    const id = await unmatchedPayment(300_000);
    const attached = await admin.browser.post(`/admin/payments/${id}/attach`, {
      orderNumber: placed.order.number,
      note: 'The shopper paid twice: the second from another bank',
    });
    expect(attached.status, await attached.clone().text()).toBe(200);
    expect(adminPaymentSchema.parse(await attached.json())).toMatchObject({ outcome: 'extra', refund: 300_000, waiting: true });
    expect((await list()).items.find((p) => p.id === id)).toMatchObject({ refund: 300_000, waiting: true });
  });

  it('names the field when the order does not exist, and refuses to attach a payment that has an order', async () => {
    const id = await unmatchedPayment();
    const missing = await admin.browser.post(`/admin/payments/${id}/attach`, { orderNumber: 'GTS-AAAAAAAAAA', note: 'Typo?' });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: { issues: [{ field: 'orderNumber' }] } });

    const placed = await placeWithProvider();
    await pay(placed.order.payment!.accountNumber, 1_000);
    const matched = await env.DB.prepare(
      'select id from provider_payments where order_id = (select id from orders where number = ?)',
    )
      .bind(placed.order.number)
      .first<{ id: string }>();
    const again = await admin.browser.post(`/admin/payments/${matched!.id}/attach`, {
      orderNumber: placed.order.number,
      note: 'Again',
    });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: { code: 'payment_not_unmatched' } });
  });

  it('lists a part payment whose order expired as owed back, until the rest arrives and pays the order late', async () => {
    const placed = await placeWithProvider();
    const { accountNumber } = placed.order.payment!;
    await pay(accountNumber, 2_000_000);
    const waitingFor = async () => (await list()).items.find((p) => p.orderNumber === placed.order.number);
    expect(await waitingFor()).toBeUndefined();

    await expire(placed.order.number);
    expect((await orderRow(placed.order.number)).status).toBe('expired');
    expect(await waitingFor()).toMatchObject({ outcome: 'part', refund: 2_000_000, waiting: true });

    // The rest lands after all: the order is paid late, and nothing of it is owed back.
    expect((await pay(accountNumber, placed.order.total - 2_000_000)).webhook).toMatchObject({ outcome: 'late' });
    expect((await orderRow(placed.order.number)).status).toBe('paid');
    expect(await waitingFor()).toBeUndefined();
  });

  it('lists the payment of an order an admin cancelled after it was paid as owed back, in the list, the dashboard and the order', async () => {
    const placed = await placeWithProvider();
    await pay(placed.order.payment!.accountNumber, placed.order.total);
    expect((await orderRow(placed.order.number)).status).toBe('paid');
    const waitingFor = async () => (await list()).items.find((p) => p.orderNumber === placed.order.number);
    expect(await waitingFor()).toBeUndefined();
    const before = (await list()).waiting;

    const detail = adminOrderDetailSchema.parse(await (await admin.browser.get(`/admin/orders/${placed.order.number}`)).json());
    const cancelled = await admin.browser.post(`/admin/orders/${placed.order.number}/cancel`, {
      version: detail.version,
      reason: 'The last unit was damaged in the warehouse',
    });
    expect(cancelled.status, await cancelled.clone().text()).toBe(200);
    expect(adminOrderDetailSchema.parse(await cancelled.json()).providerPayments).toEqual([
      expect.objectContaining({ amount: placed.order.total, outcome: 'paid', refund: placed.order.total }),
    ]);
    const owed = await waitingFor();
    expect(owed).toMatchObject({ outcome: 'paid', refund: placed.order.total, waiting: true });
    expect((await list()).waiting).toBe(before + 1);
    const dashboard = dashboardSchema.parse(await (await admin.browser.get('/admin/dashboard')).json());
    expect(dashboard.paymentsWaiting).toBe(before + 1);

    const resolved = await admin.browser.post(`/admin/payments/${owed!.id}/resolve`, { note: 'Refunded in full by transfer' });
    expect(resolved.status, await resolved.clone().text()).toBe(200);
    expect(await waitingFor()).toBeUndefined();
  });

  describe('a transfer into the shared account, confirmed by an admin', () => {
    async function placeShared(): Promise<PlacedOrder> {
      const response = await postJson('/orders', orderRequest({ lines: [await line(PRODUCT)] }));
      expect(response.status, await response.clone().text()).toBe(201);
      const placed = placedOrderSchema.parse(await response.json());
      expect(placed.order.payment).toMatchObject({ ownAccount: false });
      return placed;
    }
    const versionOf = async (number: string) =>
      adminOrderDetailSchema.parse(await (await admin.browser.get(`/admin/orders/${number}`)).json()).version;
    const confirm = async (number: string, version: string, naira: number) =>
      admin.browser.post(`/admin/orders/${number}/confirm-payment`, {
        version,
        amountReceivedNaira: naira,
        bankReference: 'GTB-STATEMENT-77',
      });
    const waitingFor = async (number: string) => (await list()).items.find((p) => p.orderNumber === number);

    it('is the order’s payment, recorded once: when the order is cancelled later, all of it is listed as owed back', async () => {
      const placed = await placeShared();
      const { number, total } = placed.order;
      // Two admins confirm the same transfer at once: one wins, and the money is recorded once.
      const version = await versionOf(number);
      const both = await Promise.all([confirm(number, version, total / 100), confirm(number, version, total / 100)]);
      expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(await paymentsOf(number)).toEqual([{ outcome: 'paid', amount: total, refund: 0 }]);
      expect(await amountPaid(number)).toBe(total);
      expect(await waitingFor(number)).toBeUndefined();
      expect((await list('all')).items.find((p) => p.orderNumber === number)).toMatchObject({
        provider: 'store_account',
        via: 'admin',
        accountNumber: '3081726354',
        reference: 'GTB-STATEMENT-77',
        waiting: false,
      });
      const before = (await list()).waiting;

      const cancelled = await admin.browser.post(`/admin/orders/${number}/cancel`, {
        version: await versionOf(number),
        reason: 'The last unit failed its check before dispatch',
      });
      expect(cancelled.status, await cancelled.clone().text()).toBe(200);
      expect(adminOrderDetailSchema.parse(await cancelled.json()).providerPayments).toEqual([
        expect.objectContaining({ amount: total, outcome: 'paid', refund: total }),
      ]);
      const owed = await waitingFor(number);
      expect(owed).toMatchObject({ provider: 'store_account', refund: total, waiting: true });
      expect((await list()).waiting).toBe(before + 1);
      const dashboard = dashboardSchema.parse(await (await admin.browser.get('/admin/dashboard')).json());
      expect(dashboard.paymentsWaiting).toBe(before + 1);

      const resolved = await admin.browser.post(`/admin/payments/${owed!.id}/resolve`, { note: 'Refunded in full by transfer' });
      expect(resolved.status, await resolved.clone().text()).toBe(200);
      expect(await waitingFor(number)).toBeUndefined();
    });

    it('records only what the provider had not: a part it reported by reference counts once, also in what a cancel owes back', async () => {
      const placed = await placeShared();
      const { number, total } = placed.order;
      // ₦10,000 into the shared account, reported by the provider and matched by its reference.
      const part = 1_000_000;
      expect(await deliver(chargeSuccess(null, part, { reference: number }))).toMatchObject({ outcome: 'part' });
      expect(await amountPaid(number)).toBe(part);
      // The statement shows the whole total arrived: the admin confirms it, ₦5,000 over.
      expect((await confirm(number, await versionOf(number), total / 100 + 5_000)).status).toBe(200);
      expect(await paymentsOf(number)).toEqual([
        { outcome: 'part', amount: part, refund: 0 },
        { outcome: 'paid', amount: total + 500_000 - part, refund: 500_000 },
      ]);
      expect(await amountPaid(number)).toBe(total + 500_000);

      const cancelled = await admin.browser.post(`/admin/orders/${number}/cancel`, {
        version: await versionOf(number),
        reason: 'The shopper asked to cancel before dispatch',
      });
      expect(cancelled.status, await cancelled.clone().text()).toBe(200);
      // Owed back: what arrived, once (before, the part was counted in both rows).
      const rows = adminOrderDetailSchema.parse(await cancelled.json()).providerPayments ?? [];
      expect(rows).toHaveLength(2);
      const owed = rows.reduce((sum, p) => sum + p.refund, 0);
      expect(owed).toBe(total + 500_000);
    });

    it('lists what arrived over the total as owed back at once; once that is sent back, a cancel later owes the rest', async () => {
      const placed = await placeShared();
      const { number, total } = placed.order;
      expect((await confirm(number, await versionOf(number), total / 100 + 5_000)).status).toBe(200);
      expect(await paymentsOf(number)).toEqual([{ outcome: 'paid', amount: total + 500_000, refund: 500_000 }]);
      const excess = await waitingFor(number);
      expect(excess).toMatchObject({ refund: 500_000, waiting: true });
      const sent = await admin.browser.post(`/admin/payments/${excess!.id}/resolve`, { note: 'Sent back the ₦5,000 extra' });
      expect(sent.status, await sent.clone().text()).toBe(200);
      expect(await waitingFor(number)).toBeUndefined();
      expect((await admin.browser.post(`/admin/payments/${excess!.id}/resolve`, { note: 'Again' })).status).toBe(409);

      // Cancelled after: what is still owed is the rest (the total), not the excess again, nor nothing.
      const cancelled = await admin.browser.post(`/admin/orders/${number}/cancel`, {
        version: await versionOf(number),
        reason: 'The shopper asked to cancel before dispatch',
      });
      expect(cancelled.status, await cancelled.clone().text()).toBe(200);
      expect(adminOrderDetailSchema.parse(await cancelled.json()).providerPayments).toEqual([
        expect.objectContaining({ amount: total + 500_000, refund: total }),
      ]);
      expect(await waitingFor(number)).toMatchObject({ refund: total, waiting: true, resolution: 'Sent back the ₦5,000 extra' });
      const rest = await admin.browser.post(`/admin/payments/${excess!.id}/resolve`, { note: 'Refunded the rest by transfer' });
      expect(rest.status, await rest.clone().text()).toBe(200);
      expect(adminPaymentSchema.parse(await rest.json())).toMatchObject({
        refund: 0,
        waiting: false,
        resolution: 'Refunded the rest by transfer',
      });
      expect(await waitingFor(number)).toBeUndefined();
      const audit = await env.DB.prepare("select action from admin_audit where entity = 'payment' and entity_id = ? order by id")
        .bind(excess!.id)
        .all();
      expect(audit.results).toEqual([{ action: 'resolve' }, { action: 'resolve' }]);
    });

    it('is recorded by migration 0021 for an order an admin confirmed before it, once, whatever runs it again', async () => {
      const placed = await placeShared();
      const { number, total } = placed.order;
      expect((await confirm(number, await versionOf(number), total / 100)).status).toBe(200);
      const cancelled = await admin.browser.post(`/admin/orders/${number}/cancel`, {
        version: await versionOf(number),
        reason: 'Cancelled before the payments ledger kept shared-account transfers',
      });
      expect(cancelled.status).toBe(200);
      // As the store was before 0021: the order confirmed and cancelled, no payment row, nothing paid.
      await env.DB.batch([
        env.DB.prepare('delete from provider_payments where order_id = (select id from orders where number = ?)').bind(number),
        env.DB.prepare('update orders set amount_paid_kobo = 0 where number = ?').bind(number),
      ]);
      expect(await waitingFor(number)).toBeUndefined();
      const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith('0021_'));
      expect(migration?.queries.length).toBe(2);
      // The other orders whose amount paid is the sum of their rows: not those with a payment sent
      // back, which leaves the amount paid since 2026-11-29 (functions/payments/).
      const OTHERS = `select sum(amount_paid_kobo) as n from orders where number != ? and not exists (select 1 from provider_payments p
        where p.order_id = orders.id and (p.outcome = 'refund' or p.settled_kobo > 0))`;
      const others = await env.DB.prepare(OTHERS).bind(number).first<{ n: number }>();
      for (let run = 0; run < 2; run++) await env.DB.batch(migration!.queries.map((q) => env.DB.prepare(q)));

      expect(await paymentsOf(number)).toEqual([{ outcome: 'paid', amount: total, refund: 0 }]);
      expect(await amountPaid(number)).toBe(total);
      expect(await waitingFor(number)).toMatchObject({ provider: 'store_account', via: 'admin', refund: total, waiting: true });
      // Every other order's amount paid is what it was: the recount is the sum each already had.
      expect(await env.DB.prepare(OTHERS).bind(number).first<{ n: number }>()).toEqual(others);
    });
  });

  it('marks a refund sent: audited, off the waiting list; a payment that waits for nothing cannot be resolved', async () => {
    const placed = await placeWithProvider();
    const { accountNumber } = placed.order.payment!;
    await pay(accountNumber, placed.order.total + 200_000);
    const over = (await list()).items.find((p) => p.orderNumber === placed.order.number);
    expect(over).toMatchObject({ outcome: 'paid', refund: 200_000, waiting: true });
    const resolved = await admin.browser.post(`/admin/payments/${over!.id}/resolve`, { note: 'Refunded ₦2,000 by transfer' });
    expect(resolved.status).toBe(200);
    expect(adminPaymentSchema.parse(await resolved.json())).toMatchObject({
      waiting: false,
      resolution: 'Refunded ₦2,000 by transfer',
    });
    const twice = await admin.browser.post(`/admin/payments/${over!.id}/resolve`, { note: 'Again' });
    expect(twice.status).toBe(409);
    const short = await admin.browser.post(`/admin/payments/${over!.id}/resolve`, { note: '' });
    expect(short.status).toBe(400);
    expect(await short.json()).toMatchObject({ error: { issues: [{ field: 'note' }] } });
    // Not said to be sent: the shopper is not told anything.
    expect((await emailsOf(placed.order.number)).filter((e) => /sent back/.test(e.subject))).toEqual([]);
  });

  it('a part sent back after its order expired no longer counts: the rest paid late does not revive the order', async () => {
    const placed = await placeWithProvider();
    const { accountNumber } = placed.order.payment!;
    const total = placed.order.total;
    expect((await pay(accountNumber, 3_000_000)).webhook).toMatchObject({ outcome: 'part' });
    await expire(placed.order.number);
    expect((await orderRow(placed.order.number)).status).toBe('expired');
    const part = (await list()).items.find((p) => p.orderNumber === placed.order.number)!;
    expect(part).toMatchObject({ outcome: 'part', refund: 3_000_000, waiting: true });
    const sent = await admin.browser.post(`/admin/payments/${part.id}/resolve`, {
      note: 'Sent back by transfer',
      refundSent: true,
    });
    expect(sent.status, await sent.clone().text()).toBe(200);
    // The store holds nothing for it now.
    expect(await amountPaid(placed.order.number)).toBe(0);
    expect((await pay(accountNumber, total - 3_000_000)).webhook).toMatchObject({ outcome: 'refund' });
    expect((await orderRow(placed.order.number)).status).toBe('expired');
    // The whole total, paid late, does revive it: only that is counted.
    expect((await pay(accountNumber, total)).webhook).toMatchObject({ outcome: 'late' });
    expect(await amountPaid(placed.order.number)).toBe(total);
  });

  it('resolves sent at once (a double click, two tabs) e-mail the shopper and audit once', async () => {
    const placed = await placeWithProvider();
    await pay(placed.order.payment!.accountNumber, placed.order.total + 400_000);
    const over = (await list()).items.find((p) => p.orderNumber === placed.order.number)!;
    const body = { note: 'Sent back', refundSent: true };
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => admin.browser.post(`/admin/payments/${over.id}/resolve`, body)),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.every((a) => a.status === 200 || a.status === 409)).toBe(true);
    expect((await emailsOf(placed.order.number)).filter((e) => /sent back/.test(e.subject))).toHaveLength(1);
    const { results } = await env.DB.prepare(
      "select count(*) as n from admin_audit where entity = 'payment' and entity_id = ? and action = 'resolve'",
    )
      .bind(over.id)
      .all<{ n: number }>();
    expect(results[0]?.n).toBe(1);
    // The excess went back: the order holds its total.
    expect(await amountPaid(placed.order.number)).toBe(placed.order.total);
  });

  it('a refund marked sent tells the order’s shopper the amount, once; the admin’s note stays in the store', async () => {
    const placed = await placeWithProvider();
    await pay(placed.order.payment!.accountNumber, placed.order.total + 350_000);
    const over = (await list()).items.find((p) => p.orderNumber === placed.order.number)!;
    const body = { note: 'Sent by transfer, ref INTERNAL-77', refundSent: true };
    const resolved = await admin.browser.post(`/admin/payments/${over.id}/resolve`, body);
    expect(resolved.status, await resolved.clone().text()).toBe(200);
    const sent = (await emailsOf(placed.order.number)).filter((e) => /sent back/.test(e.subject));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      recipient: placed.order.customer.email,
      subject: `Your GTS order ${placed.order.number}: ₦3,500 sent back`,
    });
    expect(sent[0]!.text).toContain('We have sent ₦3,500 back to the account your transfer');
    expect(sent[0]!.text).not.toContain('INTERNAL-77');
    // A second resolve (a double click) is refused and e-mails nothing more.
    expect((await admin.browser.post(`/admin/payments/${over.id}/resolve`, body)).status).toBe(409);
    expect((await emailsOf(placed.order.number)).filter((e) => /sent back/.test(e.subject))).toHaveLength(1);

    // A payment that owes nothing back cannot be said to be refunded: 400 naming refundSent, nothing written.
    const stray = await unmatchedPayment(77_000);
    const refused = await admin.browser.post(`/admin/payments/${stray}/resolve`, { note: 'Sent it back', refundSent: true });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { issues: [{ field: 'refundSent' }] } });
    expect((await list()).items.find((p) => p.id === stray)).toMatchObject({ waiting: true, resolution: null });
  });
});
