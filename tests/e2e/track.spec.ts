import type { Page } from '@playwright/test';
import { placeGuestOrder } from './accounts.ts';
import { expect, test } from './fixtures.ts';
import { islandsHydrated } from './islands.ts';

/**
 * /track is a form the Worker answers (POST /track/order), made to answer in place by a plain
 * script: no framework loads with it. checkout.spec.ts tracks an order after checking out,
 * payments.spec.ts watches one turn paid, polish.spec.ts copies its bank details.
 */

const CHARGER = 'anker-735-charger-ganprime-65w';
const NOT_FOUND = 'We could not find an order with that order number and e-mail address.';

/** Looks an order up on /track as a shopper does; answers the region that shows it. */
async function lookUp(page: Page, order: { number: string; email: string }) {
  await page.goto('/track');
  await islandsHydrated(page);
  await page.getByLabel('Order number').fill(order.number);
  await page.getByLabel('Email used at checkout').fill(order.email);
  await page.getByRole('button', { name: 'Track Order' }).click();
  return page.getByRole('region', { name: `Order ${order.number}` });
}

test('an empty lookup names both fields and puts focus on the first; a found order takes focus, without React', async ({
  page,
}) => {
  const order = await placeGuestOrder(page, CHARGER);
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  await page.goto('/track');
  await islandsHydrated(page);

  await page.getByRole('button', { name: 'Track Order' }).click();
  const number = page.getByLabel('Order number');
  await expect(number).toHaveAttribute('aria-invalid', 'true');
  await expect(number).toHaveAccessibleDescription('Please enter your order number');
  await expect(page.getByLabel('Email used at checkout')).toHaveAttribute('aria-invalid', 'true');
  await expect(number).toBeFocused();

  await number.fill(order.number);
  await page.getByLabel('Email used at checkout').fill(order.email);
  await page.getByRole('button', { name: 'Track Order' }).click();
  const result = page.getByRole('region', { name: `Order ${order.number}` });
  await expect(result).toBeVisible();
  await expect(result).toBeFocused();
  await expect(result).toContainText('Payment due');
  // The corrected fields are no longer marked.
  await expect(number).not.toHaveAttribute('aria-invalid', 'true');
  // Answered in place (no navigation to /track/order); the address names the order found.
  await expect(page).toHaveURL(new RegExp(`/track\\?order=${order.number}$`));
  expect(scripts.some((url) => url.includes('TrackPage.astro'))).toBe(true);
  expect(scripts.filter((url) => /react|jsx-runtime|client\.[\w-]+\.js$/i.test(new URL(url).pathname))).toEqual([]);

  // A reload keeps it on screen when this browser placed the order (it knows the e-mail) ...
  await page.evaluate(({ number, email }) => {
    localStorage.setItem('recentOrders', JSON.stringify([{ number, email, placedAt: new Date().toISOString() }]));
  }, order);
  await page.reload();
  await expect(page.getByRole('region', { name: `Order ${order.number}` })).toContainText('Payment due');
  // ... and otherwise only fills the number: the e-mail is still asked for.
  await page.evaluate(() => localStorage.removeItem('recentOrders'));
  await page.reload();
  await islandsHydrated(page);
  await expect(page.getByLabel('Order number')).toHaveValue(order.number);
  await expect(page.getByLabel('Email used at checkout')).toHaveValue('');
  await expect(page.getByRole('region', { name: `Order ${order.number}` })).toHaveCount(0);
});

test('a pick-up order says where to collect it; a delivered one, where it goes', async ({ page }) => {
  for (const [pickup, heading, text] of [
    [true, 'Pick-up', 'To collect at the GTS store, 23 Otigba Street, Computer Village, Ikeja, Lagos'],
    [false, 'Delivery', '12 Allen Avenue, Ikeja, Lagos'],
  ] as const) {
    const order = await placeGuestOrder(page, CHARGER, { pickup });
    const result = await lookUp(page, order);
    await expect(result.getByRole('heading', { name: heading, exact: true })).toBeVisible();
    await expect(result).toContainText(text);
    await expect(result).not.toContainText(', ,');
  }
});

