import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { requireAdmin, requireUser } from '../../functions/accounts/session.ts';
import { createApp } from '../../functions/platform/app.ts';
import { fillEmptyProfileStatement } from '../../functions/accounts/profile.ts';
import { openDb } from '../../functions/platform/db.ts';
import { describe, expect, it } from 'vitest';
import { accountApi } from '../../src/features/account/account-api.ts';
import type { PlacedOrder } from '../../src/features/orders/order-view.ts';
import { Browser, linkToken, newEmail, PASSWORD, signedInUser, userRow } from './account-helpers.ts';
import { orderRequest, PS5 } from './orders-helpers.ts';

async function placeAs(browser: Browser, email: string): Promise<PlacedOrder> {
  const request = orderRequest();
  const response = await browser.post('/orders', { ...request, customer: { ...request.customer, email } });
  expect(response.status, await response.clone().text()).toBe(201);
  return response.json();
}

const setStatus = (number: string, status: string) =>
  env.DB.prepare('update orders set status = ? where number = ?').bind(status, number).run();

describe('orders and transactions belong to their owner', () => {
  it('an order placed while signed in belongs to the account; a guest order does not', async () => {
    const email = newEmail('owner');
    const browser = new Browser();
    const userId = await signedInUser(browser, email);
    const mine = await placeAs(browser, email);
    const guest = await placeAs(new Browser(), newEmail('guest'));
    const owner = (number: string) => env.DB.prepare('select user_id as u from orders where number = ?').bind(number).first('u');
    expect(await owner(mine.order.number)).toBe(userId);
    expect(await owner(guest.order.number)).toBeNull();

    const list = accountApi.orders.response.parse(await (await browser.get('/account/orders')).json());
    expect(list.orders.map((o) => o.number)).toEqual([mine.order.number]);
    expect(list.orders[0]!.payment).toMatchObject({ due: true, amount: mine.order.total, reference: mine.order.number });
    const one = await browser.get(`/account/orders/${mine.order.number}`);
    expect(one.status).toBe(200);
    expect(one.headers.get('cache-control')).toBe('no-store');
  });

  it('the order’s history names the signed-in shopper’s account for their moves, and nobody’s for a guest', async () => {
    const email = newEmail('history');
    const browser = new Browser();
    const userId = await signedInUser(browser, email);
    const mine = await placeAs(browser, email);
    const report = await browser.post(`/orders/${mine.order.number}/payment-report`, undefined, {
      authorization: `Bearer ${mine.accessToken}`,
    });
    expect(report.status, await report.clone().text()).toBe(200);
    const guestBrowser = new Browser();
    const guest = await placeAs(guestBrowser, newEmail('guest'));
    const cancel = await guestBrowser.post(`/orders/${guest.order.number}/cancel`, undefined, {
      authorization: `Bearer ${guest.accessToken}`,
    });
    expect(cancel.status, await cancel.clone().text()).toBe(200);

    const history = async (number: string) =>
      (
        await env.DB.prepare(
          'select e.to_status as status, e.actor_user_id as user from order_events e join orders o on o.id = e.order_id where o.number = ? order by e.id',
        )
          .bind(number)
          .all<{ status: string; user: string | null }>()
      ).results;
    expect(await history(mine.order.number)).toEqual([
      { status: 'awaiting_payment', user: userId },
      { status: 'payment_reported', user: userId },
    ]);
    expect(await history(guest.order.number)).toEqual([
      { status: 'awaiting_payment', user: null },
      { status: 'cancelled', user: null },
    ]);
  });

  it('user A can read none of user B’s orders, transactions or reviews', async () => {
    const a = new Browser();
    const b = new Browser();
    const emailB = newEmail('b');
    await signedInUser(a, newEmail('a'));
    await signedInUser(b, emailB);
    const order = await placeAs(b, emailB);
    await setStatus(order.order.number, 'delivered');
    expect((await b.post('/account/reviews', { productId: PS5.id, rating: 4, comment: 'Great console' })).status).toBe(201);

    expect((await a.get(`/account/orders/${order.order.number}`)).status).toBe(404);
    expect(accountApi.orders.response.parse(await (await a.get('/account/orders')).json()).orders).toEqual([]);
    expect(accountApi.transactions.response.parse(await (await a.get('/account/transactions')).json()).transactions).toEqual([]);
    expect(accountApi.reviews.response.parse(await (await a.get('/account/reviews')).json()).reviews).toEqual([]);
    // Guests get 401 everywhere.
    for (const path of [
      '/account/orders',
      `/account/orders/${order.order.number}`,
      '/account/transactions',
      '/account/reviews',
      '/account/profile',
      '/account/reviewable',
    ]) {
      expect((await new Browser().get(path)).status, path).toBe(401);
    }
    // B sees their own.
    expect(accountApi.orders.response.parse(await (await b.get('/account/orders')).json()).orders).toHaveLength(1);
  });

  it('lists the transfers with reported and confirmed dates', async () => {
    const email = newEmail();
    const browser = new Browser();
    await signedInUser(browser, email);
    const placed = await placeAs(browser, email);
    const reported = await browser.post(`/orders/${placed.order.number}/payment-report`, undefined, {
      authorization: `Bearer ${placed.accessToken}`,
    });
    expect(reported.status).toBe(200);
    const { transactions } = accountApi.transactions.response.parse(await (await browser.get('/account/transactions')).json());
    expect(transactions).toEqual([
      expect.objectContaining({
        orderNumber: placed.order.number,
        amount: placed.order.total,
        reference: placed.order.number,
        status: 'reported',
        confirmedAt: null,
      }),
    ]);
    expect(transactions[0]!.reportedAt).not.toBeNull();
  });

  it('guest orders with the address join the account once it is verified', async () => {
    const email = newEmail('later');
    const guest = await placeAs(new Browser(), email);
    const browser = new Browser();
    await signedInUser(browser, email);
    expect(accountApi.orders.response.parse(await (await browser.get('/account/orders')).json()).orders).toEqual([]);
    expect((await browser.post('/account/verify-email', { token: await linkToken(email, 'verify') })).status).toBe(200);
    const { orders } = accountApi.orders.response.parse(await (await browser.get('/account/orders')).json());
    expect(orders.map((o) => o.number)).toEqual([guest.order.number]);
  });
});

