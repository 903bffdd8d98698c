import type { Page } from '@playwright/test';
import { newEmail, placeOrderAs, signedInUser, signIn, ADMIN } from './accounts.ts';
import { quietServiceWorker } from './contexts.ts';
import { axeViolations, expect, test } from './fixtures.ts';
import { islandsHydrated } from './islands.ts';

const ACCESS_DENIED = 'Access Denied - You need admin privileges to access this page.';

/**
 * What only an admin may load: the admin screens' script, the chart's, and any admin endpoint.
 * (The page links the screens' stylesheet for everyone: Astro puts an island's CSS in its page.)
 */
const ADMIN_ONLY = /\/_astro\/(AdminConsole|chart\.browser)[^/]*\.js$|\/api\/admin\//;

test.beforeEach(async ({ context }) => {
  await quietServiceWorker(context);
});

/** Every request the page makes, kept for the test to look through. */
function recordRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  return urls;
}

/** /admin once its island has hydrated and nothing on it is still loading. */
async function openAdmin(page: Page, path: string) {
  await page.goto(path);
  await islandsHydrated(page);
  await expect(page.locator('.admin-screen, .admin-denied').first()).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0);
}

test('a guest on /admin is refused, offered to sign in, and loads no admin code', async ({ page }) => {
  const requests = recordRequests(page);
  await openAdmin(page, '/admin?tab=orders');
  await expect(page.getByText(ACCESS_DENIED, { exact: true })).toBeVisible();
  await expect(page.locator('.admin-denied').getByRole('link', { name: 'Sign in' })).toHaveAttribute(
    'href',
    '/login?next=/admin',
  );
  await page.waitForLoadState('networkidle');
  expect(requests.filter((url) => ADMIN_ONLY.test(url))).toEqual([]);
});

test('a customer on /admin sees Access Denied, no admin screen, and no request for admin code or data', async ({ page, db }) => {
  await signedInUser(page, db, { verify: false });
  const requests = recordRequests(page);
  await openAdmin(page, '/admin');
  await expect(page.getByText(ACCESS_DENIED, { exact: true })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Admin sections' })).toHaveCount(0);
  await expect(page.locator('.admin-denied').getByRole('link', { name: 'Sign in' })).toHaveCount(0);
  await page.waitForLoadState('networkidle');
  expect(requests.filter((url) => ADMIN_ONLY.test(url))).toEqual([]);
});

test('shopper pages load none of the admin code', async ({ page }) => {
  const requests = recordRequests(page);
  for (const path of ['/', '/products?category=phones', '/product/sony-playstation-5-slim', '/cart', '/track', '/login']) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
  }
  expect(requests.filter((url) => /\/_astro\/(Admin|admin|chart\.browser)/.test(url) || url.includes('/api/admin/'))).toEqual([]);
});

