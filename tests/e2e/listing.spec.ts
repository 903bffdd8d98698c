import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { islandsHydrated, scriptsRan } from './islands.ts';
import { layoutShift, settled, watchLayoutShift } from './layout-shift.ts';

/**
 * /products rendered by the Worker for its URL (docs/decisions/016-listing-rendered-by-the-worker.md):
 * the right first paint with and without JavaScript, the filter form, paging and Add to Cart
 * without JavaScript (POST /cart/add, the cookie the cart takes in), history and focus, errors
 * said truthfully, two cards per row on phones.
 */

interface DataProduct {
  id: string;
  name: string;
  priceNaira?: number;
  variants?: { priceNaira: number }[];
}
const department = (file: string): DataProduct[] => JSON.parse(readFileSync(`src/data/products/${file}.json`, 'utf8'));
const phoneIds = new Set(department('phones').map((p) => p.id));
const tvs = department('tvs');
const tvIds = new Set(tvs.map((p) => p.id));
const everything = ['accessories', 'consoles', 'games', 'gaming', 'laptops', 'phones', 'tvs'].flatMap(department);

const cards = (page: Page) => page.locator('[data-product-id]');
const cardIds = (page: Page) => cards(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-product-id') ?? ''));
const resultsCount = (page: Page) => page.locator('#results-count');

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a category URL shows only its products; the filter form, Load More and Add to Cart work; the cart shows the line', async ({
    page,
    context,
    browser,
  }) => {
    await page.goto('/products?category=phones');
    await expect(resultsCount(page)).toHaveText(`${phoneIds.size} products`);
    const first = await cardIds(page);
    expect(first).toHaveLength(9);
    for (const id of first) expect(phoneIds, id).toContain(id);

    // The filter form: TVs instead of phones, up to ₦1,000,000 typed with separators.
    await page.getByRole('checkbox', { name: 'Phones' }).uncheck();
    await page.getByRole('checkbox', { name: 'TVs' }).check();
    await page.getByRole('textbox', { name: 'Max' }).fill('1,000,000');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page).toHaveURL(/\/products\?category=tvs&maxPrice=1000000$/);
    const cheapTvs = tvs.filter((p) => (p.priceNaira ?? Math.min(...(p.variants ?? []).map((v) => v.priceNaira))) <= 1_000_000);
    await expect(resultsCount(page)).toHaveText(`${cheapTvs.length} products`);
    expect((await cardIds(page)).sort()).toEqual(cheapTvs.map((p) => p.id).sort());
    await expect(page.getByRole('checkbox', { name: 'TVs' })).toBeChecked();
    await expect(page.getByRole('textbox', { name: 'Max' })).toHaveValue('1,000,000');

    // Paging: the next nine come with the first nine, the page scrolled to the first new one.
    await page.goto('/products');
    await expect(cards(page)).toHaveCount(9);
    await page.getByRole('link', { name: 'Load More Products' }).click();
    await expect(page).toHaveURL(/\/products\?page=2#item-10$/);
    await expect(cards(page)).toHaveCount(18);
    await expect(cards(page).nth(9)).toBeInViewport();
    await page.getByRole('link', { name: 'Load More Products' }).click();
    await expect(cards(page)).toHaveCount(Math.min(27, everything.length));

    // Add to Cart posts the form; the Worker keeps the line and sends the shopper to the cart.
    await page.goto('/products?category=tvs');
    const card = cards(page).first();
    const id = (await card.getAttribute('data-product-id'))!;
    const name = tvs.find((p) => p.id === id)!.name;
    await expect(card.getByRole('button', { name: /^Add to Cart/ })).toHaveAccessibleName(`Add to Cart: ${name}`);
    await card.getByRole('button', { name: /^Add to Cart/ }).click();
    await expect(page).toHaveURL(/\/cart$/);
    const line = page.locator(`[data-pending-line="${id}"]`);
    await expect(line).toContainText(name);
    await expect(line).toContainText('Quantity 1');
    await expect(page.getByText('Checkout needs JavaScript')).toBeVisible();
    await expect(page.getByText('Loading your cart')).toBeHidden();

    // The same browser with JavaScript: the cart takes the line in and the cookie goes.
    const withJs = await browser.newContext({ storageState: await context.storageState(), javaScriptEnabled: true });
    try {
      const cartPage = await withJs.newPage();
      await cartPage.goto('/cart');
      await expect(cartPage.getByText(name).first()).toBeVisible();
      await expect(cartPage.getByRole('link', { name: /^Cart, 1 item$/ })).toBeVisible();
      expect(await cartPage.evaluate(() => document.cookie)).not.toContain('gts_cart_add');
      const stored = await cartPage.evaluate(() => JSON.parse(localStorage.getItem('cartItems') ?? '[]'));
      expect(stored).toEqual([expect.objectContaining({ id, variant: '', quantity: 1 })]);
    } finally {
      await withJs.close();
    }
  });

  test('a product with options links to its page; a refused add says why', async ({ page, request, baseURL }) => {
    await page.goto('/products?category=phones');
    const card = cards(page)
      .filter({ has: page.getByRole('link', { name: /^Choose options/ }) })
      .first();
    const id = (await card.getAttribute('data-product-id'))!;
    await card.getByRole('link', { name: /^Choose options/ }).click();
    await expect(page).toHaveURL(new RegExp(`/product/${id}$`));

    // The Worker's answers themselves: a redirect with the cookie, a readable refusal, another site refused.
    const form = { product: [...tvIds][0]!, variant: '', quantity: '1' };
    const added = await request.post('/cart/add', { form, headers: { origin: baseURL! }, maxRedirects: 0 });
    expect(added.status()).toBe(303);
    expect(added.headers().location).toBe('/cart');
    expect(added.headers()['set-cookie']).toMatch(/^gts_cart_add=[^;]+; Path=\/; Max-Age=\d+; SameSite=Lax$/);
    const tooMany = await request.post('/cart/add', { form: { ...form, quantity: '9' }, headers: { origin: baseURL! } });
    expect(tooMany.status()).toBe(400);
    expect(await tooMany.text()).toContain('You can add 1 to 5 of a product at a time.');
    const crossSite = await request.post('/cart/add', { form, headers: { origin: 'https://evil.example' }, maxRedirects: 0 });
    expect(crossSite.status()).toBe(403);
  });
});

