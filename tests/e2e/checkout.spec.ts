import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { querySql, runSql } from './d1.ts';
import { islandsHydrated } from './islands.ts';

const badge = (page: Page) => page.getByRole('link', { name: /^Cart, \d+ items?$/ });
const checkout = (page: Page) => page.getByRole('dialog', { name: /Checkout|Pay by bank transfer|Payment noted/ });
const stockOf = (id: string) => querySql<{ stock: number }>(`select stock from products where id = '${id}'`)[0]?.stock;

/** Adds a product to the cart from its page, as a shopper does. */
async function putInCart(page: Page, id: string, name: string) {
  await page.goto(`/product/${id}`);
  await islandsHydrated(page);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByRole('alert').filter({ hasText: `${name} added to cart` })).toBeVisible();
}

async function openCart(page: Page) {
  await page.goto('/cart');
  await islandsHydrated(page);
}

async function fillDetails(page: Page, email = 'ada.obi@example.com') {
  const dialog = checkout(page);
  await dialog.getByLabel('Full name').fill('Ada Obi');
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Phone number').fill('0803 123 4567');
  await dialog.getByLabel('Delivery address').fill('12 Allen Avenue');
  await dialog.getByLabel('City').fill('Ikeja');
  await dialog.getByLabel('State').selectOption('Lagos');
}