test('the admin moves between the sections with the address, and Back returns', async ({ page, db }) => {
  const shopper = await signedInUser(page, db, { verify: false });
  const number = await placeOrderAs(page, shopper, 'sony-playstation-5-slim');
  await signIn(page, ADMIN.email, ADMIN.password);
  await openAdmin(page, '/admin');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  // The chart's box is there from the first paint and the chart library arrives into it.
  await expect(page.locator('.admin-chart__plot canvas')).toBeVisible();
  const sections = page.getByRole('navigation', { name: 'Admin sections' });
  await sections.getByRole('link', { name: 'Orders' }).click();
  await expect(page).toHaveURL(/\/admin\?tab=orders$/);
  await expect(sections.getByRole('link', { name: 'Orders' })).toHaveAttribute('aria-current', 'page');
  await page.getByRole('link', { name: number }).click();
  await expect(page).toHaveURL(new RegExp(`tab=orders&order=${number}`));
  await expect(page.getByRole('heading', { name: `Order ${number}` })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Confirm payment' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Mark delivered' })).toHaveCount(0);

  // Confirming the payment: the bank reference is required; the amount is prefilled with the total.
  await page.getByRole('button', { name: 'Confirm payment' }).click();
  const dialog = page.getByRole('dialog', { name: `Confirm payment for ${number}` });
  await expect(dialog.getByLabel('Amount received (₦, naira)')).toBeFocused();
  await dialog.getByRole('button', { name: 'Confirm payment' }).click();
  await expect(dialog.getByLabel('Bank reference')).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByLabel('Bank reference').fill('NIP-000123456');
  await dialog.getByRole('button', { name: 'Confirm payment' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('.admin-order__status')).toContainText('Paid, being packed');
  await expect(page.getByRole('button', { name: 'Mark shipped' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Confirm payment' })).toHaveCount(0);

  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Orders', exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/admin\?tab=orders$/);
});

/** A refusal as the Worker words it (functions/platform/errors.ts), for a route the test answers itself. */
const refusal = (status: number, code: string, message: string) => ({
  status,
  contentType: 'application/json',
  body: JSON.stringify({ error: { code, message } }),
});

test('a refused move is said on the order, not as Access Denied; only a 403 "forbidden" is', async ({ page }) => {
  const number = await placeOrderAs(page, { email: newEmail('refused'), password: '', name: 'Bola Ade' }, 'hisense-32-a4-hd');
  await signIn(page, ADMIN.email, ADMIN.password);
  await openAdmin(page, `/admin?tab=orders&order=${number}`);
  await expect(page.locator('.admin-order__status')).toContainText('Awaiting payment');
  const cancel = page.getByRole('dialog', { name: `Cancel order ${number}?` });

  // The cancel request is answered here, with each refusal in turn.
  let answer = refusal(403, 'payment_locked', 'This order is locked while its payment is checked.');
  await page.route(`**/api/admin/orders/${number}/cancel`, (route) => route.fulfill(answer));

  // A 403 that is not a permission refusal: its message stays in the dialog.
  await page.getByRole('button', { name: 'Cancel order' }).click();
  await cancel.getByLabel('Reason').fill('The shopper asked us to cancel it.');
  await cancel.getByRole('button', { name: 'Cancel the order' }).click();
  await expect(cancel.getByRole('alert')).toHaveText('This order is locked while its payment is checked.');
  await expect(page.getByText(ACCESS_DENIED, { exact: true })).toHaveCount(0);

  // A refused transition (409): the dialog closes, the order says why and reloads as it is.
  answer = refusal(409, 'transition_not_allowed', 'An order awaiting payment cannot be cancelled by this test.');
  await cancel.getByRole('button', { name: 'Cancel the order' }).click();
  await expect(cancel).toBeHidden();
  await expect(
    page.getByRole('alert').filter({ hasText: 'An order awaiting payment cannot be cancelled by this test.' }),
  ).toBeVisible();
  await expect(page.getByText(ACCESS_DENIED, { exact: true })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: `Order ${number}` })).toBeVisible();
  await expect(page.locator('.admin-order__status')).toContainText('Awaiting payment');
  await expect(page.getByRole('button', { name: 'Cancel order' })).toBeVisible();

  // The Worker's permission refusal (requireAdmin's 403 "forbidden"): the whole page says Access Denied.
  answer = refusal(403, 'forbidden', ACCESS_DENIED);
  await page.getByRole('button', { name: 'Cancel order' }).click();
  await cancel.getByLabel('Reason').fill('The shopper asked us to cancel it.');
  await cancel.getByRole('button', { name: 'Cancel the order' }).click();
  await expect(page.getByText(ACCESS_DENIED, { exact: true })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Admin sections' })).toHaveCount(0);
  await expect(page.locator('.admin-denied').getByRole('link', { name: 'Sign in' })).toHaveCount(0);
});

const screens = [
  ['dashboard', '/admin'],
  ['orders', '/admin?tab=orders'],
  ['products', '/admin?tab=products'],
  ['new product form', '/admin?tab=products&edit=new'],
  ['product form with variants', '/admin?tab=products&edit=apple-iphone-17'],
  ['subscribers', '/admin?tab=subscribers'],
  ['payments', '/admin?tab=payments&view=all'],
] as const;

for (const theme of ['dark', 'light'] as const) {
  test(`the admin sections have no axe violations (${theme})`, async ({ page }) => {
    // Six screens, each analysed (every rule in dark): past a minute in a CI run where the API
    // tests share the two cores, as the account pages' analyses are.
    test.slow();
    await page.addInitScript((dark) => localStorage.setItem('theme', JSON.stringify(dark)), theme === 'dark');
    await signIn(page, ADMIN.email, ADMIN.password);
    for (const [name, path] of screens) {
      await openAdmin(page, path);
      await expect(page.locator('.admin-screen'), name).toBeVisible();
      await page.waitForLoadState('networkidle');
      // Every rule in dark, the colour rules in light (fixtures.ts `axe`).
      expect(await axeViolations(page, theme), `${name} (${theme})`).toEqual([]);
    }
  });
}

test('Access Denied has no axe violations', async ({ page }) => {
  await openAdmin(page, '/admin');
  expect(await axeViolations(page)).toEqual([]);
});

test('the product form checks what the Worker checks, at the fields, and Cancel closes it untouched', async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await openAdmin(page, '/admin?tab=products&edit=new');
  await expect(page.getByRole('heading', { name: 'Add a product' })).toBeVisible();
  // Every category and brand is offered.
  await expect(page.getByLabel('Category').locator('option')).toHaveCount(16);
  const price = page.getByLabel('Price (₦, naira)');
  // Typed as amounts are written (1,250,000): a text box with the phone's number pad.
  await expect(price).toHaveAttribute('inputmode', 'decimal');
  await page.getByLabel('Image URL', { exact: true }).fill('https://example.com/phone.png');
  await price.fill('10.005');
  await page.getByRole('button', { name: 'Add product' }).last().click();
  await expect(page.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Must be the URL of an image on this store', { exact: false })).toBeVisible();
  await expect(page.getByText('At most two decimals (kobo)')).toBeVisible();
  await price.fill('about 5k');
  await page.getByRole('button', { name: 'Add product' }).last().click();
  await expect(page.getByText('Must be an amount in naira, for example 1,250,000 or 1299.50')).toBeVisible();
  await price.fill('₦1,250,000');
  await page.getByRole('button', { name: 'Add product' }).last().click();
  await expect(page.getByText('Must be an amount in naira', { exact: false })).toHaveCount(0);
  await expect(page.getByText('At most two decimals (kobo)')).toHaveCount(0);

  // With variants, the product's own price and stock give way to each variant's, named by a choice.
  await page.getByRole('button', { name: 'Add variant' }).click();
  await expect(page.locator('#product-price')).toHaveCount(0);
  await expect(page.getByLabel('Choice name')).toBeVisible();
  await expect(page.getByRole('group', { name: 'Variant 1' }).getByLabel('Price (₦, naira)')).toBeVisible();
  await page.getByRole('button', { name: 'Remove variant 1' }).click();
  await expect(page.getByLabel('Choice name')).toHaveCount(0);

  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/admin\?tab=products$/);
  await expect(page.getByRole('heading', { name: 'Products', exact: true })).toBeVisible();
});

test.describe('on a 390 px phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });
  test('no admin section is wider than the screen (tables scroll in their own box)', async ({ page }) => {
    await signIn(page, ADMIN.email, ADMIN.password);
    for (const [name, path] of screens) {
      await openAdmin(page, path);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, name).toBeLessThanOrEqual(390);
    }
  });
});
