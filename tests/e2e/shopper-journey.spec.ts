import type { Page } from '@playwright/test';
import { querySql } from './d1.ts';
import { expect, test } from './fixtures.ts';
import { islandsHydrated, scriptsRan } from './islands.ts';

const badge = (page: Page) => page.getByRole('link', { name: /^Cart, \d+ items?$/ });

test('a shopper browses a category, filters, loads more, and adds a variant to the cart, as many as one order may take', async ({
  page,
  context,
}) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'Phones', exact: true }).first().click();

  await expect(page).toHaveURL(/\/products\?category=phones$/);
  await islandsHydrated(page);
  await expect(page.getByRole('checkbox', { name: 'Phones' })).toBeChecked();
  const count = page.getByRole('status').filter({ hasText: /products?$/ });
  await expect(count).toHaveText('10 products');

  await page.getByRole('combobox', { name: 'Sort by' }).selectOption('price-desc');
  await expect(page).toHaveURL(/category=phones&sort=price-desc/);
  const cards = page.locator('[data-product-id]');
  await expect(cards).toHaveCount(9);
  // The URL changes at once; the sorted results replace the old ones when the API answers.
  const shownPrices = async () => (await cards.locator('.price').allTextContents()).map((p) => Number(p.replace(/[^\d]/g, '')));
  await expect
    .poll(async () => {
      const kobo = await shownPrices();
      return kobo.every((price, i) => i === 0 || kobo[i - 1]! >= price);
    })
    .toBe(true);

  await page.getByRole('button', { name: 'Load More Products' }).click();
  await expect(cards).toHaveCount(10);
  await expect(page.getByRole('button', { name: 'Load More Products' })).toHaveCount(0);

  // The filtered view survives a reload: the URL carries it.
  await page.reload();
  await islandsHydrated(page);
  await expect(page.getByRole('combobox', { name: 'Sort by' })).toHaveValue('price-desc');
  await expect(count).toHaveText('10 products');

  await page.getByRole('link', { name: 'Apple iPhone 17 Pro Max', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Apple iPhone 17 Pro Max' })).toBeVisible();
  await islandsHydrated(page);
  // The select is labelled by what it chooses, and each storage size has its own price.
  const storage = page.getByRole('combobox', { name: 'Storage' });
  const variants = await storage.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
  expect(variants).toEqual(['256gb', '512gb', '1tb', '2tb']);
  await storage.selectOption('512gb');
  await expect(page.getByTestId('product-price')).toHaveText('₦2,849,000');
  // Two of the 512GB are left, and the store keeps only half of a product's units for orders not
  // yet paid (every order waits unpaid for its transfer): one order may take one, and the page says so.
  await expect(page.locator('#quantity-note')).toHaveText('Up to 1 per order while so few are left');
  await expect(page.getByRole('button', { name: 'Increase quantity' })).toBeDisabled();
  await storage.selectOption('256gb');
  await expect(page.getByRole('button', { name: 'Increase quantity' })).toBeDisabled();
  await storage.selectOption('512gb');
  await expect(page.getByRole('textbox', { name: 'Quantity' })).toHaveValue('1');
  await page.getByRole('button', { name: /^Add to Cart/ }).click();

  await expect(page.getByRole('alert').filter({ hasText: 'Apple iPhone 17 Pro Max (512GB) added to cart' })).toBeVisible();
  await expect(badge(page)).toHaveAccessibleName('Cart, 1 item');

  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('cartItems') ?? '[]'));
  expect(stored).toEqual([
    expect.objectContaining({
      id: 'apple-iphone-17-pro-max',
      variant: '512gb',
      variantLabel: '512GB',
      price: 284_900_000,
      quantity: 1,
    }),
  ]);

  await page.reload();
  await expect(badge(page)).toHaveAccessibleName('Cart, 1 item');

  // A second tab sees the same cart, and an add there updates the first tab.
  const second = await context.newPage();
  await second.goto('/products');
  await islandsHydrated(second);
  await expect(badge(second)).toHaveAccessibleName('Cart, 1 item');
  // The first product without variants to choose: its card adds it at once.
  await second
    .getByRole('button', { name: /^Add to Cart/ })
    .first()
    .click();
  await expect(badge(second)).toHaveAccessibleName('Cart, 2 items');
  await expect(badge(page)).toHaveAccessibleName('Cart, 2 items');
});