test.describe('header search, without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('searches the store from any page, best matches first', async ({ page }) => {
    await page.goto('/about');
    await page.getByLabel('Search the store').first().click();
    const search = page.getByRole('searchbox', { name: 'Search the store' });
    await search.fill('iphone');
    await search.press('Enter');
    await expect(page).toHaveURL(/\/products\?q=iphone$/);
    const names = await page.locator('[data-product-id] h3').allTextContents();
    expect(names.length).toBeGreaterThan(1);
    for (const name of names.slice(0, 2)) expect(name).toContain('iPhone');
  });
});

test('the header search opens ready to type in, on a phone too (no second tap) @phone', async ({ page }) => {
  await page.goto('/about');
  await scriptsRan(page);
  await page.getByLabel('Search the store').first().click();
  const search = page.getByRole('searchbox', { name: 'Search the store' });
  await expect(search).toBeFocused();
  await page.keyboard.type('iphone');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/products\?q=iphone$/);
});

test('each filter change is a history entry: Back undoes one', async ({ page }) => {
  await page.goto('/products');
  await islandsHydrated(page);
  // Each change applies at once: the form's Apply button (for pages without JavaScript) is gone.
  await expect(page.getByRole('button', { name: 'Apply filters' })).toBeHidden();
  await page.getByRole('checkbox', { name: 'Phones' }).check();
  await expect(page).toHaveURL(/\/products\?category=phones$/);
  await expect(resultsCount(page)).toHaveText(`${phoneIds.size} products`);
  await page.getByRole('checkbox', { name: 'Apple' }).check();
  await expect(page).toHaveURL(/\/products\?category=phones&brand=Apple$/);
  await expect(page.getByRole('button', { name: 'Remove filter Apple' })).toBeVisible();

  await page.goBack();
  await expect(page).toHaveURL(/\/products\?category=phones$/);
  await expect(page.getByRole('checkbox', { name: 'Apple' })).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Phones' })).toBeChecked();
  await expect(resultsCount(page)).toHaveText(`${phoneIds.size} products`);
  await page.goBack();
  await expect(page).toHaveURL(/\/products$/);
  await expect(resultsCount(page)).toHaveText(`${everything.length} products`);
});

