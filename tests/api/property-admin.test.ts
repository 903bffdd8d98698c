import { env } from 'cloudflare:workers';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminApi } from '../../src/features/admin/admin-api.ts';
import type { Browser } from './account-helpers.ts';
import { newEmail } from './account-helpers.ts';
import { signedInAdmin } from './admin-helpers.ts';
import { attemptHolds, everyAnswerHolds, MUTATING, key, runOptions } from './hostile.ts';
import { PS5, placeOrder, setStock } from './orders-helpers.ts';
import { PNG, submitted } from './trade-in-helpers.ts';
import { unmatchedPayment } from './payment-helpers.ts';

/**
 * The admin's writes under random and hostile requests from a signed-in admin (a guest's and
 * a customer's are refused before the body is read: tests/api/admin-access.test.ts). An
 * admin's mistake must get a 4xx naming the field, never a 500 or a half-made change.
 */

let admin: Browser;

beforeAll(async () => {
  await setStock(PS5.id, 100_000, PS5.variant);
  admin = (await signedInAdmin()).browser;
});

const asAdmin = () => admin;

const productForm = () => ({
  name: `Property test ${crypto.randomUUID().slice(0, 6)}`,
  brand: 'Samsung',
  category: 'accessories',
  description: 'A product made by the admin property test, long enough to be valid.',
  priceNaira: 1500.5,
  stock: 3,
  image: '/images/products/galaxy-buds-3-pro.svg',
  featured: false,
  variants: [],
});

async function versionOf(number: string): Promise<string> {
  return ((await (await admin.get(`/admin/orders/${number}`)).json()) as { version: string }).version;
}

/** A new order moved on by the admin: `moves` in order, each with the version it was loaded at. */
async function orderAt(moves: ('confirm-payment' | 'ship')[]) {
  const placed = await placeOrder();
  const { number } = placed.order;
  for (const move of moves) {
    const body =
      move === 'confirm-payment'
        ? { version: await versionOf(number), amountReceivedNaira: placed.order.total / 100, bankReference: 'PROP-1' }
        : { version: await versionOf(number) };
    const response = await admin.post(`/admin/orders/${number}/${move}`, body);
    expect(response.status, await response.clone().text()).toBe(200);
  }
  return placed;
}

async function newProduct(): Promise<{ id: string; version: string }> {
  const response = await admin.post('/admin/products', productForm());
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as { id: string; version: string };
}

