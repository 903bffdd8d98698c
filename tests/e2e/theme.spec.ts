import { expect, test } from './fixtures.ts';

test('dark by default; the choice survives a reload without a flash of the wrong theme', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);

  await page.getByRole('button', { name: 'Switch to light theme' }).click();
  await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('false');

  // Record the root's class at the first DOMContentLoaded, before any module script runs.
  await page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      (window as unknown as { firstClass: string }).firstClass = document.documentElement.className;
    });
  });
  await page.reload();
  expect(await page.evaluate(() => (window as unknown as { firstClass: string }).firstClass)).not.toMatch(/\bdark\b/);
  await expect(page.getByRole('button', { name: 'Switch to dark theme' })).toBeVisible();
});

test('a corrupt stored theme or cart never breaks the page', async ({ page }) => {
  await page.addInitScript(() => {
    localStorage.setItem('theme', '{oops');
    localStorage.setItem('cartItems', '[{"id": 5}]');
  });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/products');
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  await expect(page.getByRole('link', { name: 'Cart, 0 items' })).toBeVisible();
  await expect(page.locator('[data-product-id]').first()).toBeVisible();
  expect(errors).toEqual([]);
});