test('an expired or cancelled order says what the shopper can do about it, and the store’s reason for a cancel', async ({
  page,
  db,
}) => {
  for (const [status, text] of [
    [
      'expired',
      'We did not receive a transfer in time, so this order expired and its items went back on sale. If you did send the money, call us on +234 802 000 4870 with your transfer receipt',
    ],
    ['cancelled', 'This order is cancelled. If you paid for it, we refund the transfer to the account it came from.'],
  ] as const) {
    // A product no other browser test orders: these two units are not given back.
    const order = await placeGuestOrder(page, 'sandisk-extreme-portable-ssd');
    // Moved as the expiry job or the admin would (their moves are tested in tests/api): only the view is tried here.
    db.query(`update orders set status = '${status}' where number = '${order.number}'`);
    if (status === 'cancelled')
      db.query(
        `insert into order_events (order_id, from_status, to_status, actor, note)
         select id, 'pending', 'cancelled', 'admin', 'The colour you chose is no longer made' from orders where number = '${order.number}'`,
      );
    const result = await lookUp(page, order);
    await expect(result.locator('.track__next')).toContainText(text);
    // The admin's reason, as the cancel e-mail gave it; an expiry has none.
    if (status === 'cancelled')
      await expect(result).toContainText('Reason from the store: The colour you chose is no longer made');
    else await expect(result).not.toContainText('Reason from the store');
  }
});

test('a lookup that cannot reach the store says so, and keeps what was typed', async ({ page }) => {
  await page.goto('/track');
  await islandsHydrated(page);
  await page.route('**/track/order', (route) => route.abort('internetdisconnected'));
  await page.getByLabel('Order number').fill('GTS-ZZZZZZZZZZ');
  await page.getByLabel('Email used at checkout').fill('ada@example.com');
  await page.getByRole('button', { name: 'Track Order' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'We could not look up your order just now' })).toBeVisible();
  await expect(page.getByLabel('Order number')).toHaveValue('GTS-ZZZZZZZZZZ');
  await expect(page.getByRole('button', { name: 'Track Order' })).toBeEnabled();

  // Offline, it says that, not that the store failed.
  await page.context().setOffline(true);
  await page.getByRole('button', { name: 'Track Order' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'You are offline: we can look up your order once you are connected again.' }),
  ).toBeVisible();
  await page.context().setOffline(false);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the form posts to the Worker, which shows the order; a wrong pair gets a 404 page that says so', async ({ page }) => {
    const order = await placeGuestOrder(page, CHARGER);
    await page.goto(`/track`);
    await page.getByLabel('Order number').fill(order.number.toLowerCase());
    await page.getByLabel('Email used at checkout').fill(order.email);
    const [found] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/track/order')),
      page.getByRole('button', { name: 'Track Order' }).click(),
    ]);
    expect(found.status()).toBe(200);
    expect(found.headers()['cache-control']).toBe('no-store');
    expect(found.headers()['content-security-policy']).toMatch(/default-src 'self'.*script-src/);
    const result = page.getByRole('region', { name: `Order ${order.number}` });
    await expect(result).toBeVisible();
    await expect(result).toContainText('Anker 735 Charger (GaNPrime 65W)');
    await expect(result).toContainText('Payment due');
    // An answer about one shopper's order is not for search engines.
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);

    await page.getByLabel('Email used at checkout').fill('someone.else@example.com');
    const [missing] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/track/order')),
      page.getByRole('button', { name: 'Track Order' }).click(),
    ]);
    expect(missing.status()).toBe(404);
    await expect(page.getByRole('alert')).toHaveText(NOT_FOUND);
    await expect(page.getByRole('region', { name: `Order ${order.number}` })).toHaveCount(0);
    await expect(page.getByLabel('Email used at checkout')).toHaveValue('someone.else@example.com');
  });

  test('a field to correct comes back marked, with its message', async ({ page }) => {
    await page.goto('/track');
    await page.getByLabel('Order number').fill('order 12');
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/track/order')),
      page.getByRole('button', { name: 'Track Order' }).click(),
    ]);
    expect(answer.status()).toBe(400);
    const number = page.getByLabel('Order number');
    await expect(number).toHaveValue('order 12');
    await expect(number).toHaveAccessibleDescription('Order numbers look like GTS-7K3M9Q2XWD');
    await expect(page.getByLabel('Email used at checkout')).toHaveAttribute('aria-invalid', 'true');
  });
});