describe('hostile requests to the admin’s writes', () => {
  it('every admin write has a property below', () => {
    const covered = [
      adminApi.confirmPayment,
      adminApi.ship,
      adminApi.deliver,
      adminApi.cancel,
      adminApi.createProduct,
      adminApi.updateProduct,
      adminApi.deleteProduct,
      adminApi.uploadImage,
      adminApi.moveTradeIn,
      adminApi.removeSubscriber,
      adminApi.attachPayment,
      adminApi.resolvePayment,
    ].map(key);
    expect(
      MUTATING.filter((e) => e.path.startsWith('/api/admin/'))
        .map(key)
        .sort(),
    ).toEqual(covered.sort());
  });

  it('POST /api/admin/orders/:number/confirm-payment', () =>
    everyAnswerHolds(
      adminApi.confirmPayment,
      asAdmin,
      async () => {
        const placed = await placeOrder();
        const { number } = placed.order;
        return {
          params: { number },
          body: { version: await versionOf(number), amountReceivedNaira: placed.order.total / 100, bankReference: 'PROP-REF' },
        };
      },
      15,
    ));

  it('POST /api/admin/orders/:number/ship', () =>
    everyAnswerHolds(
      adminApi.ship,
      asAdmin,
      async () => {
        const { number } = (await orderAt(['confirm-payment'])).order;
        return {
          params: { number },
          body: { version: await versionOf(number), carrier: 'GIG Logistics', trackingNote: 'Rider 0803 000 0000' },
        };
      },
      12,
    ));

  it('POST /api/admin/orders/:number/deliver', () =>
    everyAnswerHolds(
      adminApi.deliver,
      asAdmin,
      async () => {
        const { number } = (await orderAt(['confirm-payment', 'ship'])).order;
        return { params: { number }, body: { version: await versionOf(number) } };
      },
      12,
    ));

  it('POST /api/admin/orders/:number/cancel', () =>
    everyAnswerHolds(
      adminApi.cancel,
      asAdmin,
      async () => {
        const { number } = (await placeOrder()).order;
        return { params: { number }, body: { version: await versionOf(number), reason: 'Out of stock at the supplier' } };
      },
      15,
    ));

  it('POST /api/admin/products', () => everyAnswerHolds(adminApi.createProduct, asAdmin, () => ({ body: productForm() })));

  it('PUT /api/admin/products/:id', async () => {
    const { id } = await newProduct();
    await everyAnswerHolds(adminApi.updateProduct, asAdmin, async () => {
      const { version } = (await (await admin.get(`/admin/products/${id}`)).json()) as { version: string };
      return { params: { id }, body: { ...productForm(), version } };
    });
  });

  it('DELETE /api/admin/products/:id', () =>
    everyAnswerHolds(adminApi.deleteProduct, asAdmin, async () => ({ params: { id: (await newProduct()).id } }), 20));

  it('POST /api/admin/images (bytes of any kind, under any type)', async () => {
    const svgWithScript = new TextEncoder().encode(
      '<svg xmlns="http://www.w3.org/2000/svg"><animate attributeName="href" to="&#106;avascript:alert(1)"/><script>alert(1)</script></svg>',
    );
    const bytes = fc.oneof(
      fc.constantFrom(PNG, svgWithScript, new Uint8Array(0), new TextEncoder().encode('<html><script>alert(1)</script>')),
      fc.uint8Array({ maxLength: 400 }),
      // A PNG's signature followed by anything.
      fc.uint8Array({ maxLength: 200 }).map((tail) => new Uint8Array([...PNG.slice(0, 16), ...tail])),
    );
    const type = fc.constantFrom(
      'image/png',
      'image/jpeg',
      'image/webp',
      'image/svg+xml',
      'image/gif',
      'text/html',
      'application/json',
      null,
    );
    await fc.assert(
      fc.asyncProperty(bytes, type, async (body, contentType) => {
        await attemptHolds(admin, adminApi.uploadImage, {
          method: 'POST',
          url: adminApi.uploadImage.path,
          body: { bytes: body as Uint8Array<ArrayBuffer>, contentType },
        });
      }),
      runOptions(30),
    );
  });

  it('POST /api/admin/trade-ins/:reference/move', () =>
    everyAnswerHolds(
      adminApi.moveTradeIn,
      asAdmin,
      async () => {
        const { reference } = await submitted();
        const { version } = (await (await admin.get(`/admin/trade-ins/${reference}`)).json()) as { version: string };
        return { params: { reference }, body: { version, move: 'offer', offerNaira: 250_000, note: 'Good condition' } };
      },
      15,
    ));

  it('POST /api/admin/payments/:id/attach', () =>
    everyAnswerHolds(
      adminApi.attachPayment,
      asAdmin,
      async () => ({
        params: { id: await unmatchedPayment() },
        body: { orderNumber: (await placeOrder()).order.number, note: 'Named the order in the narration' },
      }),
      15,
    ));

  it('POST /api/admin/payments/:id/resolve', () =>
    everyAnswerHolds(
      adminApi.resolvePayment,
      asAdmin,
      async () => ({ params: { id: await unmatchedPayment() }, body: { note: 'Refunded by transfer' } }),
      15,
    ));

  it('DELETE /api/admin/subscribers/:id', () =>
    everyAnswerHolds(adminApi.removeSubscriber, asAdmin, async () => {
      const row = await env.DB.prepare('insert into newsletter_subscribers (email) values (?) returning id')
        .bind(newEmail('subscriber'))
        .first<{ id: number }>();
      return { params: { id: String(row!.id) } };
    }));
});