test('a shopper checks out by bank transfer, reports the payment and tracks the order', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const stockBefore = stockOf('anker-735-charger-ganprime-65w')!;
  await putInCart(page, 'anker-735-charger-ganprime-65w', 'Anker 735 Charger (GaNPrime 65W)');

  await openCart(page);
  const line = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Anker 735 Charger (GaNPrime 65W)' }) });
  await line.getByRole('button', { name: /^Increase quantity/ }).click();
  await expect(line.getByRole('status', { name: /^Quantity/ }).or(line.locator('output'))).toHaveText('2');
  await expect(line.getByLabel(/^Subtotal for/)).toHaveText('₦129,000');
  const summary = page.getByRole('complementary', { name: 'Order summary' });
  await expect(summary).toContainText('Subtotal₦129,000');
  await expect(summary).toContainText('Shipping₦1,500');
  await expect(summary).toContainText('Total₦130,500');

  await summary.getByRole('button', { name: 'Proceed to Checkout' }).click();
  const dialog = checkout(page);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading', { name: 'Checkout' })).toBeVisible();

  // Every field is required, with its own message.
  await dialog.getByRole('button', { name: 'Place Order' }).click();
  await expect(dialog.getByText('Please enter your full name')).toBeVisible();
  await expect(dialog.getByText('Please choose your state')).toBeVisible();
  await expect(dialog.getByLabel('Full name')).toBeFocused();
  await fillDetails(page);
  await dialog.getByLabel('Phone number').fill('12345');
  await dialog.getByRole('button', { name: 'Place Order' }).click();
  await expect(dialog.getByText('Enter a Nigerian phone number, like 0803 123 4567')).toBeVisible();
  await dialog.getByLabel('Phone number').fill('+234 803 123 4567');
  await dialog.getByRole('button', { name: 'Place Order' }).click();

  // Payment: the order exists on the server, priced and with its stock reserved.
  await expect(dialog.getByRole('heading', { name: 'Pay by bank transfer' })).toBeVisible();
  const reference = (await dialog.locator('[data-field="Reference"]').textContent())!;
  expect(reference).toMatch(/^GTS-[0-9A-Z]{10}$/);
  await expect(dialog.locator('[data-field="Amount"]')).toHaveText('₦130,500');
  await expect(dialog.locator('[data-field="Bank"]')).toHaveText('First Bank');
  await expect(dialog.locator('[data-field="Account name"]')).toHaveText('GTS Electronics Ltd');
  await expect(dialog.locator('[data-field="Account number"]')).toHaveText('3081726354');
  await expect(dialog).toContainText('We hold your items for 48 hours');
  const [order] = querySql<{ status: string; total_kobo: number }>(`select status, total_kobo from orders where number = '${reference}'`);
  expect(order).toEqual({ status: 'awaiting_payment', total_kobo: 13_050_000 });
  expect(stockOf('anker-735-charger-ganprime-65w')).toBe(stockBefore - 2);

  await dialog.getByRole('button', { name: 'Copy reference' }).click();
  await expect(dialog.getByRole('button', { name: 'Copy reference' })).toContainText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(reference);
  await dialog.getByRole('button', { name: 'Copy amount' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('130500');

  await dialog.getByRole('button', { name: 'I Have Made Payment' }).click();
  await expect(dialog.getByRole('status')).toContainText(`We have noted your payment for order ${reference}`);
  const successShown = Date.now();
  expect(querySql<{ status: string }>(`select status from orders where number = '${reference}'`)[0]?.status).toBe('payment_reported');
  // The spec: 5 seconds later the cart and badge clear and the modal closes.
  await expect(badge(page)).toHaveAccessibleName('Cart, 2 items');
  await expect(dialog).toBeHidden({ timeout: 8_000 });
  expect(Date.now() - successShown).toBeGreaterThan(4_000);
  await expect(badge(page)).toHaveAccessibleName('Cart, 0 items');
  await expect(page.getByRole('heading', { name: 'Your cart is empty' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('cartItems'))).toBe('[]');

  // The tracking page finds it by number and e-mail: Processing, in yellow.
  await page.goto('/track');
  await islandsHydrated(page);
  await page.getByLabel('Order number').fill(reference.toLowerCase());
  await page.getByLabel('Email used at checkout').fill('ADA.OBI@example.com');
  await page.getByRole('button', { name: 'Track Order' }).click();
  const result = page.getByRole('region', { name: `Order ${reference}` });
  await expect(result).toBeVisible();
  const status = result.getByText('Processing', { exact: true });
  await expect(status).toHaveAttribute('data-tone', 'yellow');
  await expect(status).toHaveCSS('background-color', 'rgb(254, 249, 195)');
  await expect(result).toContainText('Payment reported, waiting for us to confirm the transfer');
  await expect(result).toContainText('Anker 735 Charger (GaNPrime 65W)');
  await expect(result).toContainText('₦130,500');
  // The number the courier will call, as the shopper wrote it.
  await expect(result).toContainText('Ada Obi · 0803 123 4567');
  // Paid for, so no bank details any more.
  await expect(result.getByText('Payment due')).toHaveCount(0);

  // A wrong pairing reveals nothing.
  await page.getByLabel('Email used at checkout').fill('someone.else@example.com');
  await page.getByRole('button', { name: 'Track Order' }).click();
  await expect(page.getByRole('alert')).toHaveText('We could not find an order with that order number and e-mail address.');
  await expect(result).toBeHidden();
});

test('the empty cart says so and leads back to the shop', async ({ page }) => {
  await openCart(page);
  await expect(page.getByRole('heading', { name: 'Your cart is empty' })).toBeVisible();
  await page.getByRole('link', { name: 'Continue shopping' }).click();
  await expect(page).toHaveURL(/\/products$/);
});

test('when the order cannot be sent, the shopper sees the spec toast and stays on details', async ({ page }) => {
  await putInCart(page, 'anker-735-charger-ganprime-65w', 'Anker 735 Charger (GaNPrime 65W)');
  await openCart(page);
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  await fillDetails(page);
  // The network drops the request: the offline condition, not a fake of our API.
  await page.route('**/api/orders', (route) => route.abort('internetdisconnected'));
  await checkout(page).getByRole('button', { name: 'Place Order' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'There was an error processing your order. Please try again.' })).toBeVisible();
  await expect(checkout(page).getByRole('heading', { name: 'Checkout' })).toBeVisible();
  await expect(checkout(page).getByLabel('Full name')).toHaveValue('Ada Obi');
});

test('a changed price and a sold-out item show on the cart before checkout', async ({ page }) => {
  await putInCart(page, 'apple-airpods-pro-3', 'Apple AirPods Pro 3');
  await putInCart(page, 'jbl-flip-7', 'JBL Flip 7 Portable Bluetooth Speaker');
  runSql("update products set price_kobo = 42900000 where id = 'apple-airpods-pro-3'");
  runSql("update products set stock = 0 where id = 'jbl-flip-7'");
  try {
    await openCart(page);
    const airpods = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Apple AirPods Pro 3' }) });
    await expect(airpods).toContainText('Price changed: was ₦449,000, now ₦429,000');
    await expect(airpods).toContainText('₦429,000 each');
    const jbl = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'JBL Flip 7 Portable Bluetooth Speaker' }) });
    await expect(jbl).toContainText('Sold out. Remove it to check out.');
    await expect(page.getByRole('button', { name: 'Proceed to Checkout' })).toBeDisabled();

    await jbl.getByRole('button', { name: /^Remove/ }).click();
    await expect(page.getByRole('button', { name: 'Proceed to Checkout' })).toBeEnabled();
    await expect(page.getByRole('complementary', { name: 'Order summary' })).toContainText('Total₦430,500');
  } finally {
    runSql("update products set price_kobo = 44900000 where id = 'apple-airpods-pro-3'");
    runSql("update products set stock = 29 where id = 'jbl-flip-7'");
  }
});