test('a search typed in pauses is one history entry, and an answer overtaken by a newer one is dropped', async ({ page }) => {
  await page.goto('/products?category=phones');
  await islandsHydrated(page);
  // The first pause's answer ("sams") is held back until the second ("samsung") has been shown.
  let releaseFirst!: () => void;
  const firstHeld = new Promise<void>((resolve) => {
    releaseFirst = resolve;
  });
  let firstAsked = false;
  await page.route(/\/products\?.*q=sams(&|$)/, async (route) => {
    firstAsked = true;
    await firstHeld;
    await route.continue().catch(() => undefined);
  });
  const search = page.getByRole('searchbox', { name: 'Search products' });
  await search.pressSequentially('sams');
  await expect.poll(() => firstAsked).toBe(true);
  await search.pressSequentially('ung');
  await expect(page).toHaveURL(/\/products\?q=samsung&category=phones$|\/products\?category=phones&q=samsung$/);
  const shown = await cardIds(page);
  expect(shown.length).toBeGreaterThan(0);
  for (const name of await page.locator('[data-product-id] h3').allTextContents()) expect(name).toContain('Samsung');
  releaseFirst();
  // The late answer for "sams" changes nothing.
  await page.waitForTimeout(500);
  expect(await cardIds(page)).toEqual(shown);
  await expect(page).toHaveURL(/q=samsung/);
  // One entry for the whole search: Back is the listing before it.
  await page.goBack();
  await expect(page).toHaveURL(/\/products\?category=phones$/);
  await expect(resultsCount(page)).toHaveText(`${phoneIds.size} products`);
  await expect(search).toHaveValue('');
});

test('a sort chosen before the listing’s script ran is applied when it starts', async ({ page }) => {
  // A slow link: the page is there, its script not yet.
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/_astro\/products\.astro_astro_type_script[^/]*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/products?category=phones', { waitUntil: 'commit' });
  const sort = page.getByRole('combobox', { name: 'Sort by' });
  await expect(sort).toBeVisible();
  await expect(page.locator('[data-listing][data-ready]')).toHaveCount(0);
  await sort.selectOption('price-desc');
  release();
  await expect(page).toHaveURL(/\/products\?category=phones&sort=price-desc$/);
  await expect(page.locator('[data-listing][data-ready]')).toHaveCount(1);
  const prices = (await cards(page).locator('.price').allTextContents()).map((p) => Number(p.replace(/[^\d]/g, '')));
  expect(prices.length).toBeGreaterThan(1);
  expect(prices).toEqual([...prices].sort((a, b) => b - a));
});

