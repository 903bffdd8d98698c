import type { Page } from '@playwright/test';
import { axe, expect, type TestDb, test } from './fixtures.ts';
import { islandsHydrated } from './islands.ts';

const badge = (page: Page) => page.getByRole('link', { name: /^Cart, \d+ items?$/ });
const checkout = (page: Page) => page.getByRole('dialog', { name: /Checkout|Pay by bank transfer|Payment noted/ });

/** Adds a product to the cart from its page, as a shopper does. */
async function putInCart(page: Page, id: string, name: string) {
  await page.goto(`/product/${id}`);
  await islandsHydrated(page);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  // "{name} added to cart", or "{name} ({variant}) added to cart" for a product with variants.
  await expect(page.getByRole('alert').filter({ hasText: name }).filter({ hasText: 'added to cart' })).toBeVisible();
}

/** Units left of one variant, as D1 has them now. */
function variantStock(db: TestDb, productId: string, variantId: string): number {
  const [row] = db.query<{ stock: number }>(
    `select stock from product_variants where product_id = '${productId}' and id = '${variantId}'`,
  );
  if (!row) throw new Error(`no variant ${variantId} of ${productId}`);
  return row.stock;
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

test('a shopper checks out by bank transfer, reports the payment and tracks the order', async ({ page, context, db }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const stockBefore = db.stockOf('anker-735-charger-ganprime-65w');
  await putInCart(page, 'anker-735-charger-ganprime-65w', 'Anker 735 Charger (GaNPrime 65W)');

  // The page's clock is the test's (it runs on as usual until paused): the 5 seconds after the payment are moved, not waited.
  await page.clock.install();
  await openCart(page);
  const line = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Anker 735 Charger (GaNPrime 65W)' }) });
  await line.getByRole('button', { name: /^Increase quantity/ }).click();
  // The quantity is an <output> (role status) named for its product: exactly one per line.
  const quantity = line.getByRole('status', { name: 'Quantity of Anker 735 Charger (GaNPrime 65W)', exact: true });
  await expect(quantity).toHaveCount(1);
  await expect(quantity).toHaveText('2');
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
  // The order's own account from the payment provider (the offline stand-in here: decision 023).
  await expect(dialog.locator('[data-field="Bank"]')).toHaveText('Wema Bank (stand-in)');
  await expect(dialog.locator('[data-field="Account name"]')).toHaveText('GTS Electronics Checkout');
  const [account] = db.query<{ n: string }>(
    `select account_number as n from payment_accounts where order_id = (select id from orders where number = '${reference}')`,
  );
  await expect(dialog.locator('[data-field="Account number"]')).toHaveText(account!.n);
  await expect(dialog).toContainText('We hold your items for 12 hours');
  const [order] = db.query<{ status: string; total_kobo: number }>(
    `select status, total_kobo from orders where number = '${reference}'`,
  );
  expect(order).toEqual({ status: 'awaiting_payment', total_kobo: 13_050_000 });
  expect(db.stockOf('anker-735-charger-ganprime-65w')).toBe(stockBefore - 2);

  await dialog.getByRole('button', { name: 'Copy reference' }).click();
  await expect(dialog.getByRole('button', { name: 'Copy reference' })).toContainText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(reference);
  await dialog.getByRole('button', { name: 'Copy amount' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('130500');

  // The clock stands still from here: the success step's timer starts at a known time.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
  await dialog.getByRole('button', { name: 'I Have Made Payment' }).click();
  await expect(dialog.getByRole('status')).toContainText(`We have noted your payment for order ${reference}`);
  // The test servers run the payments stand-in: the order has its own account, which confirms itself.
  await expect(dialog.getByRole('status')).toContainText("Your transfer confirms itself when it reaches this order's account");
  // The spec: 5 seconds later the cart and badge clear and the modal closes (not before: still open after 4).
  await expect(badge(page)).toHaveAccessibleName('Cart, 2 items');
  await page.clock.runFor(4_000);
  await expect(dialog).toBeVisible();
  await expect(badge(page)).toHaveAccessibleName('Cart, 2 items');
  await page.clock.runFor(1_000);
  await expect(dialog).toBeHidden();
  await page.clock.resume();
  await expect(badge(page)).toHaveAccessibleName('Cart, 0 items');
  await expect(page.getByRole('heading', { name: 'Your cart is empty' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('cartItems'))).toBe('[]');
  // Checked after the 5 seconds: a D1 query takes seconds on a busy machine.
  expect(db.query<{ status: string }>(`select status from orders where number = '${reference}'`)).toEqual([
    { status: 'payment_reported' },
  ]);

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
  // Its own account confirms the transfer when it lands: nobody at the store is waited for.
  await expect(result).toContainText('Payment reported, waiting for the transfer to reach its account');
  await expect(result).toContainText("It confirms itself the moment it reaches this order's account");
  await expect(result).not.toContainText('for us to confirm');
  await expect(result).not.toContainText('We are checking our account');
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

  // This browser placed it, so it is offered as a shortcut that finds it with the checkout e-mail.
  await page.getByRole('button', { name: reference, exact: true }).click();
  await expect(result).toBeVisible();
  await expect(page.getByLabel('Email used at checkout')).toHaveValue('ada.obi@example.com');
  await expect(page.getByRole('alert')).toHaveText('');
});

test('/cart loads no React and no zod; the checkout brings them when the shopper heads for it', async ({ page }) => {
  await putInCart(page, 'anker-735-charger-ganprime-65w', 'Anker 735 Charger (GaNPrime 65W)');
  const scripts = new Map<string, string>();
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    scripts.set(new URL(response.url()).pathname, await response.text().catch(() => ''));
  });
  await openCart(page);
  await expect(page.locator('[data-line]')).toHaveCount(1);
  // The lines were checked against D1 (the quote), still without either.
  await expect(page.getByRole('button', { name: 'Proceed to Checkout' })).toBeEnabled();
  const react = () => [...scripts.keys()].filter((path) => /react|jsx-runtime|\/client\.[\w-]+\.js$/i.test(path));
  const zod = () => [...scripts].filter(([, text]) => text.includes('ZodError')).map(([path]) => path);
  expect([...scripts.keys()].some((path) => path.includes('CartPage.astro'))).toBe(true);
  expect(react()).toEqual([]);
  expect(zod()).toEqual([]);

  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  await expect(checkout(page)).toBeVisible();
  expect(react().length).toBeGreaterThan(0);
  expect(zod().length).toBeGreaterThan(0);
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
  await expect(
    page.getByRole('alert').filter({ hasText: 'There was an error processing your order. Please try again.' }),
  ).toBeVisible();
  await expect(checkout(page).getByRole('heading', { name: 'Checkout' })).toBeVisible();
  await expect(checkout(page).getByLabel('Full name')).toHaveValue('Ada Obi');
});

test('what the shopper typed at checkout comes back after a reload and Back, in this tab only, and goes with the finished order', async ({
  page,
}) => {
  await putInCart(page, 'anker-735-charger-ganprime-65w', 'Anker 735 Charger (GaNPrime 65W)');
  await openCart(page);
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  await fillDetails(page, 'draft.keeper@example.com');
  const typed = async () => {
    await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
    const dialog = checkout(page);
    await expect(dialog.getByLabel('Full name')).toHaveValue('Ada Obi');
    await expect(dialog.getByLabel('Email')).toHaveValue('draft.keeper@example.com');
    await expect(dialog.getByLabel('Phone number')).toHaveValue('0803 123 4567');
    await expect(dialog.getByLabel('Delivery address')).toHaveValue('12 Allen Avenue');
    await expect(dialog.getByLabel('City')).toHaveValue('Ikeja');
    await expect(dialog.getByLabel('State')).toHaveValue('Lagos');
  };
  await page.reload();
  await islandsHydrated(page);
  await typed();
  await page.goto('/products');
  await page.goBack();
  await islandsHydrated(page);
  await typed();

  // Another tab of the same browser starts empty: the details are this visit's, not the device's.
  const other = await page.context().newPage();
  await openCart(other);
  await other.getByRole('button', { name: 'Proceed to Checkout' }).click();
  await expect(checkout(other).getByLabel('Full name')).toHaveValue('');
  await expect(checkout(other).getByLabel('Email')).toHaveValue('');
  await other.close();

  // The order finished, the draft goes: the next checkout starts empty.
  await checkout(page).getByRole('button', { name: 'Place Order' }).click();
  await checkout(page).getByRole('button', { name: 'I Have Made Payment' }).click();
  await expect(checkout(page)).toBeHidden({ timeout: 8_000 });
  expect(await page.evaluate(() => sessionStorage.getItem('gtsCheckoutDraft'))).toBeNull();
  await putInCart(page, 'anker-735-charger-ganprime-65w', 'Anker 735 Charger (GaNPrime 65W)');
  await openCart(page);
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  await expect(checkout(page).getByLabel('Full name')).toHaveValue('');
  await expect(checkout(page).getByLabel('Email')).toHaveValue('');
});

test('a changed price and a sold-out item show on the cart before checkout', async ({ page, db }) => {
  await putInCart(page, 'apple-airpods-pro-3', 'Apple AirPods Pro 3');
  await putInCart(page, 'jbl-flip-7', 'JBL Flip 7 Portable Bluetooth Speaker');
  // An admin changes them while they sit in the cart (the db fixture puts them back).
  db.setProduct('apple-airpods-pro-3', { priceKobo: 42_900_000 });
  db.setVariant('jbl-flip-7', 'black', { stock: 0 });

  await openCart(page);
  const airpods = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Apple AirPods Pro 3' }) });
  await expect(airpods).toContainText('Price changed: was ₦449,000, now ₦429,000');
  await expect(airpods).toContainText('₦429,000 each');
  const jbl = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name: 'JBL Flip 7 Portable Bluetooth Speaker' }) });
  await expect(jbl).toContainText('Sold out. Remove it to check out.');
  await expect(page.getByRole('button', { name: 'Proceed to Checkout' })).toBeDisabled();

  await jbl.getByRole('button', { name: /^Remove/ }).click();
  await expect(page.getByRole('button', { name: 'Proceed to Checkout' })).toBeEnabled();
  await expect(page.getByRole('complementary', { name: 'Order summary' })).toContainText('Total₦430,500');
});

