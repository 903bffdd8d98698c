import type { Page } from '@playwright/test';
import { axeViolations, expect, test } from './fixtures.ts';
import { islandsHydrated } from './islands.ts';

/**
 * Issue 9: removing a cart line keeps focus in the cart, '−' stops at 1, and the removal's
 * toast offers Undo, which puts the line back in its place with its quantity.
 */

/** Products without variants (a line each), the second one twice. */
const PRODUCTS = [
  { id: 'mario-kart-world', times: 1 },
  { id: 'ghost-of-yotei', times: 2 },
  { id: 'hisense-32-a4-hd', times: 1 },
];

/** The three lines in the cart, added from their product pages as a shopper does; answers their names in order. */
async function fillCart(page: Page): Promise<string[]> {
  const names: string[] = [];
  for (const { id, times } of PRODUCTS) {
    await page.goto(`/product/${id}`);
    await islandsHydrated(page);
    const name = (await page.getByRole('heading', { level: 1 }).textContent())!.trim();
    names.push(name);
    for (let i = 0; i < times; i++) await page.getByRole('button', { name: 'Add to Cart' }).click();
    await expect(page.getByRole('alert').filter({ hasText: `${name} added to cart` })).toBeVisible();
  }
  await expect(page.getByRole('link', { name: 'Cart, 4 items' })).toBeVisible();
  await page.goto('/cart');
  await islandsHydrated(page);
  await expect(lines(page)).toHaveCount(3);
  return names;
}

const lines = (page: Page) => page.locator('[data-line]');
const lineNames = (page: Page) => lines(page).locator('.cart-line__name');
const removeButton = (page: Page, index: number) =>
  lines(page)
    .nth(index)
    .getByRole('button', { name: /^Remove / });

test('Remove keeps focus in the cart, and Undo puts the line back in its place with its quantity', async ({ page }) => {
  const names = await fillCart(page);
  await expect(lineNames(page)).toHaveText(names);
  await expect(
    lines(page)
      .nth(1)
      .getByRole('status', { name: /^Quantity of/ }),
  ).toHaveText('2');

  // Keyboard only: Remove the middle line; focus lands on the next line's Remove.
  await removeButton(page, 1).focus();
  await page.keyboard.press('Enter');
  await expect(lineNames(page)).toHaveText([names[0]!, names[2]!]);
  await expect(removeButton(page, 1)).toBeFocused();
  await expect(page.getByRole('link', { name: 'Cart, 2 items' })).toBeVisible();

  // The toast says what went and offers Undo.
  const toast = page.getByRole('alert').filter({ hasText: `${names[1]}` });
  await expect(toast).toContainText('removed from cart');
  await toast.getByRole('button', { name: 'Undo' }).click();
  await expect(toast).toBeHidden();
  await expect(lineNames(page)).toHaveText(names);
  await expect(
    lines(page)
      .nth(1)
      .getByRole('status', { name: /^Quantity of/ }),
  ).toHaveText('2');
  await expect(page.getByRole('link', { name: 'Cart, 4 items' })).toBeVisible();
  await expect(removeButton(page, 1)).toBeFocused();
  const stored = await page.evaluate(
    () => JSON.parse(localStorage.getItem('cartItems') ?? '[]') as { name: string; quantity: number }[],
  );
  expect(stored.map((i) => [i.name, i.quantity])).toEqual([
    [names[0], 1],
    [names[1], 2],
    [names[2], 1],
  ]);

  // The last line in the list: focus goes to the line before it.
  await removeButton(page, 2).focus();
  await page.keyboard.press('Enter');
  await expect(lines(page)).toHaveCount(2);
  await expect(removeButton(page, 1)).toBeFocused();

  // The cart's last line: focus on the empty cart's heading, and Undo brings the line back.
  await removeButton(page, 1).focus();
  await page.keyboard.press('Enter');
  await removeButton(page, 0).focus();
  await page.keyboard.press('Enter');
  const empty = page.getByRole('heading', { name: 'Your cart is empty' });
  await expect(empty).toBeFocused();
  await page
    .getByRole('alert')
    .filter({ hasText: `${names[0]} removed from cart` })
    .getByRole('button', { name: 'Undo' })
    .click();
  await expect(lineNames(page)).toHaveText([names[0]!]);
  await expect(removeButton(page, 0)).toBeFocused();
});

test("'−' stops at 1: it is disabled there, keeps focus and never deletes the line", async ({ page }) => {
  await fillCart(page);
  const line = lines(page).nth(1);
  const decrease = line.getByRole('button', { name: /^Decrease quantity of/ });
  const quantity = line.getByRole('status', { name: /^Quantity of/ });
  await expect(quantity).toHaveText('2');
  await expect(decrease).toBeEnabled();

  await decrease.focus();
  await page.keyboard.press('Enter');
  await expect(quantity).toHaveText('1');
  await expect(decrease).toBeDisabled();
  await expect(decrease).toBeFocused();
  // It reads as disabled (global .icon-btn[aria-disabled]).
  expect(await decrease.evaluate((el) => getComputedStyle(el).borderTopStyle)).toBe('dashed');

  await page.keyboard.press('Enter');
  await decrease.click({ force: true });
  await expect(lines(page)).toHaveCount(3);
  await expect(quantity).toHaveText('1');
  await expect(page.getByRole('link', { name: 'Cart, 3 items' })).toBeVisible();
});

for (const theme of ['dark', 'light'] as const) {
  test(`the cart with lines and an Undo toast has no axe violations (${theme})`, async ({ page }) => {
    await page.addInitScript((dark) => localStorage.setItem('theme', JSON.stringify(dark)), theme === 'dark');
    await fillCart(page);
    await removeButton(page, 0).click();
    const undo = page.getByRole('alert').getByRole('button', { name: 'Undo' });
    await expect(undo).toBeVisible();
    // The toast's timer is its progress bar's animation: paused, as a hover pauses it, while axe
    // looks (a real hover needs the toast to stop moving first, which a busy machine may not
    // allow before the toast closes). Then axe sees the toast as it stays: entry animation ended.
    await page.evaluate(async () => {
      for (const bar of document.querySelectorAll('.Toastify__progress-bar')) {
        for (const animation of bar.getAnimations()) animation.pause();
      }
      await Promise.all(
        document
          .getAnimations()
          .filter((a) => a.playState === 'running')
          .map((a) => a.finished.catch(() => undefined)),
      );
    });
    // Every rule in dark, the colour rules in light (fixtures.ts `axe`).
    expect(await axeViolations(page, theme)).toEqual([]);
    await expect(undo).toBeVisible();
  });
}
