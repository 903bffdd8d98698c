import { env, exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { api } from '../../functions/index.ts';
import { accountApi } from '../../src/features/account/account-api.ts';
import { adminApi } from '../../src/features/admin/admin-api.ts';
import { cartCheckApi } from '../../src/features/cart/cart-check.ts';
import { productApi } from '../../src/features/catalogue/product-api.ts';
import { productSaleApi } from '../../src/features/catalogue/product-sale-api.ts';
import { newsletterApi } from '../../src/features/newsletter/subscribe.ts';
import { orderApi } from '../../src/features/orders/order-api.ts';
import { installApi } from '../../src/features/pwa/install-api.ts';
import { tradeInApi } from '../../src/features/trade-ins/trade-in-api.ts';
import { type AnswerOf, fillPath, type Endpoint } from '../../src/lib/api-contract.ts';
import { CONTRACTS } from './all-contracts.ts';
import { checkAnswer } from './client.ts';
import { errorBodySchema } from '../../src/lib/api-error.ts';
import { Browser, linkToken, newEmail, PASSWORD, signedInUser } from './account-helpers.ts';
import { signedInAdmin, send } from './admin-helpers.ts';
import { newKey, orderRequest, PS5, placeOrder } from './orders-helpers.ts';
import { PNG, postTradeIn, SWAP_PS5, shopper, tradeInFields } from './trade-in-helpers.ts';

/**
 * Every answer the real Worker gives is exactly what its contract (src/lib/api-contract.ts)
 * says, the schema the browser parses it with: nothing missing, nothing extra.
 */

/**
 * Routes that are not ours to declare: Auth.js's own under /api/auth/* (its providers,
 * csrf, session, sign-in and callback routes, answered by @auth/core), and the test-only
 * stand-in for Google's authorize page under /api/test/* (404 unless AUTH_GOOGLE_STANDIN).
 */
const NOT_OURS = (path: string) => path === '/api/health' || path.startsWith('/api/auth/') || path.startsWith('/api/test/');

async function call(
  endpoint: Endpoint,
  init: { params?: Record<string, string>; body?: unknown; headers?: Record<string, string>; query?: string } = {},
) {
  const url = `http://localhost:8787${fillPath(endpoint.path, init.params)}${init.query ? `?${init.query}` : ''}`;
  const response = await exports.default.fetch(
    new Request(url, {
      method: endpoint.method,
      // A browser sends Origin with every POST; csrf() refuses a body-less POST without it.
      headers: {
        origin: 'http://localhost:8787',
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    }),
  );
  const json: unknown = await response.json();
  return { status: response.status, json };
}

/** The answer parses with the contract's schema and the parse drops nothing the Worker sent. */
function expectFitsContract(endpoint: Endpoint, json: unknown) {
  const parsed = checkAnswer(endpoint.response, json);
  expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.issues)).toBe(true);
  expect(parsed.success && parsed.data).toEqual(json);
}

/** An answer read with a plain script's light check (src/lib/light-schema.ts), which keeps only what it names. */
function lightRead(endpoint: Endpoint, json: unknown): unknown {
  const parsed = checkAnswer(endpoint.response, json);
  expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.issues)).toBe(true);
  return parsed.success ? parsed.data : undefined;
}

/** A response's answer, checked for its status and against the endpoint's contract. */
async function answer<E extends Endpoint>(endpoint: E, response: Response, status = 200) {
  expect(response.status, await response.clone().text()).toBe(status);
  const json: unknown = await response.json();
  expectFitsContract(endpoint, json);
  return json as AnswerOf<E>;
}

/** The tokens of the newest newsletter confirmation e-mail to `email`: its confirm and unsubscribe links'. */
async function newsletterTokens(email: string) {
  const row = await env.DB.prepare(
    "SELECT text FROM email_outbox WHERE recipient = ? AND kind = 'newsletter_confirm' ORDER BY id DESC LIMIT 1",
  )
    .bind(email)
    .first<{ text: string }>();
  const text = row?.text ?? '';
  const confirmToken = /\/newsletter\/confirm\?token=([\w.-]+)/.exec(text)?.[1];
  const unsubscribeToken = /\/newsletter\/unsubscribe\?token=([\w.-]+)/.exec(text)?.[1];
  expect(confirmToken && unsubscribeToken, text).toBeTruthy();
  return { confirmToken, unsubscribeToken, confirm: { token: confirmToken } };
}

