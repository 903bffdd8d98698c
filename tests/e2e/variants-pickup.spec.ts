import type { Page, Route } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { islandsHydrated } from './islands.ts';

const IPHONE = '/product/apple-iphone-17';
const dialog = (page: Page) => page.getByRole('dialog', { name: /Checkout|Pay by bank transfer|Payment noted/ });

/**
 * Holds back the product page's script until `release()` is called, as a slow link does (the
 * page shows its price and its form before the script answers in place).
 */
async function holdProductScript(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/_astro\/ProductPageScript\.astro_astro_type_script[^/]*\.js$/, async (route: Route) => {
    await released;
    await route.continue();
  });
  return release;
}

test('the 512GB iPhone costs its own price, on the page, in the cart and in the order D1 stores', async ({ page, db }) => {
  await page.goto(IPHONE);
  await islandsHydrated(page);
  const storage = page.getByLabel('Storage');
  await expect(storage).toHaveValue('256gb');
  await expect(page.getByTestId('product-price')).toHaveText('₦1,349,000');
  await storage.selectOption('512gb');
  await expect(page.getByTestId('product-price')).toHaveText('₦1,749,000');
  // The address names the variant, so the link can be shared.
  await expect(page).toHaveURL(/\?variant=512gb$/);

  // Typing a quantity gives that quantity.
  const quantity = page.getByRole('textbox', { name: 'Quantity' });
  await quantity.fill('');
  await quantity.pressSequentially('2');
  await expect(quantity).toHaveValue('2');
  await page.getByRole('button', { name: /^Add to Cart/ }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Apple iPhone 17 (512GB) added to cart' })).toBeVisible();

  await page.goto('/cart');
  await islandsHydrated(page);
  await expect(page.getByRole('link', { name: 'Apple iPhone 17' })).toBeVisible();
  await expect(page.getByRole('main')).toContainText('512GB');
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();

  // Pick-up: no address asked, no delivery fee, the store's hours shown.
  const checkout = dialog(page);
  await checkout.getByLabel(/Pick-up at our Ikeja store/).check();
  await expect(checkout.getByLabel('Delivery address')).toHaveCount(0);
  await expect(checkout.getByTestId('pickup-point')).toContainText('Monday – Saturday: 9AM – 8PM');
  const summary = checkout.getByRole('region', { name: 'Order summary' });
  await expect(summary).toContainText('Apple iPhone 17 (512GB)');
  await expect(summary).toContainText('Pick-up in IkejaFree');
  await expect(summary).toContainText('Total₦3,498,000');
  await checkout.getByLabel('Full name').fill('Ada Obi');
  await checkout.getByLabel('Email').fill('ada.obi@example.com');
  await checkout.getByLabel('Phone number').fill('0803 123 4567');
  await checkout.getByRole('button', { name: 'Place Order' }).click();
  await expect(checkout.getByRole('heading', { name: 'Pay by bank transfer' })).toBeVisible();
  await expect(checkout.locator('[data-field="Amount"]')).toHaveText('₦3,498,000');
  const reference = (await checkout.locator('[data-field="Reference"]').textContent())!;

  const [order] = db.query<{ shipping: number; total: number; method: string; address: string }>(
    `select shipping_kobo as shipping, total_kobo as total, delivery_method as method, address from orders where number = '${reference}'`,
  );
  expect(order).toEqual({ shipping: 0, total: 349_800_000, method: 'pickup', address: '' });
  expect(
    db.query(`select variant, variant_id as id, unit_price_kobo as price, quantity from order_lines where order_id =
      (select id from orders where number = '${reference}')`),
  ).toEqual([{ variant: '512GB', id: '512gb', price: 174_900_000, quantity: 2 }]);

  // After the success step closes itself and the cart clears, /cart still shows the order.
  await checkout.getByRole('button', { name: 'I Have Made Payment' }).click();
  await expect(checkout).toBeHidden({ timeout: 8_000 });
  const notice = page.getByTestId('last-order');
  await expect(notice).toContainText(`Order ${reference} placed`);
  await expect(notice).toContainText('₦3,498,000');
  await expect(notice.getByRole('link', { name: `Track order ${reference}` })).toHaveAttribute(
    'href',
    `/track?order=${reference}`,
  );
  // The test servers run the payments stand-in: the order has its own account, whose transfer
  // confirms itself (no reference to quote, nobody at the bank to wait for).
  await expect(notice.getByText("Your transfer confirms itself when it reaches this order's own account")).toBeVisible();
  await expect(notice.getByText('confirm it with our bank')).toBeHidden();
  await expect(notice.getByRole('button', { name: 'Copy order number' })).toBeHidden();
  const accountNumber = db.query<{ account_number: string }>(
    `select account_number from payment_accounts where order_id = (select id from orders where number = '${reference}')`,
  )[0]!.account_number;
  await expect(
    notice.getByText(`transfer the amount to Wema Bank (stand-in), GTS Electronics Checkout, account number ${accountNumber}.`),
  ).toBeVisible();
  // Copy copies the account number and says Copied. A redraw of the empty cart (the connection
  // drops and comes back) keeps the notice as it is, not a fresh one that has forgotten it.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const copy = notice.getByRole('button', { name: 'Copy account number' });
  await copy.click();
  await expect(copy).toContainText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(accountNumber);
  await notice.evaluate((element) => element.setAttribute('data-seen', ''));
  const offlineNotice = page.getByText('You are offline — prices may have changed');
  await page.context().setOffline(true);
  await expect(offlineNotice).toBeVisible();
  await page.context().setOffline(false);
  await expect(offlineNotice).toBeHidden();
  await expect(page.locator('[data-testid="last-order"][data-seen]')).toHaveCount(1);
  await page.reload();
  await expect(page.getByTestId('last-order')).toContainText(reference);
  await expect(page.getByTestId('last-order')).toContainText(`account number ${accountNumber}`);

  // The transfer lands (the stand-in sends the signed webhook): the notice stops asking for it.
  const paid = await page.request.post('/api/test/paystack/pay', { data: { orderNumber: reference } });
  expect(paid.status(), await paid.text()).toBe(200);
  await page.reload();
  const settled = page.getByTestId('last-order');
  await expect(settled.getByRole('status')).toHaveText('Paid, being packed. We have your payment: there is nothing more to pay.');
  await expect(settled.getByRole('heading', { name: `Order ${reference} paid` })).toBeVisible();
  // Neither way of paying shows (a shared account's, with the reference, nor the order's own).
  await expect(settled.getByText(`account number ${accountNumber}`)).toHaveCount(2);
  for (const text of await settled.getByText(`account number ${accountNumber}`).all()) await expect(text).toBeHidden();
  await expect(settled.getByRole('button', { name: 'Copy account number' })).toBeHidden();
});

test('a shared ?variant= link shows that variant, its price and its name on Add to Cart', async ({ page }) => {
  await page.goto(`${IPHONE}?variant=512gb`);
  await expect(page.locator('form[data-product-form][data-ready]')).toHaveCount(1);
  await expect(page.getByTestId('product-price')).toHaveText('₦1,749,000');
  await expect(page.getByLabel('Storage')).toHaveValue('512gb');
  await expect(page.getByRole('button', { name: /^Add to Cart.*512GB/ })).toBeVisible();
  // Named as read aloud: what it does, the product and the variant chosen (no stray space before the colon).
  const add = page.locator('form[data-product-form] button[type="submit"]');
  await expect(add).toHaveAccessibleName('Add to Cart: Apple iPhone 17, 512GB');
  await page.getByLabel('Storage').selectOption('256gb');
  await expect(add).toHaveAccessibleName('Add to Cart: Apple iPhone 17, 256GB');
  // A variant the product does not come in is not offered: the page shows the first one in stock.
  await page.goto(`${IPHONE}?variant=1tb-gold`);
  await expect(page.locator('form[data-product-form][data-ready]')).toHaveCount(1);
  await expect(page.getByLabel('Storage')).toHaveValue('256gb');
  await expect(page.getByTestId('product-price')).toHaveText('₦1,349,000');
});

test('a variant chosen and Add to Cart tapped before the page script has run still put that item in the cart', async ({
  page,
}) => {
  const release = await holdProductScript(page);
  await page.goto(IPHONE, { waitUntil: 'commit' });
  await expect(page.getByLabel('Storage')).toBeVisible();
  await expect(page.locator('form[data-product-form][data-ready]')).toHaveCount(0);
  await page.getByLabel('Storage').selectOption('512gb');
  await page.getByRole('button', { name: /^Add to Cart/ }).click();
  // The form went to the server, which put the line in the cart and sent the shopper there.
  await expect(page).toHaveURL(/\/cart$/);
  release();
  await islandsHydrated(page);
  await expect(page.getByRole('link', { name: 'Apple iPhone 17' })).toBeVisible();
  await expect(page.getByRole('main')).toContainText('512GB');
  await expect(page.getByRole('link', { name: /^Cart, 1 item$/ })).toBeVisible();
});

test('the quantity box takes what is typed, and explains what it cannot take @phone', async ({ page, db }) => {
  // Other tests buy this iPhone: its stock is set here, plenty for the per-order limit of 5.
  db.setVariant('apple-iphone-17', '256gb', { stock: 30 });
  await page.goto(IPHONE);
  await islandsHydrated(page);
  const quantity = page.getByRole('textbox', { name: 'Quantity' });
  const typeIn = async (typed: string, kept: string, note: string) => {
    await quantity.fill('');
    await expect(quantity).toHaveValue('');
    await quantity.pressSequentially(typed);
    await expect(quantity).toHaveValue(typed);
    await quantity.blur();
    await expect(quantity).toHaveValue(kept);
    await expect(page.locator('#quantity-note')).toHaveText(note);
  };
  await expect(page.locator('#quantity-note')).toHaveText('Up to 5 per order');
  await typeIn('3', '3', 'Up to 5 per order');
  await typeIn('0', '1', 'At least 1');
  await typeIn('2.5', '2', 'A whole number of units');
  await typeIn('12', '5', 'At most 5 per order');

  // Down to 5 units: unpaid orders may hold only half of them, and every order waits unpaid for its
  // transfer, so one order may take 2 (what the Worker's quote and Place Order allow; tests/api/hoarding.test.ts).
  db.setVariant('apple-iphone-17', '256gb', { stock: 5 });
  await page.reload();
  await islandsHydrated(page);
  await expect(page.locator('#quantity-note')).toHaveText('Up to 2 per order while so few are left');
  await typeIn('3', '2', 'At most 2 per order');
  await expect(page.getByRole('button', { name: 'Increase quantity' })).toBeDisabled();
  db.setVariant('apple-iphone-17', '256gb', { stock: 30 });
  await page.reload();
  await islandsHydrated(page);
  // On a phone, Add to Cart stays on screen with the price, without scrolling.
  const add = page.getByRole('button', { name: /^Add to Cart/ });
  const box = (await add.boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
  expect(box.y).toBeGreaterThan(viewport.height / 2);
});

test('Add to Cart stops at what one order may take, and says so instead of "added"', async ({ page, db }) => {
  // 2 left: "Up to 1 per order while so few are left". A second press must not put a second one in the cart.
  db.setVariant('apple-iphone-17', '256gb', { stock: 2 });
  try {
    await page.goto(IPHONE);
    await islandsHydrated(page);
    await expect(page.locator('#quantity-note')).toHaveText('Up to 1 per order while so few are left');
    const add = page.getByRole('button', { name: /^Add to Cart/ });
    await add.click();
    await expect(page.getByRole('alert').filter({ hasText: 'iPhone 17 (256GB) added to cart' })).toBeVisible();
    await add.click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'is already in your cart once: the most one order can take is 1' }),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'Cart, 1 item' })).toBeVisible();
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('cartItems') ?? '[]')[0]?.quantity)).toBe(1);
  } finally {
    db.setVariant('apple-iphone-17', '256gb', { stock: 30 });
  }
});

