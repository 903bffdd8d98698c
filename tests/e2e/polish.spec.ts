import { readdirSync, readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { CATEGORIES } from '../../src/features/catalogue/categories.ts';
import { placeGuestOrder } from './accounts.ts';
import { expect, test } from './fixtures.ts';
import { islandsHydrated } from './islands.ts';

/**
 * Issue 9, "phone and polish": side margins on phones, the header and footer listing every
 * category, Escape on the phone menu, Track Order on desktop, toasts (colours, place,
 * one per message), the featured shelf's rows, disabled buttons.
 */

/** The categories the catalogue's data files stock, in CATEGORIES' order: what the menus must list. */
const STOCKED_LABELS = (() => {
  const stocked = new Set<string>();
  for (const file of readdirSync('src/data/products')) {
    const data = JSON.parse(readFileSync(`src/data/products/${file}`, 'utf8')) as
      | { category: string }[]
      | { products: { category: string }[] };
    for (const product of Array.isArray(data) ? data : data.products) stocked.add(product.category);
  }
  return CATEGORIES.filter((c) => stocked.has(c.id)).map((c) => c.label);
})();

const INFO_PAGES = [
  '/about',
  '/contact',
  '/privacy',
  '/terms',
  '/shipping',
  '/returns',
  '/warranty',
  '/payment-methods',
  '/sitemap',
  '/brands',
];

const EDGE = 12;

/** Every visible text block (p, headings, li, dt/dd) whose box comes closer than EDGE px to either side of the viewport. */
async function textAtTheEdge(page: Page) {
  return page.evaluate((edge) => {
    const width = document.documentElement.clientWidth;
    const blocks = document.querySelectorAll<HTMLElement>(
      'main :is(p, h1, h2, h3, li, dt, dd), footer :is(p, h2, li, dt, dd, address)',
    );
    const offenders: string[] = [];
    for (const block of blocks) {
      const box = block.getBoundingClientRect();
      // Hidden and visually hidden (1 px) elements are not text a shopper sees.
      if (box.width <= 1 || box.height <= 1 || !block.checkVisibility()) continue;
      if (box.left < edge || box.right > width - edge) {
        offenders.push(
          `${block.tagName.toLowerCase()} "${block.textContent?.trim().slice(0, 40)}" at ${Math.round(box.left)}–${Math.round(box.right)} of ${width}`,
        );
      }
    }
    return { offenders, checked: blocks.length };
  }, EDGE);
}

/** How far the page is wider than the screen (a phone then zooms out and every margin shrinks). */
function pageOverflow(page: Page) {
  return page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - document.documentElement.clientWidth));
}

for (const path of INFO_PAGES) {
  test(`@phone no text touches the screen edge on ${path}`, async ({ page }) => {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    if (path === '/payment-methods') await expect(page.getByRole('heading', { name: 'Bank transfer' })).toBeVisible();
    const { offenders, checked } = await textAtTheEdge(page);
    expect(checked).toBeGreaterThan(3);
    expect(offenders).toEqual([]);
    expect(await pageOverflow(page), 'the page scrolls sideways').toBe(0);
  });
}