/** The endpoint's path under /api, for the test browsers (which add the /api). */
const path = (endpoint: Endpoint, params: Record<string, string> = {}) => fillPath(endpoint.path, params).slice(4);

describe('API contracts', () => {
  it('cover every route the Worker serves, with the same method and path', () => {
    // A route with a validator is listed twice (the validator, then the handler).
    const served = [
      ...new Set(api.routes.filter((r) => r.method !== 'ALL' && !NOT_OURS(r.path)).map((r) => `${r.method} ${r.path}`)),
    ].sort();
    const declared = CONTRACTS.map((e) => `${e.method} ${e.path}`).sort();
    expect(served).toEqual(declared);
  });

  it('products: a listing page and one product', async () => {
    const page = await call(productApi.list, { query: 'category=phones&sort=price-desc' });
    expect(page.status).toBe(200);
    expectFitsContract(productApi.list, page.json);
    const one = await call(productApi.get, { params: { id: PS5.id } });
    expect(one.status).toBe(200);
    expectFitsContract(productApi.get, one.json);
    // The product page's plain script reads the same answer with a light check: the part it sells by.
    expect([productSaleApi.get.method, productSaleApi.get.path]).toEqual([productApi.get.method, productApi.get.path]);
    const full = productApi.get.response.parse(one.json);
    expect(lightRead(productSaleApi.get, one.json)).toEqual({
      id: full.id,
      name: full.name,
      image: full.image,
      price: full.price,
      stock: full.stock,
      variants: full.variants.map(({ id, label, price, stock, image }) => ({ id, label, price, stock, image })),
    });
  });

  it('orders: quote (with a problem), place, lookup, report payment and cancel', async () => {
    const quote = await call(orderApi.quote, {
      body: { lines: [{ productId: PS5.id, variant: PS5.variant, quantity: 1, price: 1 }] },
    });
    expect(quote.status).toBe(200);
    expectFitsContract(orderApi.quote, quote.json);
    expect(JSON.stringify(quote.json)).toContain('price_changed');
    // /cart's plain script reads the quote with light checks (src/features/cart/cart-check.ts).
    expect([cartCheckApi.quote.method, cartCheckApi.quote.path]).toEqual([orderApi.quote.method, orderApi.quote.path]);
    const quoted = orderApi.quote.response.parse(quote.json);
    expect(lightRead(cartCheckApi.quote, quote.json)).toEqual({
      ok: quoted.ok,
      lines: quoted.lines.map(({ productId, variant, quantity, unitPrice, available, problem }) => ({
        productId,
        variant,
        quantity,
        unitPrice,
        available,
        ...(problem ? { problem: { kind: problem.kind, message: problem.message } } : {}),
      })),
    });

    const request = orderRequest();
    const placed = await call(orderApi.place, { body: request });
    expect(placed.status).toBe(201);
    expectFitsContract(orderApi.place, placed.json);
    const { order, accessToken } = orderApi.place.response.parse(placed.json);
    const bearer = { authorization: `Bearer ${accessToken}` };

    const found = await call(orderApi.lookup, { body: { number: order.number, email: request.customer.email } });
    expect(found.status).toBe(200);
    expectFitsContract(orderApi.lookup, found.json);

    const own = await call(orderApi.get, { params: { number: order.number }, headers: bearer });
    expect(own.status).toBe(200);
    expectFitsContract(orderApi.get, own.json);
    // …and this browser's own order, for its state and hold, and what the cart keeps once it is paid.
    expect([cartCheckApi.ownOrder.method, cartCheckApi.ownOrder.path]).toEqual([orderApi.get.method, orderApi.get.path]);
    const { bankName, accountName, accountNumber, ownAccount } = order.payment!;
    expect(lightRead(cartCheckApi.ownOrder, own.json)).toEqual({
      order: {
        number: order.number,
        status: 'awaiting_payment',
        expiresAt: order.expiresAt,
        total: order.total,
        deliveryMethod: order.deliveryMethod,
        // What is still to pay (all of it: nothing arrived yet), for the notice after a part.
        payment: { bankName, accountName, accountNumber, ownAccount, amount: order.total, received: 0 },
      },
    });
    const stranger = await call(orderApi.get, {
      params: { number: order.number },
      headers: { authorization: `Bearer ${'x'.repeat(43)}` },
    });
    expect(stranger.status).toBe(404);

    const reported = await call(orderApi.reportPayment, { params: { number: order.number }, headers: bearer });
    expect(reported.status).toBe(200);
    expectFitsContract(orderApi.reportPayment, reported.json);

    const other = orderApi.place.response.parse((await call(orderApi.place, { body: orderRequest() })).json);
    const cancelled = await call(orderApi.cancel, {
      params: { number: other.order.number },
      headers: { authorization: `Bearer ${other.accessToken}` },
    });
    expect(cancelled.status, JSON.stringify(cancelled.json)).toBe(200);
    expectFitsContract(orderApi.cancel, cancelled.json);
  });

  it('newsletter: a new and a repeated address, the confirmation link, unsubscribing', async () => {
    const first = await call(newsletterApi.subscribe, { body: { email: 'contract@example.com' } });
    expect(first.status).toBe(202);
    expectFitsContract(newsletterApi.subscribe, first.json);
    const again = await call(newsletterApi.subscribe, { body: { email: 'contract@example.com' } });
    expect(again.status).toBe(202);
    expectFitsContract(newsletterApi.subscribe, again.json);

    const { confirmToken, unsubscribeToken } = await newsletterTokens('contract@example.com');
    const confirmed = await call(newsletterApi.confirm, { body: { token: confirmToken } });
    expect(confirmed.status).toBe(200);
    expectFitsContract(newsletterApi.confirm, confirmed.json);
    const unsubscribed = await call(newsletterApi.unsubscribe, { body: { token: unsubscribeToken } });
    expect(unsubscribed.status).toBe(200);
    expectFitsContract(newsletterApi.unsubscribe, unsubscribed.json);
  });

  it('install offer: check, dismiss, check again', async () => {
    const deviceId = crypto.randomUUID();
    const before = await call(installApi.check, { params: { deviceId } });
    expect(before.status).toBe(200);
    expectFitsContract(installApi.check, before.json);
    const dismissed = await call(installApi.dismiss, { body: { deviceId } });
    expect(dismissed.status).toBe(200);
    expectFitsContract(installApi.dismiss, dismissed.json);
    const after = await call(installApi.check, { params: { deviceId } });
    expectFitsContract(installApi.check, after.json);
    expect(after.json).toEqual({ shouldShowPrompt: false });
  });

  it('accounts: every endpoint, through a signed-in browser', async () => {
    const browser = new Browser();
    const email = newEmail('contract');
    await answer(accountApi.session, await browser.get('/session'));
    await answer(accountApi.paymentMethods, await browser.get('/payment-methods'));
    await answer(accountApi.signUp, await browser.post('/account/sign-up', { email, password: PASSWORD }), 202);
    await answer(accountApi.signIn, await browser.post('/account/sign-in', { email, password: PASSWORD }));
    await answer(accountApi.session, await browser.get('/session'));
    await answer(accountApi.resendVerification, await browser.post('/account/verify-email/resend'));
    await answer(
      accountApi.verifyEmail,
      await browser.post('/account/verify-email', { token: await linkToken(email, 'verify') }),
    );
    await answer(accountApi.profile, await browser.get('/account/profile'));
    await answer(accountApi.updateProfile, await browser.post('/account/profile', { name: 'Contract Person', state: 'Lagos' }));

    const placed = await browser.post('/orders', { ...orderRequest(), customer: { ...orderRequest().customer, email } });
    expect(placed.status).toBe(201);
    const { order } = orderApi.place.response.parse(await placed.json());
    await answer(accountApi.orders, await browser.get('/account/orders'));
    await answer(accountApi.order, await browser.get(fillPath(accountApi.order.path, { number: order.number }).slice(4)));
    await answer(accountApi.transactions, await browser.get('/account/transactions'));
    await env.DB.prepare("update orders set status = 'delivered' where number = ?").bind(order.number).run();
    await answer(accountApi.reviewable, await browser.get('/account/reviewable'));
    await answer(
      accountApi.saveReview,
      await browser.post('/account/reviews', { productId: PS5.id, rating: 4, comment: 'Good' }),
      201,
    );
    await answer(accountApi.reviews, await browser.get('/account/reviews'));

    await answer(
      accountApi.changePassword,
      await browser.post('/account/password', { currentPassword: PASSWORD, newPassword: 'contract passphrase 2' }),
    );
    await answer(accountApi.signOutOthers, await browser.post('/account/sign-out-others'));
    // Where the account is signed in: a second browser's session, listed and ended from this one.
    const other = new Browser();
    await answer(accountApi.signIn, await other.post('/account/sign-in', { email, password: 'contract passphrase 2' }));
    const { sessions } = await answer(accountApi.sessions, await browser.get('/account/sessions'));
    const elsewhere = sessions.find((s) => !s.current);
    expect(elsewhere).toBeDefined();
    await answer(accountApi.endSession, await browser.post(fillPath(accountApi.endSession.path, { id: elsewhere!.id }).slice(4)));
    await answer(accountApi.signOutAll, await browser.post('/account/sign-out-all'));
    await answer(accountApi.forgotPassword, await browser.post('/account/forgot-password', { email }), 202);
    const resetToken = await linkToken(email, 'reset');
    await answer(accountApi.checkResetLink, await browser.post('/account/reset-password/check', { token: resetToken }));
    await answer(
      accountApi.resetPassword,
      await browser.post('/account/reset-password', { token: resetToken, password: 'contract passphrase 3' }),
    );
    await answer(accountApi.signOut, await browser.post('/account/sign-out'));
  });

  it('admin: every endpoint, through a signed-in admin', async () => {
    const { browser } = await signedInAdmin();

    await answer(adminApi.dashboard, await browser.get(path(adminApi.dashboard)));
    await answer(adminApi.audit, await browser.get(`${path(adminApi.audit)}?entity=order&page=1`));
    await answer(adminApi.orders, await browser.get(`${path(adminApi.orders)}?status=awaiting_payment`));
    const placed = await placeOrder();
    const number = { number: placed.order.number };
    let detail = await answer(adminApi.order, await browser.get(path(adminApi.order, number)));
    detail = await answer(
      adminApi.confirmPayment,
      await browser.post(path(adminApi.confirmPayment, number), {
        version: detail.version,
        amountReceivedNaira: placed.order.total / 100,
        bankReference: 'CONTRACT-1',
      }),
    );
    detail = await answer(
      adminApi.ship,
      await browser.post(path(adminApi.ship, number), { version: detail.version, trackingNote: 'Rider: 0803 000 0000' }),
    );
    await answer(adminApi.deliver, await browser.post(path(adminApi.deliver, number), { version: detail.version }));
    const other = { number: (await placeOrder()).order.number };
    const otherDetail = await answer(adminApi.order, await browser.get(path(adminApi.order, other)));
    await answer(
      adminApi.cancel,
      await browser.post(path(adminApi.cancel, other), { version: otherDetail.version, reason: 'Out of stock at the supplier' }),
    );

    await answer(adminApi.products, await browser.get(`${path(adminApi.products)}?category=phones`));
    await answer(adminApi.product, await browser.get(path(adminApi.product, { id: PS5.id })));
    const form = {
      name: 'Contract Test Charger',
      brand: 'Samsung',
      category: 'accessories',
      description: 'A charger created by the contract test, described at some length.',
      priceNaira: 12500.5,
      stock: 4,
      image: '/images/products/galaxy-buds-3-pro.svg',
    };
    const created = await answer(adminApi.createProduct, await browser.post(path(adminApi.createProduct), form), 201);
    await answer(
      adminApi.updateProduct,
      await send(browser, 'PUT', path(adminApi.updateProduct, { id: created.id }), {
        ...form,
        priceNaira: 13000,
        version: created.version,
      }),
    );
    await answer(adminApi.deleteProduct, await send(browser, 'DELETE', path(adminApi.deleteProduct, { id: created.id })));
    const png = Uint8Array.from(
      atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='),
      (c) => c.charCodeAt(0),
    );
    await answer(
      adminApi.uploadImage,
      await browser.request(adminApi.uploadImage.path, {
        method: 'POST',
        headers: { origin: browser.origin, 'content-type': 'image/png' },
        body: png,
      }),
      201,
    );

    await browser.post('/subscribe', { email: 'contract-admin@example.com' });
    // Only confirmed addresses are subscribers (double opt-in).
    await answer(
      newsletterApi.confirm,
      await browser.post(path(newsletterApi.confirm), (await newsletterTokens('contract-admin@example.com')).confirm),
    );
    const list = await answer(adminApi.subscribers, await browser.get(`${path(adminApi.subscribers)}?q=contract-admin`));
    // The export is a CSV file, not JSON: its contract's response is the text.
    const csv = await browser.get(path(adminApi.exportSubscribers));
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const text = await csv.text();
    expect(checkAnswer(adminApi.exportSubscribers.response, text).success).toBe(true);
    expect(text).toContain('contract-admin@example.com');
    const id = String(list.subscribers[0]!.id);
    await answer(adminApi.removeSubscriber, await send(browser, 'DELETE', path(adminApi.removeSubscriber, { id })));
  });

  it('trade-ins: the shopper’s endpoints and the admin’s, through a swap from request to order', async () => {
    const { browser: admin } = await signedInAdmin();
    const owner = new Browser('http://localhost:8787', { RATE_LIMIT_TRADE_IN: '10000/60' });
    const email = newEmail('contract-trade-in');
    await signedInUser(owner, email);
    const fields = tradeInFields({ want: SWAP_PS5, contact: { ...tradeInFields().contact, email } });
    const { tradeIn } = await answer(
      tradeInApi.submit,
      await postTradeIn(fields, [{ bytes: PNG, type: 'image/png' }], owner),
      201,
    );
    const reference = { reference: tradeIn.reference };
    await answer(tradeInApi.lookup, await shopper().post(path(tradeInApi.lookup), { reference: tradeIn.reference, email }));
    await answer(tradeInApi.mine, await owner.get(path(tradeInApi.mine)));

    await answer(adminApi.tradeIns, await admin.get(`${path(adminApi.tradeIns)}?status=new`));
    const detail = await answer(adminApi.tradeIn, await admin.get(path(adminApi.tradeIn, reference)));
    const photo = await admin.request(detail.photos[0]!.url);
    expect(photo.headers.get('content-type')).toBe('image/png');
    expect(path(adminApi.tradeInPhoto, { ...reference, index: '1' })).toBe(detail.photos[0]!.url.slice(4));
    await answer(
      adminApi.moveTradeIn,
      await admin.post(path(adminApi.moveTradeIn, reference), { version: detail.version, move: 'offer', offerNaira: 300_000 }),
    );
    await answer(
      tradeInApi.respond,
      await owner.post(path(tradeInApi.respond, reference), { decision: 'accept', offer: 30_000_000 }),
    );
    await answer(
      tradeInApi.order,
      await owner.post(path(tradeInApi.order, reference), {
        idempotencyKey: newKey(),
        customer: { delivery: 'pickup', name: 'Ada Obi', email, phone: '08031234567' },
      }),
      201,
    );
  });

  it('refusals share one error shape', async () => {
    const refused = await call(orderApi.lookup, { body: { number: 'nope', email: 'x' } });
    expect(refused.status).toBe(400);
    const parsed = errorBodySchema.safeParse(refused.json);
    expect(parsed.success).toBe(true);
    expect(parsed.data?.error.issues?.map((i) => i.field).sort()).toEqual(['email', 'number']);
  });
});
