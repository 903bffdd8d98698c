import { readCatalogueFromDisk } from '../../scripts/catalogue-files.ts';
import type { Page } from '@playwright/test';
import { ADMIN, signIn } from './accounts.ts';
import { quietServiceWorker } from './contexts.ts';
import { expect, test } from './fixtures.ts';
import { layoutShift, watchLayoutShift } from './layout-shift.ts';

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

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 760 } });

  test('the sections below the first screen are drawn as they come near, and nothing on screen moves', async ({ page }) => {
    await watchLayoutShift(page);
    await page.goto('/');
    const headings = page.locator('main .section h2');
    // Skipped at load (content-visibility: auto): not laid out or painted until scrolled near.
    const drawn = () => headings.evaluateAll((hs) => hs.map((h) => h.checkVisibility({ contentVisibilityAuto: true })));
    const atLoad = await drawn();
    expect(atLoad[0]).toBe(true);
    expect(atLoad.slice(-3)).toEqual([false, false, false]);

    // Scrolled to the bottom as a thumb would: each section is drawn on the way (and skipped again
    // once it is far behind).
    const atBottom = () => page.evaluate(() => scrollY + innerHeight >= document.documentElement.scrollHeight - 1);
    const seen = atLoad.map(() => false);
    for (let i = 0; i < 40 && !(await atBottom()); i++) {
      await page.mouse.wheel(0, 400);
      await page.evaluate(() => new Promise(requestAnimationFrame));
      for (const [at, shown] of (await drawn()).entries()) seen[at] ||= shown;
    }
    expect(await atBottom()).toBe(true);
    expect(seen).toEqual(atLoad.map(() => true));
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    expect(await layoutShift(page)).toBe(0);

    // A link to a section below lands on it.
    await page.goto('/#about');
    await expect
      .poll(() => page.locator('#about').evaluate((el) => Math.round(Math.abs(el.getBoundingClientRect().top))))
      .toBe(0);
  });
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