test('Load More moves focus to the first new product, and the list keeps its length on Back', async ({ page }) => {
  await page.goto('/products?category=phones');
  await islandsHydrated(page);
  await page.getByRole('button', { name: 'Load More Products' }).click();
  await expect(cards(page)).toHaveCount(phoneIds.size);
  const tenth = cards(page).nth(9);
  const tenthName = tenth.locator('.product-card__name a');
  await expect(tenthName).toBeFocused();
  await page.keyboard.press('Tab');
  expect(await tenth.evaluate((card) => card.contains(document.activeElement))).toBe(true);
  await expect(page).toHaveURL(/\/products\?category=phones&page=2$/);

  // To the 10th product and Back: the list the server sends has all ten, and the 10th is in view.
  await tenthName.click();
  await expect(page).toHaveURL(/\/product\//);
  await page.goBack();
  await expect(page).toHaveURL(/\/products\?category=phones&page=2$/);
  await expect(cards(page)).toHaveCount(phoneIds.size);
  await expect(cards(page).nth(9)).toBeInViewport();
});

test('a search the Worker refuses shows its message at the field and keeps the last results, marked', async ({ page }) => {
  await page.goto('/products?category=phones');
  await islandsHydrated(page);
  const long = 'iphone '.repeat(45);
  // What the Worker says of that search in the listing it renders for it: the words every client gets.
  const html = await (await page.request.get(`/products?category=phones&q=${encodeURIComponent(long.trim())}`)).text();
  const said = /<p id="search-problem"[^>]*>([^<]+)<\/p>/.exec(html)?.[1];
  expect(said, 'the Worker names the problem at the search box').toBeTruthy();
  const message = said!.replaceAll('&#39;', "'").replaceAll('&quot;', '"').replaceAll('&amp;', '&');

  const asked = page.waitForResponse((r) => r.url().includes('/products?') && r.request().resourceType() === 'fetch');
  await page.getByRole('searchbox', { name: 'Search products' }).fill(long);
  await asked;
  await expect(page.locator('#search-problem')).toHaveText(message);
  await expect(page.getByRole('searchbox', { name: 'Search products' })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Check your connection')).toHaveCount(0);
  await expect(page.getByText('The products below are from your previous search.')).toBeVisible();
  await expect(cards(page)).toHaveCount(9);
  await expect(page.locator('.grid-products[data-stale]')).toHaveCount(1);
  // The address is still the last search that could be shown.
  await expect(page).toHaveURL(/\/products\?category=phones$/);
  // The long search's text does not widen the page.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
});

test('when the store cannot be reached, the last results stay, marked, with the reason; back online they are asked for again', async ({
  page,
  context,
}) => {
  await page.goto('/products?category=phones');
  await islandsHydrated(page);
  await context.setOffline(true);
  await page.getByRole('checkbox', { name: 'Apple' }).check();
  await expect(page.getByText('We could not reach the store. Check your connection and try again.')).toBeVisible();
  await expect(page.getByText('The products below may be out of date.')).toBeVisible();
  await expect(page.locator('.grid-products[data-stale]')).toHaveCount(1);
  await expect(cards(page)).toHaveCount(9);
  await expect(page).toHaveURL(/\/products\?category=phones$/);
  await context.setOffline(false);
  // Back online: the listing of the address, live, and no longer marked.
  await expect(page.locator('.grid-products[data-stale]')).toHaveCount(0);
  await expect(page.getByText('The products below may be out of date.')).toHaveCount(0);
  await expect(resultsCount(page)).toHaveText(`${phoneIds.size} products`);
});

test('price boxes show naira with separators and say at the field when the max is below the min', async ({ page }) => {
  await page.goto('/products?category=tvs');
  await islandsHydrated(page);
  const min = page.getByRole('textbox', { name: 'Min' });
  const max = page.getByRole('textbox', { name: 'Max' });
  await min.fill('500000');
  await min.blur();
  await expect(min).toHaveValue('500,000');
  await expect(page).toHaveURL(/minPrice=500000/);
  // The URL changes at once; the filtered results replace the old ones when the API answers.
  await expect
    .poll(async () =>
      (await cards(page).locator('.price').allTextContents()).every((price) => Number(price.replace(/[^\d]/g, '')) >= 500_000),
    )
    .toBe(true);
  const shown = await cardIds(page);

  await max.fill('100000');
  await max.blur();
  await expect(max).toHaveValue('100,000');
  await expect(page.locator('#price-problem')).toHaveText(
    'The max price (₦100,000) is below the min price (₦500,000): raise the max or lower the min.',
  );
  await expect(max).toHaveAttribute('aria-invalid', 'true');
  // Nothing swapped or clamped: the results and the URL are still the last good range.
  await expect(page).not.toHaveURL(/maxPrice/);
  expect(await cardIds(page)).toEqual(shown);
});

test('the max price typed while the min price’s results are on their way is kept, on a slow link', async ({ page }) => {
  await page.goto('/products?category=phones');
  await islandsHydrated(page);
  // The listing's answers take 1.5 s, as on a congested mobile link.
  let answered = 0;
  await page.route(/\/products\?/, async (route) => {
    if (route.request().resourceType() !== 'fetch') return route.continue();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
    answered++;
  });
  const min = page.getByRole('textbox', { name: 'Min' });
  const max = page.getByRole('textbox', { name: 'Max' });
  await min.fill('200000');
  await min.press('Tab');
  await expect(max).toBeFocused();
  await max.pressSequentially('500000', { delay: 120 });
  // The min price's results arrive while the max box still has focus: what is in it stays.
  await expect.poll(() => answered).toBe(1);
  await expect(page).toHaveURL(/minPrice=200000/);
  await expect(max).toHaveValue('500000');
  await expect(max).toBeFocused();
  // The caret is still at the end of what was typed.
  await max.press('Backspace');
  await max.press('1');
  await expect(max).toHaveValue('500001');
  await max.press('Enter');
  await expect(page).toHaveURL(/minPrice=200000&maxPrice=500001/);
  await expect(max).toHaveValue('500,001');
  await expect(page.locator('#price-problem')).toHaveCount(0);
});

test('a category URL loads and hydrates without layout shift', async ({ page }) => {
  await watchLayoutShift(page);
  await page.goto('/products?category=phones');
  // The server's first paint is already the phones.
  await expect(resultsCount(page)).toHaveText(`${phoneIds.size} products`);
  await islandsHydrated(page);
  await expect(page.getByRole('button', { name: 'Load More Products' })).toBeVisible();
  await settled(page);
  expect(await layoutShift(page)).toBe(0);
});

test('two product cards per row on a phone @phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/products?category=tvs');
  await islandsHydrated(page);
  const boxes = await cards(page).evaluateAll((els) =>
    els.slice(0, 3).map((e) => {
      const r = e.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, right: r.right };
    }),
  );
  const [a, b, c] = boxes as [(typeof boxes)[0], (typeof boxes)[0], (typeof boxes)[0]];
  expect(b.y).toBe(a.y);
  expect(b.x).toBeGreaterThan(a.right);
  expect(c.y).toBeGreaterThan(a.y);
  expect(c.x).toBe(a.x);
  expect(a.width).toBeGreaterThan(140);
  expect(b.right).toBeLessThanOrEqual(390);
  // Each card still shows its image, name, price and button, inside the card.
  const first = cards(page).first();
  for (const part of [
    first.locator('img'),
    first.locator('.product-card__name'),
    first.locator('.price'),
    first.getByRole('button'),
  ]) {
    await expect(part).toBeVisible();
    const box = (await part.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(a.x);
    expect(box.x + box.width).toBeLessThanOrEqual(a.right + 0.5);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
});

test('a listing is titled, described and canonical by what it shows, in the HTML the Worker sends', async ({ page }) => {
  const descriptions = new Set<string>();
  for (const [path, title, heading, described] of [
    ['/products?category=laptops', 'Laptops | GTS', 'Laptops', 'Shop laptops at GTS'],
    ['/products?q=iphone', 'Search: iphone | GTS', 'Search: iphone', 'matching &quot;iphone&quot;'],
    ['/products?brand=Apple', 'Apple products | GTS', 'Apple products', 'Shop Apple at GTS'],
    ['/products', 'All products | GTS', 'Products', 'Shop phones, laptops'],
  ] as const) {
    // The Worker's HTML itself (what search engines and link previews read), before any script.
    const html = await (await page.request.get(path)).text();
    expect(html, path).toContain(`<title>${title}</title>`);
    const description = /<meta name="description" content="([^"]*)"/.exec(html)?.[1] ?? '';
    expect(description, path).toContain(described);
    descriptions.add(description);
    expect(html, path).toMatch(new RegExp(`<link rel="canonical" href="https?://[^"]+${path.replace('?', '\\?')}"`));
    await page.goto(path);
    await expect(page).toHaveTitle(title);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
  }
  expect(descriptions.size).toBe(4);
});