test('a sold-out product offers no quantity and a visibly disabled button', async ({ page, db }) => {
  db.setProduct('hisense-32-a4-hd', { stock: 0 });
  await page.goto('/product/hisense-32-a4-hd');
  await islandsHydrated(page);
  const button = page.getByRole('button', { name: 'Out of stock' });
  await expect(button).toBeDisabled();
  await expect(page.getByRole('textbox', { name: 'Quantity' })).toHaveCount(0);
});

test('back online, the product page shows the price and stock D1 has now, without a reload', async ({ page, context, db }) => {
  await page.goto(`${IPHONE}?variant=512gb`);
  await islandsHydrated(page);
  await expect(page.getByTestId('product-price')).toHaveText('₦1,749,000');
  await page.evaluate(() => document.documentElement.setAttribute('data-same-page', ''));

  await context.setOffline(true);
  // While the shopper was offline, the 512GB sold out and its price changed.
  db.setVariant('apple-iphone-17', '512gb', { priceKobo: 169_900_000, stock: 0 });
  await context.setOffline(false);

  await expect(page.getByTestId('product-price')).toHaveText('₦1,699,000');
  await expect(page.locator('[data-stock]')).toHaveText('Out of stock');
  await expect(page.getByRole('button', { name: /^Out of stock/ })).toBeDisabled();
  await expect(page.getByLabel('Storage').locator('option[value="512gb"]')).toHaveText('512GB · ₦1,699,000 (sold out)');
  await expect(page.getByRole('textbox', { name: 'Quantity' })).toBeHidden();
  // Choosing a variant in stock makes the form answer again.
  await page.getByLabel('Storage').selectOption('256gb');
  await expect(page.getByTestId('product-price')).toHaveText('₦1,349,000');
  await expect(page.getByRole('button', { name: /^Add to Cart/ })).toBeEnabled();
  await expect(page.locator('html[data-same-page]')).toHaveCount(1);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('each storage in the menu shows its own price, and the quantity steppers are visibly off', async ({ page }) => {
    await page.goto(IPHONE);
    const storage = page.getByLabel('Storage');
    await expect(storage.locator('option')).toHaveText(['256GB · ₦1,349,000', '512GB · ₦1,749,000']);
    // Nothing would run them: they are disabled, and the box is typed in.
    await expect(page.getByRole('button', { name: 'Increase quantity' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Decrease quantity' })).toBeDisabled();
    await expect(page.getByRole('textbox', { name: 'Quantity' })).toBeEditable();
  });
});