test('@phone Escape closes the phone menu and gives focus back to the menu button; the menu lists every category', async ({
  page,
}) => {
  await page.goto('/about');
  const button = page.locator('[data-menu-toggle]');
  const menu = page.getByRole('navigation', { name: 'Mobile' });
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(menu).toBeVisible();
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  await expect(button).toHaveAccessibleName('Close menu');

  // Every category the store sells, Gaming Gear included, in the catalogue's order.
  const categoryLinks = menu.locator('.menu-cats a');
  await expect(categoryLinks).toHaveText(STOCKED_LABELS);
  expect(STOCKED_LABELS).toContain('Gaming Gear');
  await expect(menu.getByRole('link', { name: 'Gaming Gear' })).toHaveAttribute('href', '/products?category=gaming');

  // Keyboard into the menu, then Escape.
  await page.keyboard.press('Tab');
  await expect(menu.getByRole('link', { name: 'Home' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused();
  await expect(button).toHaveAttribute('aria-expanded', 'false');

  // Escape with the menu closed changes nothing.
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
});

test('the desktop header links Track Order; the footer lists every category', async ({ page }) => {
  await page.goto('/about');
  const nav = page.getByRole('navigation', { name: 'Main' });
  const track = nav.getByRole('link', { name: 'Track Order' });
  await expect(track).toBeVisible();
  await track.click();
  await expect(page).toHaveURL(/\/track$/);
  await expect(nav.getByRole('link', { name: 'Track Order' })).toHaveAttribute('aria-current', 'page');

  const shop = page.getByRole('navigation', { name: 'Shop' });
  for (const label of STOCKED_LABELS) await expect(shop.getByRole('link', { name: label, exact: true })).toBeVisible();
  await expect(shop.getByRole('link', { name: 'Gaming Gear' })).toHaveAttribute('href', '/products?category=gaming');
});

const toasts = (page: Page) => page.locator('.Toastify__toast');

/** A toast's box must not overlap the header (where the cart badge is): all measured at once, while it shows. */
async function expectBelowHeader(toast: Locator) {
  const { header, cart, box } = await toast.evaluate((el) => {
    const rect = (e: Element | null) => {
      const r = e!.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    };
    return {
      header: rect(document.querySelector('header.site-header')),
      cart: rect(document.querySelector('[data-cart-link]')),
      box: rect(el.closest('.Toastify__toast')),
    };
  });
  expect(box.y, 'the toast starts below the header').toBeGreaterThanOrEqual(header.y + header.height - 0.5);
  const overlapsCart =
    box.x < cart.x + cart.width && cart.x < box.x + box.width && box.y < cart.y + cart.height && cart.y < box.y + box.height;
  expect(overlapsCart, 'the toast covers the cart link').toBe(false);
}

/**
 * Counts the toast timers started from now on: react-toastify draws a progress bar for each toast
 * shown and a new one for each refresh (`toast.update`) of a toast. Answers the counter's reader.
 */
async function countProgressBars(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __progressBars: number };
    w.__progressBars = 0;
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (!(node instanceof Element)) continue;
          w.__progressBars +=
            (node.matches('.Toastify__progress-bar') ? 1 : 0) + node.querySelectorAll('.Toastify__progress-bar').length;
        }
      }
    }).observe(document.body, { childList: true, subtree: true });
  });
  return () => page.evaluate(() => (window as unknown as { __progressBars: number }).__progressBars);
}