test('stock sold while the dialog is open gets its own message, and nothing is ordered', async ({ page }) => {
  await putInCart(page, 'logitech-mx-master-3s', 'Logitech MX Master 3S Wireless Mouse');
  await openCart(page);
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  await fillDetails(page, 'late.buyer@example.com');
  runSql("update products set stock = 0 where id = 'logitech-mx-master-3s'");
  try {
    await checkout(page).getByRole('button', { name: 'Place Order' }).click();
    await expect(checkout(page).getByRole('alert')).toContainText('Logitech MX Master 3S Wireless Mouse is sold out');
    await expect(page.getByRole('alert').filter({ hasText: 'There was an error processing your order. Please try again.' })).toBeVisible();
    await expect(checkout(page).getByRole('button', { name: 'Place Order' })).toBeVisible();
    expect(querySql(`select id from orders where email = 'late.buyer@example.com'`)).toEqual([]);
  } finally {
    runSql("update products set stock = 21 where id = 'logitech-mx-master-3s'");
  }
});

test('the checkout dialog keeps focus, closes on Escape back to details, and a resubmission is the same order', async ({ page }) => {
  await putInCart(page, 'sandisk-ultra-dual-drive-luxe-usb-c', 'SanDisk Ultra Dual Drive Luxe USB-C Flash Drive');
  await openCart(page);
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  const dialog = checkout(page);
  for (let i = 0; i < 12; i++) await page.keyboard.press('Tab');
  expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);

  await fillDetails(page, 'twice@example.com');
  await dialog.getByRole('button', { name: 'Place Order' }).click();
  const reference = await dialog.locator('[data-field="Reference"]').textContent();
  const axe = await new AxeBuilder({ page }).include('dialog').analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);

  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  await expect(dialog.getByRole('heading', { name: 'Checkout' })).toBeVisible();
  await fillDetails(page, 'twice@example.com');
  await dialog.getByRole('button', { name: 'Place Order' }).click();
  await expect(dialog.locator('[data-field="Reference"]')).toHaveText(reference!);
  expect(querySql(`select id from orders where email = 'twice@example.com'`)).toHaveLength(1);
  await dialog.getByRole('button', { name: 'Close checkout' }).click();
  await expect(dialog).toBeHidden();
});

test('changing the cart after an order was placed replaces that order and gives its stock back', async ({ page }) => {
  const id = 'samsung-25w-usb-c-charger';
  const stock = stockOf(id)!;
  await putInCart(page, id, 'Samsung 25W USB-C Super Fast Charger');
  await openCart(page);
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  const dialog = checkout(page);
  await fillDetails(page, 'changed.mind@example.com');
  await dialog.getByRole('button', { name: 'Place Order' }).click();
  const first = (await dialog.locator('[data-field="Reference"]').textContent())!;
  await expect(dialog.getByRole('heading', { name: 'Pay by bank transfer' })).toBeFocused();
  expect(stockOf(id)).toBe(stock - 1);

  await dialog.getByRole('button', { name: 'Close checkout' }).click();
  await page.getByRole('button', { name: /^Increase quantity/ }).click();
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  await fillDetails(page, 'changed.mind@example.com');
  await dialog.getByRole('button', { name: 'Place Order' }).click();
  await expect(dialog.getByRole('status').filter({ hasText: `replaces your earlier order ${first}` })).toBeVisible();
  const second = (await dialog.locator('[data-field="Reference"]').textContent())!;
  expect(second).not.toBe(first);
  expect(querySql(`select number, status from orders where email = 'changed.mind@example.com' order by created_at, number`)).toEqual(
    expect.arrayContaining([{ number: first, status: 'cancelled' }, { number: second, status: 'awaiting_payment' }]),
  );
  expect(stockOf(id)).toBe(stock - 2);

  // Closing on the success step finishes the order at once: the cart clears without waiting 5 s.
  await dialog.getByRole('button', { name: 'I Have Made Payment' }).click();
  await expect(dialog.getByRole('heading', { name: 'Payment noted' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Close checkout' }).click();
  await expect(badge(page)).toHaveAccessibleName('Cart, 0 items');
  await expect(page.getByRole('heading', { name: 'Your cart is empty' })).toBeVisible();
});

test('on a phone the cart and the checkout dialog fit the screen @phone', async ({ page }) => {
  await putInCart(page, 'oraimo-traveler-4-20000mah-power-bank', 'Oraimo Traveler 4 20000mAh Power Bank');
  await openCart(page);
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  const dialog = checkout(page);
  await expect(dialog).toBeVisible();
  const box = (await dialog.boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
  await expect(dialog.getByLabel('State')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
});
