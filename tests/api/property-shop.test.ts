import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { newsletterApi, subscribeApi } from '../../src/features/newsletter/subscribe.ts';
import { orderApi } from '../../src/features/orders/order-api.ts';
import { installApi } from '../../src/features/pwa/install-api.ts';
import { tradeInApi } from '../../src/features/trade-ins/trade-in-api.ts';
import { Browser, newEmail, ORIGIN } from './account-helpers.ts';
import { signedInAdmin } from './admin-helpers.ts';
import {
  applyMutation,
  attemptHolds,
  CONTENT_TYPES,
  everyAnswerHolds,
  hostileJson,
  key,
  MUTATING,
  mutation,
  runOptions,
} from './hostile.ts';
import { customer, line, newKey, orderRequest, PS5, placeOrder, setStock } from './orders-helpers.ts';
import { JPEG, PNG, SWAP_PS5, submitted, tradeInFields, WEBP } from './trade-in-helpers.ts';
import { paymentApi } from '../../src/features/payments/payment-api.ts';
import { chargeSuccess, sign } from './payment-helpers.ts';

/**
 * The shop's own endpoints (orders, newsletter, install offer, trade-ins) under random and
 * hostile requests: never a 5xx, every refusal in the error shape, nothing written by a
 * refused request (tests/api/hostile.ts). Each run starts from a valid request and breaks it.
 */

/** A guest from a client address of its own, so per-client limits (some fixed in code) do not hide what lies behind them. */
const guest = () => new Browser(ORIGIN, { RATE_LIMIT_TRADE_IN: '10000/60' }, `198.51.100.${Math.floor(Math.random() * 250) + 1}`);

let placed: Awaited<ReturnType<typeof placeOrder>>;
let admin: Browser;