test('search, brand filter chips, Clear All and the empty state', async ({ page }) => {
  await page.goto('/products');
  await islandsHydrated(page);
  await page.getByRole('searchbox', { name: 'Search products' }).fill('zzzz-no-such-thing');
  await expect(page.getByRole('heading', { name: 'No products found' })).toBeVisible();
  await expect(page).toHaveURL(/q=zzzz-no-such-thing/);

  await page.getByRole('button', { name: 'Clear All' }).first().click();
  await expect(page.getByRole('heading', { name: 'No products found' })).toHaveCount(0);
  await expect(page).toHaveURL(/\/products$/);

  await page.getByRole('checkbox', { name: 'Sony' }).check();
  await expect(page.getByRole('button', { name: 'Remove filter Sony' })).toBeVisible();
  await expect(page).toHaveURL(/brand=Sony/);
  const brands = page.locator('[data-product-id] .product-card__body > .muted');
  await expect.poll(async () => [...new Set(await brands.allTextContents())]).toEqual(['Sony']);
  await page.getByRole('button', { name: 'Remove filter Sony' }).click();
  await expect(page.getByRole('checkbox', { name: 'Sony' })).not.toBeChecked();
});

test('a search is ranked by best match: the first letters of a name find it first', async ({ page }) => {
  await page.goto('/products');
  await islandsHydrated(page);
  await page.getByRole('searchbox', { name: 'Search products' }).fill('iph');
  await expect(page).toHaveURL(/q=iph/);
  await expect(page.getByRole('combobox', { name: /sort/i })).toHaveValue('relevance');
  const names = page.locator('[data-product-id] h3');
  await expect
    .poll(async () => (await names.allTextContents()).slice(0, 2).every((n) => n.startsWith('Apple iPhone')))
    .toBe(true);
  // Picking another order is kept for the next search.
  await page.getByRole('combobox', { name: /sort/i }).selectOption('price-asc');
  await page.getByRole('searchbox', { name: 'Search products' }).fill('samsung');
  await expect(page).toHaveURL(/sort=price-asc/);
});

test('an out-of-stock product cannot be added', async ({ page }) => {
  await page.goto('/product/google-pixel-10-pro');
  await expect(page.locator('.stock-out')).toHaveText('Out of stock');
  await expect(page.getByRole('button', { name: 'Out of stock' })).toBeDisabled();
});

test('a product page shows D1’s price and stock, not the build’s', async ({ page, db }) => {
  db.setVariant('sony-playstation-5-slim', 'disc-edition', { priceKobo: 79_900_000, stock: 2 });
  await page.goto('/product/sony-playstation-5-slim');
  await expect(page.getByTestId('product-price')).toHaveText('₦799,000');
  await expect(page.getByText('Only 2 left in stock')).toBeVisible();
});

test('a product added to D1 after the build has its own page and shows in the listing', async ({ page, db }) => {
  db.insertProduct({
    id: 'tecno-pop-10',
    name: 'Tecno Pop 10',
    brand: 'Tecno',
    category: 'phones',
    description: 'An entry phone with a 6.67-inch screen and a 5,000 mAh battery.',
    priceKobo: 9_950_000,
    image: '/images/products/itel-a90.svg',
    variants: ['64GB', '128GB'],
    stock: 7,
  });
  const response = await page.goto('/product/tecno-pop-10');
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: 'Tecno Pop 10' })).toBeVisible();
  await expect(page.getByTestId('product-price')).toHaveText('₦99,500');

  await page.goto('/products?q=pop%2010');
  await expect(page.getByRole('link', { name: 'Tecno Pop 10', exact: true })).toBeVisible();
});

test('what a shopper types before the page is interactive is kept and searched', async ({ page }) => {
  await page.goto('/products', { waitUntil: 'commit' });
  await page.getByRole('searchbox', { name: 'Search products' }).fill('dualsense');
  await islandsHydrated(page);
  await expect(page.getByRole('searchbox', { name: 'Search products' })).toHaveValue('dualsense');
  await expect(page).toHaveURL(/q=dualsense/);
  await expect(page.getByRole('link', { name: /DualSense/ }).first()).toBeVisible();
});

test('an unknown product says Product not found with status 404', async ({ page }) => {
  const response = await page.goto('/product/no-such-phone');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Product not found' })).toBeVisible();
});

test('an unknown path shows the home content with status 404', async ({ page }) => {
  const response = await page.goto('/warranty-claims/2024');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Genuine gadgets at honest naira prices' })).toBeVisible();
  await expect(page.getByText('We could not find that page.')).toBeVisible();
});

