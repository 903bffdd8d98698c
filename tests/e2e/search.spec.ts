import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { STOCKED_CATEGORY_IDS } from '../../src/features/catalogue/stocked-categories.ts';
import { CATEGORY_IDS, categoryLabel } from '../../src/features/catalogue/categories.ts';
import { axeViolations, expect, test } from './fixtures.ts';
import { islandsHydrated } from './islands.ts';
import { layoutShift, settled, watchLayoutShift } from './layout-shift.ts';

/**
 * A search that finds nothing never ends at a blank page (issue 22): the listing offers the
 * corrected search ("Did you mean …?") when the API has one, and the store's departments to
 * browse instead, in the HTML the Worker renders (without JavaScript) and in the island.
 * `ipxxne` is corrected to `iphone` by the search (tests/api); `zzqqxx` has no correction.
 */

const phoneIds: string[] = JSON.parse(readFileSync('src/data/products/phones.json', 'utf8')).map((p: { id: string }) => p.id);

const noResults = (page: Page) => page.getByRole('heading', { name: 'No products found' });
const departments = (page: Page) => page.getByRole('list', { name: 'Browse a department' });
const didYouMean = (page: Page) => page.locator('.empty__suggestion');
const productNames = (page: Page) => page.locator('[data-product-id] h3');

/**
 * Every department with products on sale, each a link to its listing, in menu order: the seeded
 * catalogue's seven (and any a test running alongside adds a product to, e.g. drones).
 */
async function expectDepartments(page: Page) {
  const links = departments(page).getByRole('link');
  const stocked = CATEGORY_IDS.filter((id) => STOCKED_CATEGORY_IDS.includes(id));
  expect(stocked).toContain('gaming');
  await expect(links).toContainText(stocked.map(categoryLabel));
  for (const id of stocked) {
    await expect(departments(page).getByRole('link', { name: categoryLabel(id), exact: true })).toHaveAttribute(
      'href',
      `/products?category=${id}`,
    );
  }
}

/** "Did you mean iphone?" links to the search for iphone, which lists iPhones first. */
async function followDidYouMean(page: Page) {
  await expect(didYouMean(page)).toHaveText('Did you mean iphone?');
  const link = didYouMean(page).getByRole('link', { name: 'iphone' });
  await expect(link).toHaveAttribute('href', '/products?q=iphone');
  await link.click();
  await expect(page).toHaveURL(/\/products\?q=iphone$/);
  await expect(noResults(page)).toHaveCount(0);
  const names = await productNames(page).allTextContents();
  expect(names.length).toBeGreaterThan(1);
  for (const name of names.slice(0, 2)) expect(name).toContain('iPhone');
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a search with no correction shows the departments to browse, and Clear All', async ({ page }) => {
    await page.goto('/products?q=zzqqxx');
    await expect(noResults(page)).toBeVisible();
    await expect(didYouMean(page)).toHaveCount(0);
    await expect(page.locator('.empty').getByRole('link', { name: 'Clear All' })).toHaveAttribute('href', '/products');
    await expectDepartments(page);
    await departments(page).getByRole('link', { name: 'Phones' }).click();
    await expect(page).toHaveURL(/\/products\?category=phones$/);
    await expect(page.locator('#results-count')).toHaveText(`${phoneIds.length} products`);
    const ids = await page.locator('[data-product-id]').evaluateAll((els) => els.map((e) => e.getAttribute('data-product-id')));
    for (const id of ids) expect(phoneIds).toContain(id);
  });

  test('the header search lands on "Did you mean", whose link shows iPhones', async ({ page }) => {
    await page.goto('/about');
    await page.getByLabel('Search the store').first().click();
    const search = page.getByRole('searchbox', { name: 'Search the store' });
    await search.fill('ipxxne');
    await search.press('Enter');
    await expect(page).toHaveURL(/\/products\?q=ipxxne$/);
    await expect(noResults(page)).toBeVisible();
    await expectDepartments(page);
    await followDidYouMean(page);
  });
});

test('hydrated, "Did you mean" links to the corrected search', async ({ page }) => {
  await page.goto('/products?q=ipxxne');
  await islandsHydrated(page);
  await expect(noResults(page)).toBeVisible();
  await expectDepartments(page);
  await followDidYouMean(page);
});

test('a search typed in the listing that finds nothing shows the departments; Clear All brings the products back', async ({
  page,
}) => {
  await page.goto('/products');
  await islandsHydrated(page);
  await page.getByRole('searchbox', { name: 'Search products' }).fill('zzqqxx');
  await expect(page).toHaveURL(/\/products\?q=zzqqxx$/);
  await expect(noResults(page)).toBeVisible();
  await expectDepartments(page);
  await page.locator('.empty').getByRole('button', { name: 'Clear All' }).click();
  await expect(page).toHaveURL(/\/products$/);
  await expect(noResults(page)).toHaveCount(0);
  await expect(departments(page)).toHaveCount(0);
});

test('a misspelt search typed in the listing offers the correction the API found', async ({ page }) => {
  await page.goto('/products');
  await islandsHydrated(page);
  await page.getByRole('searchbox', { name: 'Search products' }).fill('ipxxne');
  await expect(page).toHaveURL(/\/products\?q=ipxxne$/);
  await expect(noResults(page)).toBeVisible();
  await followDidYouMean(page);
});

test('the no-results page loads and hydrates without layout shift', async ({ page }) => {
  await watchLayoutShift(page);
  await page.goto('/products?q=zzqqxx');
  await expect(departments(page)).toBeVisible();
  await islandsHydrated(page);
  await settled(page);
  expect(await layoutShift(page)).toBe(0);
});

for (const theme of ['dark', 'light'] as const) {
  for (const q of ['ipxxne', 'zzqqxx']) {
    test(`the no-results page for "${q}" has no axe violations (${theme})`, async ({ page }) => {
      await page.addInitScript((dark) => localStorage.setItem('theme', JSON.stringify(dark)), theme === 'dark');
      await page.goto(`/products?q=${q}`);
      await expect(noResults(page)).toBeVisible();
      await page.waitForLoadState('networkidle');
      expect(await axeViolations(page, theme)).toEqual([]);
    });
  }
}
