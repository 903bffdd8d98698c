import type { Page } from '@playwright/test';
import { ADMIN, signIn } from './accounts.ts';
import { expect, test } from './fixtures.ts';
import { islandsHydrated } from './islands.ts';

/**
 * Stored script (issue 20, finding 8; deliverable 7): text that ends a <script>, opens a
 * comment, carries a script, breaks out of an attribute or adds an element is put into every
 * text field of a product, as a marketer's data file or a careless admin could, and every page
 * that shows it must show it as text. Chromium parses what the Worker sent, so this catches
 * what an HTML-escaping template misses (JSON-LD inside a <script>, attributes, islands' props).
 */

/**
 * The attacks of the issue, short enough for the admin's own field rules (a name is at most 120
 * characters), so the admin's screens load the product too; the id names the field that broke out.
 */
const hostile = (field: string) =>
  `</script><h1 id="pwn-${field}">x</h1><!--<script>alert(1)</script>" onmouseover="alert(1)'><img src=x onerror=alert(1)>`;

const PRODUCT = {
  id: 'stored-script-zyxwq',
  // A word the search can find; the rest is the attack.
  name: `Zyxwq ${hostile('n')}`,
  brand: hostile('brand'),
  category: 'phones',
  description: `About it: ${hostile('description')} ${hostile('description-2')}`,
  priceKobo: 5_000_000,
  image: '/images/products/itel-a90.svg',
  variants: [
    `</script><h1 id="pwn-variant">v</h1>`,
    `" onmouseover="alert('variant')`,
    `'><img src=x id="pwn-img" onerror=alert(1)>`,
  ],
  stock: 9,
};
/** The variants' choice name ("Storage"): at most 40 characters in the admin's rules. */
const CHOICE_NAME = `'><img src=x onerror=alert(1)></script>`;

/** Watches a page for what an injection would do: a dialog, or an element the attack names. */
function watch(page: Page) {
  const dialogs: string[] = [];
  page.on('dialog', async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  return {
    async expectNothingInjected(where: string) {
      // Handlers would run on hover: give any that slipped in the chance, then look. Inside JSON
      // an attribute's quotes arrive as `\"`, so an injected id may start with a backslash or quote.
      await page.mouse.move(200, 200);
      await page.mouse.move(400, 300);
      const found = await page.evaluate(() =>
        [...document.querySelectorAll('[id], img[onerror], [onmouseover]')]
          .filter((e) => /^\W*pwn/.test(e.id) || e.hasAttribute('onerror') || e.hasAttribute('onmouseover'))
          .map((e) => e.outerHTML.slice(0, 200)),
      );
      expect(found, `${where}: injected elements or handlers`).toEqual([]);
      expect(dialogs, `${where}: dialogs`).toEqual([]);
    },
  };
}

test.beforeEach(({ db }) => {
  db.insertProduct(PRODUCT);
  db.query(`update products set variant_label = '${CHOICE_NAME.replaceAll("'", "''")}' where id = '${PRODUCT.id}'`);
});

test('the product page shows every hostile field as text, and its JSON-LD still holds the exact name', async ({ page }) => {
  const injected = watch(page);
  const response = await page.goto(`/product/${PRODUCT.id}`);
  expect(response?.status()).toBe(200);
  // First as the Worker sent it: a script closed early would also keep the islands from loading.
  await injected.expectNothingInjected('/product/{id} as sent');
  await islandsHydrated(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(PRODUCT.name);
  await expect(page.getByText(PRODUCT.description)).toBeVisible();
  await injected.expectNothingInjected('/product/{id}');

  const ldScripts = page.locator('script[type="application/ld+json"]');
  await expect(ldScripts).toHaveCount(1);
  const jsonLd = JSON.parse((await ldScripts.textContent()) ?? '') as { name: string; description: string };
  expect(jsonLd.name).toBe(PRODUCT.name);
  expect(jsonLd.description).toBe(PRODUCT.description);
  // The title and meta tags are attributes and text: exact, and nothing after them broke out.
  expect(await page.title()).toContain(PRODUCT.name);
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', PRODUCT.description);
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', /Zyxwq/);
});

test('the listing and a search for it show it as text', async ({ page }) => {
  const injected = watch(page);
  await page.goto('/products?q=zyxwq');
  await islandsHydrated(page);
  await expect(page.getByRole('link', { name: PRODUCT.name, exact: true }).first()).toBeVisible();
  await injected.expectNothingInjected('/products?q=zyxwq');

  await page.goto('/products?category=phones&sort=price-asc');
  await islandsHydrated(page);
  await injected.expectNothingInjected('/products?category=phones');
});

test('the cart shows it as text after it is added, with its variant', async ({ page }) => {
  const injected = watch(page);
  await page.goto(`/product/${PRODUCT.id}`);
  await injected.expectNothingInjected('product page as sent');
  await islandsHydrated(page);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'added to cart' })).toBeVisible();
  await injected.expectNothingInjected('product page after adding');

  await page.goto('/cart');
  await islandsHydrated(page);
  await expect(page.getByRole('link', { name: PRODUCT.name, exact: true })).toBeVisible();
  await expect(page.getByText(PRODUCT.variants[0]!, { exact: false }).first()).toBeVisible();
  await injected.expectNothingInjected('/cart');
});

test('the admin’s product list and form show it as text', async ({ page, db }) => {
  // The admin's form chooses the brand from BRANDS and refuses to load any other: here the
  // brand is one of them (the shopper's pages above show a hostile one).
  db.query(`update products set brand = 'Tecno' where id = '${PRODUCT.id}'`);
  const injected = watch(page);
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto(`/admin?tab=products&q=zyxwq`);
  await islandsHydrated(page);
  await expect(page.getByRole('rowheader', { name: PRODUCT.name })).toBeVisible();
  await injected.expectNothingInjected('/admin products');

  await page.goto(`/admin?tab=products&edit=${PRODUCT.id}`);
  await islandsHydrated(page);
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue(PRODUCT.name);
  await expect(page.getByLabel('Choice name')).toHaveValue(CHOICE_NAME);
  await expect(page.getByLabel('Description')).toHaveValue(PRODUCT.description);
  await injected.expectNothingInjected('/admin product form');
});
