import { productApi } from '../../src/features/catalogue/product-api.ts';
import type { Page } from '@playwright/test';
import { expect, type TestDb } from './fixtures.ts';

/**
 * Accounts for the browser tests, made through the real API from the page's own context
 * (`page.request` shares the browser context's cookies, so signing in there signs the
 * pages in): sign up, confirm the address with the link from the e-mail outbox, sign in.
 */

export const PASSWORD = 'correct horse battery';

/** The local admin the seed creates (scripts/seed.ts; the test servers are seeded the same way). */
export const ADMIN = { email: 'admin@gts.local', password: 'gts-local-admin-2026' } as const;

/** A fresh address for one test (the test D1 lives for the whole run). */
export const newEmail = (label = 'shopper') =>
  `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}@example.com`;

/** The account API takes state-changing requests only from the store's own pages (Origin = the store). */
const origin = () => `http://127.0.0.1:${process.env.E2E_PORT}`;

export function apiPost(page: Page, path: string, data?: unknown) {
  return page.request.post(path, { data, headers: { origin: origin() } });
}

const sqlText = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** The token of the newest /login?verify= link e-mailed to `email`. */
export function verifyToken(db: TestDb, email: string): string {
  const rows = db.query<{ text: string }>(`select text from email_outbox where recipient = ${sqlText(email)} order by id desc`);
  for (const { text } of rows) {
    const match = /\/login\?verify=([A-Za-z0-9_-]+)/.exec(text);
    if (match) return match[1]!;
  }
  throw new Error(`No verify link e-mailed to ${email}`);
}

export interface TestUser {
  email: string;
  password: string;
  name: string;
}

/** Signs in through the API; the session cookie lands in the page's browser context. */
export async function signIn(page: Page, email: string, password: string) {
  const response = await apiPost(page, '/api/account/sign-in', { email, password });
  expect(response.status(), await response.text()).toBe(200);
}

/** A new account, its address confirmed (unless `verify: false`), signed in in `page`'s context. */
export async function signedInUser(
  page: Page,
  db: TestDb,
  { name = 'Ada Obi', email = newEmail(), password = PASSWORD, verify = true } = {},
): Promise<TestUser> {
  const up = await apiPost(page, '/api/account/sign-up', { email, password, name });
  expect(up.status(), await up.text()).toBe(202);
  if (verify) {
    // Not signed in yet: the link takes the sign-up password as proof of who signed up (issue 20).
    const verified = await apiPost(page, '/api/account/verify-email', { token: verifyToken(db, email), password });
    expect(verified.status(), await verified.text()).toBe(200);
    // Proving the address signed this browser in (one session, not two).
    return { email, password, name };
  }
  await signIn(page, email, password);
  return { email, password, name };
}

/** Places an order for one unit of a product through the API as the signed-in user (delivered, or `pickup`); answers its number. */
export async function placeOrderAs(page: Page, user: TestUser, productId: string, { pickup = false } = {}): Promise<string> {
  const product = await page.request.get(`/api/products/${productId}`);
  expect(product.status()).toBe(200);
  const { price, variants } = productApi.get.response.parse(await product.json());
  // The first variant at its own price, or the product's when it has none.
  const [first] = variants;
  const response = await apiPost(page, '/api/orders', {
    idempotencyKey: `e2e-${crypto.randomUUID()}`,
    customer: pickup
      ? { delivery: 'pickup', name: user.name, email: user.email, phone: '0803 123 4567' }
      : {
          name: user.name,
          email: user.email,
          phone: '0803 123 4567',
          address: '12 Allen Avenue',
          city: 'Ikeja',
          state: 'Lagos',
        },
    lines: [{ productId, variant: first?.id ?? '', quantity: 1, price: first?.price ?? price }],
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { order: { number: string } }).order.number;
}

/**
 * An unpaid guest order placed through the API (as the checkout does) under a fresh e-mail, for
 * /track: its number and that e-mail. The page must not be signed in.
 */
export async function placeGuestOrder(
  page: Page,
  productId: string,
  options: { pickup?: boolean } = {},
): Promise<{ number: string; email: string }> {
  const email = `guest-${crypto.randomUUID().slice(0, 12)}@example.com`;
  return { number: await placeOrderAs(page, { name: 'Ada Obi', email, password: '' }, productId, options), email };
}

/** Moves an order to delivered, as an admin would (straight in D1: quicker than the admin screens, which admin-journey.spec.ts drives). */
export function markDelivered(db: TestDb, orderNumber: string) {
  db.query(`update orders set status = 'delivered' where number = ${sqlText(orderNumber)}`);
}