test('five Copy clicks show one toast, below the header', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const order = await placeGuestOrder(page, 'anker-735-charger-ganprime-65w');
  await page.goto('/track');
  await islandsHydrated(page);
  await page.getByLabel('Order number').fill(order.number);
  await page.getByLabel('Email used at checkout').fill(order.email);
  await page.getByRole('button', { name: 'Track Order' }).click();
  const copy = page.getByRole('button', { name: 'Copy reference' });
  await expect(copy).toBeVisible();

  const timersStarted = await countProgressBars(page);
  for (let i = 0; i < 5; i++) await copy.click();
  const toast = page.getByRole('alert').filter({ hasText: 'Reference copied' });
  await expect(toast).toHaveCount(1);
  // The later clicks refresh the one toast (after react-toastify's short update delay), never add
  // one: each refresh restarts its timer with a new progress bar. Once the four refreshes have
  // landed, every click has been handled.
  await expect.poll(timersStarted).toBe(5);
  await expect(toasts(page)).toHaveCount(1);
  await expect(toast).toBeVisible();
  await expectBelowHeader(toast);

  // Another message is its own toast.
  await page.getByRole('button', { name: 'Copy amount' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Amount copied' })).toBeVisible();
  await expect(toasts(page)).toHaveCount(2);
});

test('@phone a toast sits below the header, clear of the cart badge', async ({ page }) => {
  await page.goto('/product/hisense-32-a4-hd');
  await islandsHydrated(page);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  const toast = page.getByRole('alert').filter({ hasText: 'added to cart' });
  await expect(toast).toBeVisible();
  await expect(page.locator('[data-cart-count]')).toBeVisible();
  await expectBelowHeader(toast);
});

/** '#0a7a41' as a computed colour: 'rgb(10, 122, 65)'. */
function hexToRgb(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  return `rgb(${r}, ${g}, ${b})`;
}

/** WCAG contrast of two computed CSS colours (opaque rgb/rgba). */
function contrast(foreground: string, background: string): number {
  const luminance = (css: string) => {
    const [r, g, b] = (css.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const [a, b] = [luminance(foreground), luminance(background)].sort((x, y) => y - x);
  return (a! + 0.05) / (b! + 0.05);
}

for (const theme of ['dark', 'light'] as const) {
  test(`toasts use the brand's colours with text at 4.5:1 or more (${theme})`, async ({ page }) => {
    await page.addInitScript((dark) => localStorage.setItem('theme', JSON.stringify(dark)), theme === 'dark');
    await page.goto('/product/hisense-32-a4-hd');
    await islandsHydrated(page);
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    const toast = page.getByRole('alert').filter({ hasText: 'added to cart' });
    await expect(toast).toBeVisible();

    // The real success toast: the brand's colour as its background.
    const shown = await toast.evaluate((el) => {
      const style = getComputedStyle(el.closest('.Toastify__toast')!);
      const brand = getComputedStyle(document.documentElement).getPropertyValue('--brand').trim();
      return { color: style.color, background: style.backgroundColor, brand };
    });
    expect(shown.background).toBe(hexToRgb(shown.brand));
    expect(contrast(shown.color, shown.background)).toBeGreaterThanOrEqual(4.5);

    // Every kind (info, success, warning, error) under the stylesheet the outlet loaded.
    const kinds = await page.evaluate(() => {
      const kindNames = ['info', 'success', 'warning', 'error'];
      document.body.insertAdjacentHTML(
        'beforeend',
        `<div class="Toastify__toast-container" data-probe>${kindNames
          .map((kind) => `<div class="Toastify__toast Toastify__toast-theme--colored Toastify__toast--${kind}">${kind}</div>`)
          .join('')}</div>`,
      );
      const probe = document.querySelector('[data-probe]')!;
      const colours = [...probe.children].map((toast, i) => {
        const style = getComputedStyle(toast);
        return { kind: kindNames[i]!, color: style.color, background: style.backgroundColor };
      });
      probe.remove();
      return colours;
    });
    for (const { kind, color, background } of kinds) {
      expect(background, `${kind} toast background is opaque`).not.toMatch(/rgba\(.*, 0\)|transparent/);
      expect(contrast(color, background), `${kind} toast: ${color} on ${background}`).toBeGreaterThanOrEqual(4.5);
    }
  });
}

/** The rows of the featured shelf's cards (by their top edge), and the shelf's box. */
async function shelfRows(page: Page) {
  return page.locator('.featured-shelf').evaluate((shelf) => {
    const box = shelf.getBoundingClientRect();
    const rows = new Map<number, { left: number; right: number; count: number }>();
    for (const card of shelf.querySelectorAll<HTMLElement>('[data-product-id]')) {
      const r = card.getBoundingClientRect();
      const top = Math.round(r.top);
      const row = rows.get(top) ?? { left: Infinity, right: -Infinity, count: 0 };
      rows.set(top, { left: Math.min(row.left, r.left), right: Math.max(row.right, r.right), count: row.count + 1 });
    }
    const style = getComputedStyle(shelf);
    const inner = {
      left: box.left + Number.parseFloat(style.paddingLeft),
      right: box.right - Number.parseFloat(style.paddingRight),
    };
    return { rows: [...rows.values()], inner, height: box.height };
  });
}

async function expectShelfRowsFull(page: Page) {
  await page.goto('/');
  const shelf = page.locator('.featured-shelf');
  const before = await shelf.boundingBox();
  await shelf.scrollIntoViewIfNeeded();
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await page.waitForLoadState('networkidle');
  const { rows, inner, height } = await shelfRows(page);
  expect(rows.length).toBeGreaterThan(0);
  const cards = rows.reduce((n, r) => n + r.count, 0);
  expect(cards).toBeGreaterThanOrEqual(2);
  // Every row runs from the shelf's left edge to its right edge (or on past it, scrolling): no half-empty row.
  for (const row of rows) {
    expect(row.left).toBeLessThanOrEqual(inner.left + 1);
    expect(row.right, `a row of ${row.count} of ${cards} cards ends short of the shelf's edge`).toBeGreaterThanOrEqual(
      inner.right - 1,
    );
  }
  // Hydrating and refreshing from D1 does not move the page.
  expect(height).toBeCloseTo(before!.height, 0);
  // The shelf scrolls on its own: the page never scrolls sideways.
  expect(await pageOverflow(page), 'the page scrolls sideways').toBe(0);
}

test('the featured shelf fills its rows on desktop', async ({ page }) => {
  await expectShelfRowsFull(page);
});

test('@phone the featured shelf fills its rows on a phone', async ({ page }) => {
  await expectShelfRowsFull(page);
});

test('disabled buttons look disabled, not like a primary button', async ({ page, context }) => {
  await page.goto('/product/hisense-32-a4-hd');
  await islandsHydrated(page);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByRole('link', { name: 'Cart, 1 item' })).toBeVisible();
  await page.goto('/cart');
  await islandsHydrated(page);
  const checkout = page.getByRole('button', { name: 'Proceed to Checkout' });
  await expect(checkout).toBeEnabled();
  const enabled = await checkout.evaluate((el) => getComputedStyle(el).backgroundColor);

  await context.setOffline(true);
  await expect(checkout).toBeDisabled();
  // Buttons ease their background over 0.15 s: read it once the transition has run.
  await expect.poll(() => checkout.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgba(0, 0, 0, 0)');
  const disabled = await checkout.evaluate((el) => {
    const s = getComputedStyle(el);
    return { background: s.backgroundColor, border: s.borderTopStyle, cursor: s.cursor };
  });
  expect(disabled.background).not.toBe(enabled);
  expect(disabled.border).toBe('dashed');
  expect(disabled.cursor).toBe('not-allowed');
  await context.setOffline(false);
});