test('a line whose price changed and whose stock ran short says both, and the cart takes the new price', async ({ page, db }) => {
  await putInCart(page, 'apple-airpods-pro-3', 'Apple AirPods Pro 3');
  await openCart(page);
  // The cart checks the new quantity with the Worker: that answer is in before anything changes,
  // or it would take the new price into the cart before the reload below.
  const checked = page.waitForResponse(
    (r) => r.url().endsWith('/api/orders/quote') && r.request().postData()?.includes('"quantity":2') === true,
  );
  await page.getByRole('button', { name: /^Increase quantity of Apple AirPods Pro 3/ }).click();
  await expect(badge(page)).toHaveAccessibleName('Cart, 2 items');
  await checked;
  // Cheaper, and only one left: the quote names the shortage (which blocks), not the price.
  db.setProduct('apple-airpods-pro-3', { priceKobo: 42_900_000, stock: 1 });

  await page.reload();
  const airpods = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Apple AirPods Pro 3' }) });
  await expect(airpods).toContainText('Only 1 left. Lower the quantity to check out.');
  await expect(airpods).toContainText('Price changed: was ₦449,000, now ₦429,000');
  await expect(airpods).toContainText('₦429,000 each');
  await expect(page.getByRole('button', { name: 'Proceed to Checkout' })).toBeDisabled();

  await airpods.getByRole('button', { name: /^Decrease quantity of/ }).click();
  await expect(page.getByRole('button', { name: 'Proceed to Checkout' })).toBeEnabled();
  await expect(page.getByRole('complementary', { name: 'Order summary' })).toContainText('Total₦430,500');
});

