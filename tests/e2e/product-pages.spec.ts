import type { APIResponse, Page } from '@playwright/test';
import { ADMIN, signIn } from './accounts.ts';
import { quietServiceWorker } from './contexts.ts';
import { expect, test } from './fixtures.ts';
import { islandsHydrated } from './islands.ts';

/**
 * One catalogue truth (issue 25, part 6): an admin's edit to a product that has a pre-rendered
 * page reaches that page's HTML (what search engines, link previews, Opera Mini and a shopper
 * without JavaScript read), its JSON-LD and its island alike; saved back, the pre-rendered file
 * is served again. The Worker's decision itself is tests/api/product-pages.test.ts's.
 */

/** A pre-rendered catalogue product without variants that no other browser test changes. */
const TV = { id: 'lg-43-ut80-4k', price: '489000' };

test.beforeEach(async ({ context }) => {
  await quietServiceWorker(context);
});

/** The page as a client without JavaScript gets it: the HTML, its JSON-LD Product and where it came from. */
async function productHtml(page: Page, id: string) {
  const response: APIResponse = await page.request.get(`/product/${id}`);
  expect(response.status()).toBe(200);
  const html = await response.text();
  const ld = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)?.[1];
  expect(ld, 'the page has JSON-LD').toBeDefined();
  const product = JSON.parse(ld!) as { description: string; offers: { price: string } };
  const meta = /<meta name="description" content="([^"]*)"/.exec(html)?.[1];
  return { source: response.headers()['x-page-source'], html, product, meta };
}

/** Edits the product in the admin screen as an admin does, and saves. */
async function editInAdmin(page: Page, id: string, fields: { description: string; price: string }) {
  await page.goto(`/admin?tab=products&edit=${id}`);
  await islandsHydrated(page);
  const description = page.getByLabel('Description');
  await expect(description).not.toHaveValue('');
  await description.fill(fields.description);
  await page.getByLabel('Price (₦, naira)').fill(fields.price);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'saved' })).toBeVisible();
}

test("an admin's edit is in the product page's HTML, JSON-LD and island at once; saved back, the page is the build's file again", async ({
  page,
  db,
}) => {
  const built = await productHtml(page, TV.id);
  expect(built.source).toBe('build');
  const original = built.product.description;
  expect(built.product.offers.price).toBe(TV.price);
  const edited = `${original} Wall bracket included free this month.`;

  await signIn(page, ADMIN.email, ADMIN.password);
  try {
    await editInAdmin(page, TV.id, { description: edited, price: '459000' });

    const live = await productHtml(page, TV.id);
    expect(live.source).toBe('d1');
    expect(live.product.description).toBe(edited);
    expect(live.product.offers.price).toBe('459000');
    expect(live.meta).toBe(edited);
    expect(live.html).toContain('₦459,000');
    expect(live.html).not.toContain('₦489,000');

    // The hydrated page says the same: nothing to correct after the script runs.
    await page.goto(`/product/${TV.id}`);
    await islandsHydrated(page);
    await expect(page.getByText('Wall bracket included free this month.')).toBeVisible();
    await expect(page.locator('main')).toContainText('₦459,000');

    await editInAdmin(page, TV.id, { description: original, price: TV.price });
    const back = await productHtml(page, TV.id);
    expect(back.source).toBe('build');
    expect(back.product).toEqual(built.product);
  } finally {
    // Whatever failed above, the next tests on this server find the seeded product.
    db.query(
      `update products set description = '${original.replaceAll("'", "''")}', price_kobo = ${Number(TV.price) * 100} where id = '${TV.id}'`,
    );
  }
});