describe('reviews', () => {
  it('only for a product of a delivered order of the user, once (the second is an edit); the product follows, on top of its catalogue history', async () => {
    const email = newEmail();
    const browser = new Browser();
    await signedInUser(browser, email);
    const refused = await browser.post('/account/reviews', { productId: PS5.id, rating: 5 });
    expect(refused.status).toBe(403);
    const placed = await placeAs(browser, email);
    expect((await browser.post('/account/reviews', { productId: PS5.id, rating: 5 })).status).toBe(403); // not delivered yet
    await setStatus(placed.order.number, 'delivered');

    const reviewable = accountApi.reviewable.response.parse(await (await browser.get('/account/reviewable')).json());
    expect(reviewable.products.map((p) => p.productId)).toEqual([PS5.id]);

    const first = await browser.post('/account/reviews', { productId: PS5.id, rating: 5, comment: 'Lovely' });
    expect(first.status).toBe(201);
    const second = await browser.post('/account/reviews', { productId: PS5.id, rating: 3, comment: '' });
    expect(second.status).toBe(200);
    const saved = accountApi.saveReview.response.parse(await second.json());
    expect(saved.review).toMatchObject({ rating: 3, comment: null });
    const count = await env.DB.prepare('select count(*) as n, sum(rating) as stars from reviews where product_id = ?')
      .bind(PS5.id)
      .first<{ n: number; stars: number }>();
    const row = await env.DB.prepare(
      'select rating, reviews, catalogue_rating as catalogueRating, catalogue_reviews as catalogueReviews from products where id = ?',
    )
      .bind(PS5.id)
      .first<{ rating: number; reviews: number; catalogueRating: number; catalogueReviews: number }>();
    const { catalogueRating, catalogueReviews, ...product } = row!;
    // The catalogue's reviews are the product's history; ours (this user's once, as edited) are added to them.
    expect(catalogueReviews).toBeGreaterThan(0);
    expect(
      await env.DB.prepare('select count(*) as n from reviews where product_id = ? and rating = 3').bind(PS5.id).first('n'),
    ).toBe(1);
    expect(product).toEqual({
      rating: Math.round(((catalogueRating * catalogueReviews + count!.stars) / (catalogueReviews + count!.n)) * 10) / 10,
      reviews: catalogueReviews + count!.n,
    });
    expect(saved.product).toEqual({ id: PS5.id, ...product });
    const mine = accountApi.reviews.response.parse(await (await browser.get('/account/reviews')).json());
    expect(mine.reviews).toHaveLength(1);
  });

  it('refuses ratings outside 1-5, multi-line comments and unknown fields', async () => {
    const browser = new Browser();
    await signedInUser(browser);
    for (const body of [
      { productId: PS5.id, rating: 0 },
      { productId: PS5.id, rating: 6 },
      { productId: PS5.id, rating: 4.5 },
      { productId: PS5.id, rating: 4, comment: 'line one\nline two' },
      { productId: PS5.id, rating: 4, comment: 'x'.repeat(501) },
      { productId: PS5.id, rating: 4, userId: 'someone-else' },
    ]) {
      expect((await browser.post('/account/reviews', body)).status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('profile', () => {
  it('saves personal details and preferences with the checkout field rules', async () => {
    const browser = new Browser();
    const email = newEmail();
    await signedInUser(browser, email);
    const saved = await browser.post('/account/profile', {
      name: 'Ada Obi',
      phone: '0803 123 4567',
      address: '12 Allen Avenue',
      city: 'Ikeja',
      state: 'Lagos',
      notifications: { promotions: true },
      theme: 'light',
    });
    expect(saved.status).toBe(200);
    const { profile } = accountApi.updateProfile.response.parse(await saved.json());
    expect(profile).toMatchObject({
      name: 'Ada Obi',
      phone: '+2348031234567',
      state: 'Lagos',
      notifications: { orderUpdates: true, promotions: true },
      theme: 'light',
      email,
      hasPassword: true,
      hasGoogle: false,
    });
    expect((await browser.post('/account/profile', { phone: '12' })).status).toBe(400);
    expect((await browser.post('/account/profile', { address: 'Flat 2\nEvil' })).status).toBe(400);
    const cleared = accountApi.updateProfile.response.parse(
      await (await browser.post('/account/profile', { phone: null })).json(),
    );
    expect(cleared.profile.phone).toBeNull();
  });

  it('a signed-in order fills what the profile left empty, and never what the shopper saved', async () => {
    const browser = new Browser();
    const email = newEmail('fills');
    await signedInUser(browser, email);
    const profile = async () => accountApi.profile.response.parse(await (await browser.get('/account/profile')).json()).profile;
    expect(await profile()).toMatchObject({ name: null, phone: null, address: null, city: null, state: null });
    await placeAs(browser, email);
    const { customer } = orderRequest();
    const filled = await profile();
    expect(filled).toMatchObject({ name: customer.name, city: customer.city, state: customer.state, address: customer.address });
    expect(filled.phone).toMatch(/^\+234\d{10}$/);

    // What the shopper then saves stays, whatever a later order (a gift, say) was delivered to.
    expect((await browser.post('/account/profile', { name: 'Ada Obi-Okafor', city: 'Lekki' })).status).toBe(200);
    const request = orderRequest();
    const gift = await browser.post('/orders', {
      ...request,
      customer: { ...request.customer, email, name: 'Chidi Okeke', address: '4 Awolowo Road', city: 'Ikoyi' },
    });
    expect(gift.status).toBe(201);
    expect(await profile()).toMatchObject({ name: 'Ada Obi-Okafor', city: 'Lekki', address: customer.address });
  });

  it('an order sent to someone else (a gift) fills nothing; a fill made by an ended session writes nothing', async () => {
    const browser = new Browser();
    const email = newEmail('gift-giver');
    const userId = await signedInUser(browser, email);
    const request = orderRequest();
    const gift = await browser.post('/orders', {
      ...request,
      customer: { ...request.customer, email: newEmail('recipient'), name: 'Gift Recipient' },
    });
    expect(gift.status).toBe(201);
    const profile = async () => accountApi.profile.response.parse(await (await browser.get('/account/profile')).json()).profile;
    expect(await profile()).toMatchObject({ name: null, phone: null, address: null });

    // A reset or claim (the version moves) lands between the order's session check and its batch.
    const row = await userRow(email);
    await env.DB.prepare('update users set session_version = session_version + 1 where id = ?').bind(userId).run();
    await fillEmptyProfileStatement(
      openDb(env.DB),
      { id: userId, sessionVersion: row!.session_version as number },
      {
        name: 'Attacker Drop',
        phone: '+2348035550015',
        address: '6 Attacker Close',
        city: 'Lekki',
        state: 'Lagos',
      },
    );
    const after = await userRow(email);
    expect([after!.name, after!.phone, after!.address]).toEqual([null, null, null]);
  });

  it('no request changes a role, the e-mail verification, the address or another user', async () => {
    const browser = new Browser();
    const email = newEmail('me');
    await signedInUser(browser, email);
    const otherEmail = newEmail('other');
    const otherId = await signedInUser(new Browser(), otherEmail);
    for (const body of [
      { role: 'admin' },
      { emailVerified: true },
      { email: 'new@example.com' },
      { id: otherId, name: 'Hacked Name' },
      { userId: otherId, name: 'Hacked Name' },
      { name: 'Fine Name', role: 'admin' },
    ]) {
      const response = await browser.post('/account/profile', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    const me = (await userRow(email))!;
    expect(me).toMatchObject({ role: 'customer', email_verified: null, email, name: null });
    expect((await userRow(otherEmail))!.name).toBeNull();
    // Sign-up and sign-in bodies cannot set them either.
    const sneaky = newEmail('sneaky');
    await new Browser().post('/account/sign-up', { email: sneaky, password: PASSWORD, role: 'admin', emailVerified: true });
    expect(await userRow(sneaky)).toMatchObject({ role: 'customer', email_verified: null });
  });

  it('payment methods are the configured bank account', async () => {
    const response = await new Browser().get('/payment-methods');
    const { bankTransfer } = accountApi.paymentMethods.response.parse(await response.json());
    expect(bankTransfer).toMatchObject({ bankName: 'First Bank', accountNumber: '3081726354', ownAccounts: false });
    expect(bankTransfer.steps.join(' ')).toMatch(
      /Transfer the exact amount to GTS Electronics Ltd, First Bank, account 3081726354/,
    );
  });

  it('with a payment provider, payment methods say each order has its own account, and the shared one only for an order that shows it', async () => {
    const response = await new Browser(undefined, { PAYMENTS_STANDIN: 'true' }).get('/payment-methods');
    const { bankTransfer } = accountApi.paymentMethods.response.parse(await response.json());
    expect(bankTransfer.ownAccounts).toBe(true);
    expect(bankTransfer.steps[1]).toMatch(/^Transfer the exact amount to that account/);
    expect(bankTransfer.steps.join(' ')).not.toMatch(/Transfer the exact amount to GTS Electronics Ltd/);
    expect(bankTransfer.steps.at(-1)).toMatch(/^If an order shows GTS Electronics Ltd, First Bank, account 3081726354 instead/);
  });
});

describe('admin guard', () => {
  // A stand-in for the coming admin API, behind the guards it will use.
  const probe = createApp()
    .get('/signed-in', requireUser(), (c) => c.json({ id: c.var.user.id }))
    .get('/admin', requireAdmin(), (c) => c.json({ id: c.var.user.id }));
  async function callProbe(path: string, browser: Browser) {
    const ctx = createExecutionContext();
    const response = await probe.fetch(
      new Request(`http://localhost:8787/api${path}`, { headers: { cookie: browser.cookieHeader() } }),
      env,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    return response.status;
  }

  it('requireUser and requireAdmin: 401 for a guest, 403 for a customer, 200 for an admin', async () => {
    const browser = new Browser();
    const email = newEmail('staff');
    await signedInUser(browser, email);
    expect(await callProbe('/admin', new Browser())).toBe(401);
    expect(await callProbe('/signed-in', new Browser())).toBe(401);
    expect(await callProbe('/signed-in', browser)).toBe(200);
    expect(await callProbe('/admin', browser)).toBe(403);
    await env.DB.prepare("update users set role = 'admin' where email = ?").bind(email).run();
    expect(await callProbe('/admin', browser)).toBe(200);
  });

  it('the role comes from D1', async () => {
    const browser = new Browser();
    const email = newEmail('boss');
    await signedInUser(browser, email);
    expect((await browser.session()).user?.role).toBe('customer');
    await env.DB.prepare("update users set role = 'admin' where email = ?").bind(email).run();
    expect((await browser.session()).user?.role).toBe('admin');
  });
});