test('stock sold while the dialog is open gets its own message, and nothing is ordered', async ({ page, db }) => {
  await putInCart(page, 'logitech-mx-master-3s', 'Logitech MX Master 3S Wireless Mouse');
  await openCart(page);
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  await fillDetails(page, 'late.buyer@example.com');
  db.setVariant('logitech-mx-master-3s', 'graphite', { stock: 0 });

  await checkout(page).getByRole('button', { name: 'Place Order' }).click();
  await expect(checkout(page).getByRole('alert')).toContainText('Logitech MX Master 3S Wireless Mouse (Graphite) is sold out');
  await expect(
    page.getByRole('alert').filter({ hasText: 'There was an error processing your order. Please try again.' }),
  ).toBeVisible();
  await expect(checkout(page).getByRole('button', { name: 'Place Order' })).toBeVisible();
  expect(db.query(`select id from orders where email = 'late.buyer@example.com'`)).toEqual([]);
  expect(variantStock(db, 'logitech-mx-master-3s', 'graphite')).toBe(0);
});

test('the checkout dialog keeps focus, closes on Escape, and the cart continues to the same order', async ({ page, db }) => {
  await putInCart(page, 'sandisk-ultra-dual-drive-luxe-usb-c', 'SanDisk Ultra Dual Drive Luxe USB-C Flash Drive');
  await openCart(page);
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  const dialog = checkout(page);
  // The dialog loads on this click: tabbing before it is open would walk the page behind it.
  await expect(dialog.getByLabel('Full name')).toBeVisible();
  for (let i = 0; i < 12; i++) await page.keyboard.press('Tab');
  expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);

  await fillDetails(page, 'twice@example.com');
  await dialog.getByRole('button', { name: 'Place Order' }).click();
  await expect(dialog.locator('[data-field="Reference"]')).toHaveText(/^GTS-[0-9A-Z]{10}$/);
  const reference = await dialog.locator('[data-field="Reference"]').textContent();
  const results = await axe(page).include('dialog').analyze();
  expect(results.violations.map((v) => v.id)).toEqual([]);

  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  // The order is still waiting for payment: the cart leads back to it instead of a second order.
  await expect(page.getByRole('button', { name: 'Proceed to Checkout' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(dialog.getByRole('heading', { name: 'Pay by bank transfer' })).toBeFocused();
  await expect(dialog.locator('[data-field="Reference"]')).toHaveText(reference!);
  expect(db.query(`select id from orders where email = 'twice@example.com'`)).toHaveLength(1);
  await dialog.getByRole('button', { name: 'Close checkout' }).click();
  await expect(dialog).toBeHidden();
});

test('closing the payment step and coming back to /cart continues to the same order, even for the last unit', async ({
  page,
  db,
}) => {
  const id = 'oraimo-traveler-4-20000mah-power-bank';
  db.setVariant(id, 'black', { stock: 1 });
  await putInCart(page, id, 'Oraimo Traveler 4 20000mAh Power Bank');
  await openCart(page);
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  const dialog = checkout(page);
  await fillDetails(page, 'last.unit@example.com');
  await dialog.getByRole('button', { name: 'Place Order' }).click();
  await expect(dialog.getByRole('heading', { name: 'Pay by bank transfer' })).toBeFocused();
  const reference = (await dialog.locator('[data-field="Reference"]').textContent())!;
  expect(reference).toMatch(/^GTS-[0-9A-Z]{10}$/);
  expect(variantStock(db, id, 'black')).toBe(0);
  await dialog.getByRole('button', { name: 'Close checkout' }).click();

  // Back on /cart later: the shopper's own order holds the last unit, so it is not "sold out" to them.
  await page.goto('/products');
  await openCart(page);
  const summary = page.getByRole('complementary', { name: 'Order summary' });
  const ownOrder = summary
    .getByRole('status')
    .filter({ hasText: `Your order ${reference} for these items is waiting for payment` });
  await expect(ownOrder).toBeVisible();
  // "until Sat, 28 Nov, 4:28 am", not "untilSat" (the page's markup once lost the space).
  await expect(ownOrder).toHaveText(/We hold them for you until \w{3}, \d{1,2} \w{3}, /);
  await expect(page.getByText('Sold out. Remove it to check out.')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Proceed to Checkout' })).toHaveCount(0);
  await summary.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(dialog.getByRole('heading', { name: 'Pay by bank transfer' })).toBeFocused();
  await expect(dialog.locator('[data-field="Reference"]')).toHaveText(reference);
  await expect(dialog.locator('[data-field="Amount"]')).toHaveText(/^₦[\d,]+$/);
  expect(db.query(`select number from orders where email = 'last.unit@example.com'`)).toEqual([{ number: reference }]);

  // Paying for it from there works as from the first visit.
  await dialog.getByRole('button', { name: 'I Have Made Payment' }).click();
  await expect(dialog.getByRole('heading', { name: 'Payment noted' })).toBeVisible();
  expect(db.query(`select status from orders where number = '${reference}'`)).toEqual([{ status: 'payment_reported' }]);
});

test('changing the cart after an order was placed replaces that order and gives its stock back', async ({ page, db }) => {
  const id = 'samsung-25w-usb-c-charger';
  const stock = db.stockOf(id);
  await putInCart(page, id, 'Samsung 25W USB-C Super Fast Charger');
  await openCart(page);
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  const dialog = checkout(page);
  await fillDetails(page, 'changed.mind@example.com');
  await dialog.getByRole('button', { name: 'Place Order' }).click();
  await expect(dialog.getByRole('heading', { name: 'Pay by bank transfer' })).toBeFocused();
  const first = (await dialog.locator('[data-field="Reference"]').textContent())!;
  expect(first).toMatch(/^GTS-[0-9A-Z]{10}$/);
  expect(db.stockOf(id)).toBe(stock - 1);

  await dialog.getByRole('button', { name: 'Close checkout' }).click();
  await page.getByRole('button', { name: /^Increase quantity/ }).click();
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  await fillDetails(page, 'changed.mind@example.com');
  await dialog.getByRole('button', { name: 'Place Order' }).click();
  await expect(dialog.getByRole('status').filter({ hasText: `replaces your earlier order ${first}` })).toBeVisible();
  const second = (await dialog.locator('[data-field="Reference"]').textContent())!;
  expect(second).not.toBe(first);
  expect(
    db.query(`select number, status from orders where email = 'changed.mind@example.com' order by created_at, number`),
  ).toEqual(
    expect.arrayContaining([
      { number: first, status: 'cancelled' },
      { number: second, status: 'awaiting_payment' },
    ]),
  );
  expect(db.stockOf(id)).toBe(stock - 2);
  // /track's "Orders placed in this browser" lists the order, not the one it replaced (cancelled by this browser).
  const track = await page.context().newPage();
  await track.goto('/track');
  await expect(track.locator('[data-track-recent] button')).toContainText([second]);
  await expect(track.locator('[data-track-recent]')).not.toContainText(first);
  await track.close();

  // Closing on the success step finishes the order at once: the cart clears without waiting 5 s.
  await dialog.getByRole('button', { name: 'I Have Made Payment' }).click();
  await expect(dialog.getByRole('heading', { name: 'Payment noted' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Close checkout' }).click();
  await expect(badge(page)).toHaveAccessibleName('Cart, 0 items');
  await expect(page.getByRole('heading', { name: 'Your cart is empty' })).toBeVisible();
});

test('when the order that would replace an earlier one fails, the earlier order is kept and shown', async ({ page, db }) => {
  const id = 'jbl-flip-7';
  const stock = db.stockOf(id);
  await putInCart(page, id, 'JBL Flip 7 Portable Bluetooth Speaker');
  await openCart(page);
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  const dialog = checkout(page);
  await fillDetails(page, 'kept.order@example.com');
  await dialog.getByRole('button', { name: 'Place Order' }).click();
  await expect(dialog.getByRole('heading', { name: 'Pay by bank transfer' })).toBeFocused();
  const first = (await dialog.locator('[data-field="Reference"]').textContent())!;
  await dialog.getByRole('button', { name: 'Close checkout' }).click();

  // A changed cart means a new order; the connection drops as it is sent.
  await page.getByRole('button', { name: /^Increase quantity/ }).click();
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  await fillDetails(page, 'kept.order@example.com');
  await page.route('**/api/orders', (route) => route.abort('internetdisconnected'));
  await dialog.getByRole('button', { name: 'Place Order' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'There was an error processing your order. Please try again.' }),
  ).toBeVisible();
  await expect(dialog.getByRole('status').filter({ hasText: `Your earlier order ${first} is still open` })).toBeVisible();
  expect(db.query(`select status from orders where number = '${first}'`)).toEqual([{ status: 'awaiting_payment' }]);
  expect(db.stockOf(id)).toBe(stock - 1);

  // Back online, the new order is placed and only then replaces (cancels) the earlier one.
  await page.unroute('**/api/orders');
  await dialog.getByRole('button', { name: 'Place Order' }).click();
  await expect(dialog.getByRole('status').filter({ hasText: `replaces your earlier order ${first}` })).toBeVisible();
  expect(db.query(`select status from orders where number = '${first}'`)).toEqual([{ status: 'cancelled' }]);
  expect(db.stockOf(id)).toBe(stock - 2);
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

  // At 360 px the payment step opens at its top, with what to transfer on screen, not scrolled
  // down to 'I Have Made Payment' as the details step was.
  await page.setViewportSize({ width: 360, height: 740 });
  await fillDetails(page, 'phone.shopper@example.com');
  await dialog.getByRole('button', { name: 'Place Order' }).click();
  await expect(dialog.getByRole('heading', { name: 'Pay by bank transfer' })).toBeFocused();
  await expect(dialog.locator('[data-field="Amount"]')).toBeInViewport();
  await expect(dialog.locator('[data-field="Reference"]')).toBeInViewport();
  expect(await dialog.evaluate((element) => element.scrollTop)).toBe(0);
});

test('closing the checkout opened by a click that did not focus the button (as Safari clicks) gives focus back to it', async ({
  page,
}) => {
  await putInCart(page, 'jbl-flip-7', 'JBL Flip 7 Portable Bluetooth Speaker');
  await openCart(page);
  const proceed = page.getByRole('button', { name: 'Proceed to Checkout' });
  // As a tap in Safari: what had focus loses it (the tap is elsewhere), and the button never gets it.
  await proceed.evaluate((button: HTMLElement) => {
    (document.activeElement as HTMLElement | null)?.blur();
    button.click();
  });
  await expect(checkout(page).getByRole('heading', { name: 'Checkout' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(checkout(page)).toBeHidden();
  await expect(proceed).toBeFocused();
});

test('an e-mail a letter off a common mailbox is offered corrected, in one tap, before the order goes to it', async ({
  page,
}) => {
  await putInCart(page, 'anker-735-charger-ganprime-65w', 'Anker 735 Charger (GaNPrime 65W)');
  await openCart(page);
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  await fillDetails(page, 'ngozi@gmial.com');
  const dialog = checkout(page);
  const offer = dialog.getByRole('status').filter({ hasText: 'Did you mean' });
  await expect(offer).toHaveText('Did you mean ngozi@gmail.com?');
  await offer.getByRole('button', { name: 'ngozi@gmail.com' }).click();
  await expect(dialog.getByLabel('Email')).toHaveValue('ngozi@gmail.com');
  await expect(dialog.getByLabel('Email')).toBeFocused();
  await expect(offer).toHaveCount(0);
  // An address on a mailbox of its own is left as typed.
  await dialog.getByLabel('Email').fill('ngozi@gtbank.com');
  await expect(dialog.getByRole('status').filter({ hasText: 'Did you mean' })).toHaveCount(0);
});