test('the footer newsletter says to check the inbox; the e-mailed links confirm and unsubscribe with one press', async ({
  page,
}) => {
  await page.goto('/about');
  await scriptsRan(page);
  const form = page.locator('form[data-newsletter]');
  await form.getByRole('button', { name: 'Subscribe' }).click();
  await expect(form.getByRole('status')).toHaveText('Please enter your email address');
  // An empty box too: focus goes to the field to fill in, as for a wrong address below.
  await expect(form.getByRole('textbox')).toBeFocused();
  await form.getByRole('textbox').fill('not-an-email');
  await form.getByRole('button', { name: 'Subscribe' }).click();
  await expect(form.getByRole('status')).toHaveText('Please enter a valid email address');
  // Focus goes back to the field to correct it (the button, disabled while it sent, had lost it).
  await expect(form.getByRole('textbox')).toBeFocused();
  const email = `shopper+${Date.now()}@example.com`;
  await form.getByRole('textbox').fill(email);
  await form.getByRole('button', { name: 'Subscribe' }).click();
  await expect(form.getByRole('status')).toHaveText('Check your inbox to confirm your subscription.');
  await expect(form.getByRole('button', { name: 'Subscribe' })).toBeFocused();
  const subscriber = () =>
    querySql<{ confirmed: number }>(
      `select confirmed_at is not null as confirmed from newsletter_subscribers where email = '${email}'`,
    );
  expect(subscriber()).toEqual([{ confirmed: 0 }]);

  const [mail] = querySql<{ text: string }>(
    `select text from email_outbox where recipient = '${email}' and kind = 'newsletter_confirm'`,
  );
  const links = [...mail!.text.matchAll(/https?:\/\/\S+\/newsletter\/(?:confirm|unsubscribe)\?token=\S+/g)].map(
    (m) => new URL(m[0]),
  );
  const confirm = links.find((l) => l.pathname === '/newsletter/confirm')!;
  const unsubscribe = links.find((l) => l.pathname === '/newsletter/unsubscribe')!;

  // Opening the link (as a mail scanner does) confirms nothing; the button does, without JavaScript.
  await page.goto(`${confirm.pathname}${confirm.search}`);
  expect(subscriber()).toEqual([{ confirmed: 0 }]);
  await page.getByRole('button', { name: 'Confirm my subscription' }).click();
  await expect(page.getByRole('heading', { name: 'You are subscribed' })).toBeVisible();
  expect(subscriber()).toEqual([{ confirmed: 1 }]);

  // The same link again: spent.
  await page.goto(`${confirm.pathname}${confirm.search}`);
  await page.getByRole('button', { name: 'Confirm my subscription' }).click();
  await expect(page.getByRole('heading', { name: 'This link has expired' })).toBeVisible();

  await page.goto(`${unsubscribe.pathname}${unsubscribe.search}`);
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible();
  expect(subscriber()).toEqual([]);
});

test.describe('without JavaScript (or pressed before the page’s script runs)', () => {
  test.use({ javaScriptEnabled: false });

  test('the footer sign-up answers with a page: the field to correct, then check the inbox; the address never in a URL', async ({
    page,
  }) => {
    await page.goto('/about');
    const footerForm = page.locator('footer form[data-newsletter]');
    await footerForm.getByRole('textbox').fill('not-an-email');
    await footerForm.getByRole('button', { name: 'Subscribe' }).click();
    await expect(page).toHaveURL(/\/newsletter\/subscribe$/);
    await expect(page.getByRole('heading', { name: 'Subscribe to our newsletter' })).toBeVisible();
    const form = page.locator('main form[data-newsletter]');
    await expect(form.getByRole('status')).toHaveText('Please enter a valid email address');
    await expect(form.getByRole('textbox')).toHaveValue('not-an-email');
    await expect(form.getByRole('textbox')).toHaveAttribute('aria-invalid', 'true');

    const email = `plain+${Date.now()}@example.com`;
    await form.getByRole('textbox').fill(email);
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
    await expect(page.getByRole('main').getByRole('status')).toHaveText('Check your inbox to confirm your subscription.');
    expect(page.url()).toMatch(/\/newsletter\/subscribe$/);
    expect(
      querySql<{ confirmed: number }>(
        `select confirmed_at is not null as confirmed from newsletter_subscribers where email = '${email}'`,
      ),
    ).toEqual([{ confirmed: 0 }]);
    expect(querySql(`select id from email_outbox where recipient = '${email}' and kind = 'newsletter_confirm'`)).toHaveLength(1);
  });
});

test('the mobile menu offers payment methods and the six categories @phone', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.getByRole('navigation', { name: 'Mobile' });
  await expect(menu.getByRole('link', { name: 'Payment Methods' })).toBeVisible();
  for (const name of ['Phones', 'Laptops', 'TVs', 'Consoles', 'Accessories', 'Video Games']) {
    await expect(menu.getByRole('link', { name, exact: true })).toBeVisible();
  }
  await page.getByRole('button', { name: 'Close menu' }).click();
  await expect(menu).toBeHidden();
});