beforeAll(async () => {
  // Valid runs place orders: enough units that stock never becomes the reason for a refusal.
  await setStock(PS5.id, 100_000, PS5.variant);
  placed = await placeOrder();
  admin = (await signedInAdmin()).browser;
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A trade-in the store made an offer on, as its requester sees it. */
async function offered(want: object = { kind: 'cash' }) {
  const email = newEmail('trade-in');
  const fields = tradeInFields({ want, contact: { ...tradeInFields().contact, email } });
  const { reference } = await submitted(fields);
  const { version } = (await (await admin.get(`/admin/trade-ins/${reference}`)).json()) as { version: string };
  const moved = await admin.post(`/admin/trade-ins/${reference}/move`, { version, move: 'offer', offerNaira: 300_000 });
  expect(moved.status, await moved.clone().text()).toBe(200);
  return { reference, email, offer: 30_000_000 };
}

/** The newsletter links e-mailed to `email` for a new sign-up: confirm, then unsubscribe. */
async function newsletterLinks(email: string) {
  expect((await guest().post('/subscribe', { email })).status).toBeLessThan(300);
  const mail = await env.DB.prepare(
    "select text from email_outbox where recipient = ? and kind = 'newsletter_confirm' order by id desc",
  )
    .bind(email)
    .first<{ text: string }>();
  const token = (page: string) => new RegExp(`/newsletter/${page}\\?token=([A-Za-z0-9_.-]+)`).exec(mail!.text)![1]!;
  return { confirm: token('confirm'), unsubscribe: token('unsubscribe') };
}

/** Every write outside the admin's (property-admin.test.ts) and the accounts' (property-account.test.ts). */
const SHOP_WRITES = MUTATING.filter((e) => !e.path.startsWith('/api/admin/') && !e.path.startsWith('/api/account/')).map(key);

describe('hostile requests to the shop’s endpoints', () => {
  it('every write of the shop has a property below', () => {
    expect(SHOP_WRITES.sort()).toEqual(
      [
        orderApi.place,
        orderApi.quote,
        orderApi.lookup,
        orderApi.reportPayment,
        orderApi.cancel,
        ...Object.values(newsletterApi),
        installApi.dismiss,
        tradeInApi.submit,
        tradeInApi.lookup,
        tradeInApi.respond,
        tradeInApi.order,
        paymentApi.webhook,
      ]
        .map(key)
        .sort(),
    );
  });

  it('POST /api/payments/webhook/:provider (signed by the stand-in provider; any change breaks the signature)', () =>
    everyAnswerHolds(
      paymentApi.webhook,
      // The provider's side: the offline stand-in of Paystack configured, from Paystack's address.
      () => new Browser(ORIGIN, { PAYMENTS_STANDIN: 'true' }, '52.31.139.75'),
      async () => {
        const body = chargeSuccess('9000000008', 250_000);
        return { params: { provider: 'paystack' }, body, headers: { 'x-paystack-signature': await sign(JSON.stringify(body)) } };
      },
      20,
    ));

  it('POST /api/orders (place)', () => everyAnswerHolds(orderApi.place, guest, () => ({ body: orderRequest() })));

  it('POST /api/orders/quote', () =>
    everyAnswerHolds(orderApi.quote, guest, async () => ({ body: { lines: [await line(PS5.id, 1, PS5.variant)] } })));

  it('POST /api/orders/lookup', () =>
    everyAnswerHolds(orderApi.lookup, guest, () => ({ body: { number: placed.order.number, email: customer.email } })));

  it('POST /api/orders/:number/payment-report', () =>
    everyAnswerHolds(orderApi.reportPayment, guest, async () => {
      const order = await placeOrder();
      return { params: { number: order.order.number }, headers: bearer(order.accessToken) };
    }));

  it('POST /api/orders/:number/cancel', () =>
    everyAnswerHolds(orderApi.cancel, guest, async () => {
      const order = await placeOrder();
      return { params: { number: order.order.number }, headers: bearer(order.accessToken) };
    }));

  it('POST /api/subscribe', () => everyAnswerHolds(subscribeApi, guest, () => ({ body: { email: newEmail('news') } })));

  it('POST /api/newsletter/confirm', () =>
    everyAnswerHolds(
      newsletterApi.confirm,
      guest,
      async () => ({ body: { token: (await newsletterLinks(newEmail('news'))).confirm } }),
      20,
    ));

  it('POST /api/newsletter/unsubscribe', () =>
    everyAnswerHolds(
      newsletterApi.unsubscribe,
      guest,
      async () => {
        const { confirm, unsubscribe } = await newsletterLinks(newEmail('news'));
        expect((await guest().post('/newsletter/confirm', { token: confirm })).status).toBe(200);
        return { body: { token: unsubscribe } };
      },
      20,
    ));

  it('POST /api/dismiss-install-prompt', () =>
    everyAnswerHolds(installApi.dismiss, guest, () => ({ body: { deviceId: crypto.randomUUID() } })));

  it('POST /api/trade-ins (its fields as plain JSON)', () =>
    everyAnswerHolds(tradeInApi.submit, guest, () => ({ body: tradeInFields() }), 25));

  it('POST /api/trade-ins (multipart: the request part and photo parts)', async () => {
    const photo = fc.oneof(
      fc.constantFrom(
        { bytes: PNG, type: 'image/png' },
        { bytes: JPEG, type: 'image/jpeg' },
        { bytes: WEBP, type: 'image/webp' },
        // Declared as one type, another by its bytes; a drawing with script; HTML.
        { bytes: PNG, type: 'image/jpeg' },
        {
          bytes: new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
          type: 'image/svg+xml',
        },
        { bytes: new TextEncoder().encode('<html><script>alert(1)</script></html>'), type: 'image/png' },
      ),
      fc.record({
        bytes: fc.uint8Array({ maxLength: 300 }),
        type: fc.constantFrom('image/png', 'image/jpeg', 'application/octet-stream', ''),
      }),
    );
    const extraPart = fc.record({
      name: fc.constantFrom('request', 'photos[]', 'role', '__proto__', 'x'),
      value: fc.string({ maxLength: 50 }),
    });
    await fc.assert(
      fc.asyncProperty(
        mutation,
        fc.array(photo, { maxLength: 6 }),
        fc.array(extraPart, { maxLength: 4 }),
        async (change, photos, extras) => {
          const form = new FormData();
          const request = applyMutation(tradeInFields(), change);
          form.set('request', request.text);
          for (const [i, p] of photos.entries())
            form.append('photos', new File([p.bytes as Uint8Array<ArrayBuffer>], `photo-${i}`, { type: p.type }));
          for (const extra of extras) form.append(extra.name, extra.value);
          // The content type (with its boundary) comes from the FormData itself.
          await attemptHolds(guest(), tradeInApi.submit, {
            method: 'POST',
            url: tradeInApi.submit.path,
            body: { bytes: form, contentType: null },
          });
        },
      ),
      runOptions(25),
    );
  });

  it('POST /api/trade-ins/lookup', async () => {
    const email = newEmail('trade-in');
    const { reference } = await submitted(tradeInFields({ contact: { ...tradeInFields().contact, email } }));
    await everyAnswerHolds(tradeInApi.lookup, guest, () => ({ body: { reference, email } }));
  });

  it('POST /api/trade-ins/:reference/respond', () =>
    everyAnswerHolds(
      tradeInApi.respond,
      guest,
      async () => {
        const { reference, email, offer } = await offered();
        return { params: { reference }, body: { email, decision: 'decline', offer } };
      },
      20,
    ));

  it('POST /api/trade-ins/:reference/order', () =>
    everyAnswerHolds(
      tradeInApi.order,
      guest,
      async () => {
        const { reference, email, offer } = await offered(SWAP_PS5);
        const accepted = await guest().post(`/trade-ins/${reference}/respond`, { email, decision: 'accept', offer });
        expect(accepted.status, await accepted.clone().text()).toBe(200);
        return {
          params: { reference },
          body: {
            email,
            idempotencyKey: newKey(),
            customer: { delivery: 'pickup', name: customer.name, email, phone: customer.phone },
          },
        };
      },
      20,
    ));

  it('the arbitraries reach past validation: valid requests are among the runs and succeed', async () => {
    // A property whose every run is refused at the first check would test nothing behind it.
    const response = await guest().post('/orders', orderRequest());
    expect(response.status).toBe(201);
    expect(fc.sample(mutation, 300).some((m) => m.kind === 'valid')).toBe(true);
    expect(fc.sample(hostileJson, 50).length).toBe(50);
    expect(CONTENT_TYPES).toContain(null);
  });
});
