import { readCatalogueFromDisk } from '../../scripts/catalogue-files.ts';
import type { Page } from '@playwright/test';
import { ADMIN, signIn } from './accounts.ts';
import { quietServiceWorker } from './contexts.ts';
import { expect, test } from './fixtures.ts';

/**
 * The home page without React (issue 23): its featured shelf is plain HTML whose Add to Cart adds
 * to this browser's cart through a small script (and posts to /cart/add without JavaScript); the
 * toast's React code loads only with the first toast; and the shelf follows D1's featured
 * products (functions/catalogue/product-pages.ts).
 */
const catalogue = readCatalogueFromDisk();
const featured = catalogue.filter((p) => p.featured).sort((a, b) => b.rating - a.rating);
/** A featured product a card can add at once (no variants to choose), in stock. */
const pick = featured.find((p) => p.variants.length === 0 && p.stock > 0)!;
const shelfCard = (page: Page, id: string) => page.locator(`[data-featured-shelf] [data-product-id="${id}"]`);

test.beforeEach(async ({ context }) => {
  await quietServiceWorker(context);
});

test('the home page loads no React until a toast; Add to Cart on the shelf fills the cart and says so', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
  });
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  expect(await page.locator('astro-island').count()).toBe(0);
  const react = () => scripts.filter((s) => /react|jsx-runtime|client\.[\w-]+\.js$|ToastOutlet/i.test(s));
  expect(react()).toEqual([]);

  await shelfCard(page, pick.id)
    .getByRole('button', { name: /^Add to Cart/ })
    .click();
  await expect(page.getByRole('alert').filter({ hasText: `${pick.name} added to cart` })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Cart, 1 item' })).toBeVisible();
  // The toast brought React and the outlet with it, and nothing navigated.
  expect(react().length).toBeGreaterThan(0);
  await expect(page).toHaveURL(/\/$/);
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('cartItems') ?? '[]'));
  expect(stored).toEqual([expect.objectContaining({ id: pick.id, quantity: 1, price: pick.price })]);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test("the shelf's Add to Cart posts to /cart/add and the cart shows the line", async ({ page }) => {
    await page.goto('/');
    await shelfCard(page, pick.id)
      .getByRole('button', { name: /^Add to Cart/ })
      .click();
    await expect(page).toHaveURL(/\/cart$/);
    await expect(page.getByRole('link', { name: pick.name, exact: true }).first()).toBeVisible();
  });
});

test("an admin's featured pick is on the home page's shelf, in its HTML, at once; unpicked, the page is the build's file again", async ({
  page,
  db,
}) => {
  const candidate = catalogue.find((p) => !p.featured && p.variants.length === 0 && p.stock > 5)!;
  const html = async () => {
    const answer = await page.request.get('/');
    expect(answer.status()).toBe(200);
    return { source: answer.headers()['x-page-source'], body: await answer.text() };
  };
  const before = await html();
  expect(before.source).toBe('build');
  expect(before.body).not.toContain(`data-product-id="${candidate.id}"`);

  await signIn(page, ADMIN.email, ADMIN.password);
  const setFeatured = async (value: boolean) => {
    const loaded = await page.request.get(`/api/admin/products/${candidate.id}`);
    expect(loaded.status()).toBe(200);
    const { form, version } = (await loaded.json()) as { form: Record<string, unknown>; version: number };
    const saved = await page.request.put(`/api/admin/products/${candidate.id}`, {
      data: { ...form, featured: value, version },
      headers: { origin: `http://127.0.0.1:${process.env.E2E_PORT}` },
    });
    expect(saved.status(), await saved.text()).toBe(200);
  };
  try {
    await setFeatured(true);
    const picked = await html();
    expect(picked.source).toBe('d1');
    expect(picked.body).toMatch(new RegExp(`data-featured-shelf[^>]*>.*data-product-id="${candidate.id}"`, 's'));
    await page.goto('/');
    await expect(shelfCard(page, candidate.id)).toBeVisible();
    await setFeatured(false);
    expect(await html()).toEqual(before);
  } finally {
    db.query(`update products set featured = ${candidate.featured ? 1 : 0} where id = '${candidate.id}'`);
  }
});
