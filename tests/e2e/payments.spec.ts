import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { ADMIN, placeOrderAs, signedInUser, signIn } from './accounts.ts';
import { otherBrowser } from './contexts.ts';
import { islandsHydrated } from './islands.ts';

/**
 * Transfers that confirm themselves (decision 023): the test servers run the real Paystack
 * adapter against its offline stand-in (PAYMENTS_STANDIN, scripts/store-server.ts). A shopper's
 * order gets its own account; the stand-in "pays" it by sending the signed webhook, as Paystack
 * would; the payment step, /track and the admin's order turn paid with nobody pressing Confirm.
 */
const checkout = (page: Page) =>
  page.getByRole('dialog', { name: /Checkout|Pay by bank transfer|Payment noted|Payment received/ });

async function orderCharger(page: Page, email: string): Promise<{ number: string; accountNumber: string }> {
  await page.goto('/product/anker-735-charger-ganprime-65w');
  await islandsHydrated(page);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'added to cart' })).toBeVisible();
  await page.goto('/cart');
  await islandsHydrated(page);
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  const dialog = checkout(page);
  await dialog.getByLabel('Full name').fill('Ada Obi');
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Phone number').fill('0803 123 4567');
  await dialog.getByLabel('Delivery address').fill('12 Allen Avenue');
  await dialog.getByLabel('City').fill('Ikeja');
  await dialog.getByLabel('State').selectOption('Lagos');
  await dialog.getByRole('button', { name: 'Place Order' }).click();
  await expect(dialog.getByRole('heading', { name: 'Pay by bank transfer' })).toBeVisible();
  const number = (await dialog.locator('[data-field="Reference"]').textContent())!;
  const accountNumber = (await dialog.locator('[data-field="Account number"]').textContent())!;
  return { number, accountNumber };
}

async function pay(page: Page, orderNumber: string, amountKobo?: number) {
  const response = await page.request.post('/api/test/paystack/pay', {
    data: { orderNumber, ...(amountKobo === undefined ? {} : { amountKobo }) },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as { webhook: { outcome: string } | null };
}

test('an order with its own account turns paid by itself: the payment step, /track and the admin', async ({
  page,
  browser,
  baseURL,
  db,
}) => {
  const email = `own-account-${Date.now()}@example.com`;
  const { number, accountNumber } = await orderCharger(page, email);
  const dialog = checkout(page);

  // The order's own account, not the shop's shared one, and the promise that it confirms itself.
  expect(number).toMatch(/^GTS-[0-9A-Z]{10}$/);
  expect(accountNumber).toMatch(/^\d{10}$/);
  expect(accountNumber).not.toBe('3081726354');
  await expect(dialog.locator('[data-field="Bank"]')).toHaveText('Wema Bank (stand-in)');
  await expect(dialog.locator('[data-field="Amount"]')).toHaveText('₦66,000');
  await expect(dialog).toContainText("this order's own account");
  await expect(dialog).toContainText('confirm it by ourselves');
  expect(
    db.query(
      `select account_number as n from payment_accounts where order_id = (select id from orders where number = '${number}')`,
    ),
  ).toEqual([{ n: accountNumber }]);

  // The transfer lands: the stand-in sends the signed webhook; the open payment step turns paid.
  expect((await pay(page, number)).webhook).toMatchObject({ outcome: 'paid' });
  await expect(dialog.getByRole('heading', { name: 'Payment received' })).toBeVisible({ timeout: 15_000 });
  await expect(dialog).toContainText(`Order ${number} is paid (₦66,000)`);
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('link', { name: /^Cart, 0 items$/ })).toBeVisible();

  // /track shows it paid.
  await page.goto(`/track?order=${number}`);
  await islandsHydrated(page);
  await page.getByLabel('Email used at checkout').fill(email);
  await page.getByRole('button', { name: 'Track Order' }).click();
  await expect(page.getByRole('heading', { name: `Order ${number}` })).toBeVisible();
  await expect(page.locator('.track__order')).toContainText('Paid, being packed');
  await expect(page.locator('.track__order')).not.toContainText('Payment due');

  // The admin's order: paid by the provider, no person involved.
  const admin = await otherBrowser(browser, baseURL);
  await signIn(admin, ADMIN.email, ADMIN.password);
  await admin.goto(`/admin?tab=orders&order=${number}`);
  await expect(admin.getByRole('heading', { name: `Order ${number}` })).toBeVisible();
  await expect(admin.locator('.admin-order__status')).toContainText('Paid, being packed');
  await expect(admin.getByRole('region', { name: 'Payment', exact: true })).toContainText('the payment provider (automatic)');
  await expect(admin.getByRole('region', { name: 'Payment', exact: true })).toContainText('₦66,000, ');
  await expect(admin.getByRole('table').filter({ hasText: 'The payment provider' })).toBeVisible();
  await admin.context().close();
});

test('paid after the checkout was closed: /cart shows the order as paid instead of offering its items again', async ({
  page,
}) => {
  const { number } = await orderCharger(page, `paid-later-${Date.now()}@example.com`);
  await checkout(page).getByRole('button', { name: 'Close checkout' }).click();
  await expect(page.locator('[data-cart-note="own-order"]')).toContainText(
    `Your order ${number} for these items is waiting for payment`,
  );

  // The shopper pays from their bank's app later; back on /cart, the lines were that order's.
  expect((await pay(page, number)).webhook).toMatchObject({ outcome: 'paid' });
  await page.reload();
  await islandsHydrated(page);
  const last = page.getByTestId('last-order');
  await expect(last).toContainText(number);
  await expect(last).toContainText('We have your payment: there is nothing more to pay.');
  await expect(last.locator('[data-last="own-account"]')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Proceed to Checkout' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: /^Cart, 0 items$/ })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('cartItems'))).toBe('[]');
});

test('paid while the checkout is open: the cart is empty at once, also for a shopper who leaves without pressing Done', async ({
  page,
}) => {
  const { number } = await orderCharger(page, `paid-open-${Date.now()}@example.com`);
  expect((await pay(page, number)).webhook).toMatchObject({ outcome: 'paid' });
  await expect(checkout(page).getByRole('heading', { name: 'Payment received' })).toBeVisible({ timeout: 15_000 });
  await page.goto('/products');
  await expect(page.getByRole('link', { name: /^Cart, 0 items$/ })).toBeVisible();
  await page.goto('/cart');
  await islandsHydrated(page);
  await expect(page.getByTestId('last-order')).toContainText('We have your payment');
});

test("after I Have Made Payment the success step closes by itself; /cart's notice turns paid when the transfer lands", async ({
  page,
}) => {
  const { number } = await orderCharger(page, `reported-${Date.now()}@example.com`);
  await checkout(page).getByRole('button', { name: 'I Have Made Payment' }).click();
  await expect(checkout(page).getByRole('heading', { name: 'Payment noted' })).toBeVisible();
  // The spec's success step shows for 5 seconds, then the checkout closes; the cart is empty and keeps the order.
  await expect(checkout(page)).toBeHidden({ timeout: 10_000 });
  const last = page.getByTestId('last-order');
  await expect(last.getByRole('heading', { name: `Order ${number} placed` })).toBeVisible();
  await expect(last.locator('[data-last="own-account"]')).toBeVisible();

  // The money lands (the shopper's bank was slow): the notice says so by itself, heading and all.
  expect((await pay(page, number)).webhook).toMatchObject({ outcome: 'paid' });
  await expect(last).toContainText('We have your payment: there is nothing more to pay.', { timeout: 15_000 });
  await expect(last.getByRole('heading', { name: `Order ${number} paid` })).toBeVisible();
  await expect(last.locator('[data-last="own-account"]')).toBeHidden();
});

test('/track turns paid by itself while it is open, after a part payment shows what is still to pay', async ({ page }) => {
  const email = `track-watch-${Date.now()}@example.com`;
  const { number } = await orderCharger(page, email);
  await checkout(page).getByRole('button', { name: 'Close checkout' }).click();

  // The page's clock is the test's: the watch's 45 seconds are moved, not waited.
  await page.clock.install();
  await page.goto(`/track?order=${number}`);
  await islandsHydrated(page);
  await page.getByLabel('Email used at checkout').fill(email);
  await page.getByRole('button', { name: 'Track Order' }).click();
  const found = page.locator('.track__order');
  await expect(found).toContainText('Payment due');

  expect((await pay(page, number, 1_600_000)).webhook).toMatchObject({ outcome: 'part' });
  await page.clock.runFor(46_000);
  await expect(found.locator('[data-field="Received so far"]')).toHaveText('₦16,000');
  await expect(found.locator('[data-field="Still to pay"]')).toHaveText('₦50,000');

  expect((await pay(page, number)).webhook).toMatchObject({ outcome: 'paid' });
  await page.clock.runFor(46_000);
  await expect(found).toContainText('Paid, being packed');
  await expect(found).not.toContainText('Payment due');
});

test('a part that arrives after I Have Made Payment: /cart and /track say what arrived and what is still to pay, not "you told us you paid"', async ({
  page,
}) => {
  const email = `reported-part-${Date.now()}@example.com`;
  const { number } = await orderCharger(page, email);
  await checkout(page).getByRole('button', { name: 'I Have Made Payment' }).click();
  await expect(checkout(page)).toBeHidden({ timeout: 10_000 });
  expect((await pay(page, number, 1_600_000)).webhook).toMatchObject({ outcome: 'part' });

  // /cart's notice asks for what is still to pay, not the whole total again.
  await page.goto('/cart');
  const last = page.getByTestId('last-order');
  await expect(last).toContainText('Still to pay: ₦50,000 (₦16,000 of it has arrived).');
  await expect(last).not.toContainText('Amount: ₦66,000');

  await page.goto(`/track?order=${number}`);
  await islandsHydrated(page);
  await page.getByLabel('Email used at checkout').fill(email);
  await page.getByRole('button', { name: 'Track Order' }).click();
  const found = page.locator('.track__order');
  await expect(found).toContainText('₦16,000 of it has arrived; ₦50,000 is still to pay.');
  await expect(found).not.toContainText('You told us you paid');
  await expect(found.locator('[data-field="Still to pay"]')).toHaveText('₦50,000');
});

test('an order paid while /orders is open settles the cart that placed it: the header stops counting its items', async ({
  page,
  db,
}) => {
  const user = await signedInUser(page, db);
  const { number } = await orderCharger(page, user.email);
  await checkout(page).getByRole('button', { name: 'Close checkout' }).click();
  await page.clock.install();
  await page.goto('/orders');
  await islandsHydrated(page);
  await expect(page.getByRole('link', { name: 'Cart, 1 item' })).toBeVisible();
  const order = page.getByRole('article', { name: `Order ${number}` });
  await expect(order.getByRole('heading', { name: 'Payment due' })).toBeVisible();

  expect((await pay(page, number)).webhook).toMatchObject({ outcome: 'paid' });
  await page.clock.runFor(16_000);
  await expect(order).toContainText('Paid, being packed');
  await expect(page.getByRole('link', { name: 'Cart, 0 items' })).toBeVisible();
  // /cart shows the order it became, not its lines again.
  await page.goto('/cart');
  await expect(page.getByTestId('last-order').getByRole('heading', { name: `Order ${number} paid` })).toBeVisible();
});

test('/orders turns an order paid by itself while it is open', async ({ page, db }) => {
  const user = await signedInUser(page, db);
  const number = await placeOrderAs(page, user, 'anker-735-charger-ganprime-65w');
  await page.clock.install();
  await page.goto('/orders');
  await islandsHydrated(page);
  const order = page.getByRole('article', { name: `Order ${number}` });
  await expect(order.getByRole('heading', { name: 'Payment due' })).toBeVisible();
  await expect(order).toContainText("this order's own account");

  expect((await pay(page, number)).webhook).toMatchObject({ outcome: 'paid' });
  await page.clock.runFor(16_000);
  await expect(order).toContainText('Paid, being packed');
  await expect(order.getByRole('heading', { name: 'Payment due' })).toHaveCount(0);
});

test('the admin attaches a payment no order claims to its order, from the Payments tab and the dashboard', async ({
  page,
  browser,
  baseURL,
}) => {
  const email = `unmatched-${Date.now()}@example.com`;
  const { number } = await orderCharger(page, email);
  // The shopper paid into an account no order has (an old one, a typo): the stand-in reports it.
  const stray = await page.request.post('/api/test/paystack/pay', {
    data: { accountNumber: '9000000077', amountKobo: 6_600_000 },
  });
  expect(((await stray.json()) as { webhook: { outcome: string } }).webhook.outcome).toBe('unmatched');

  const admin = await otherBrowser(browser, baseURL);
  await signIn(admin, ADMIN.email, ADMIN.password);
  await admin.goto('/admin');
  const box = admin.getByRole('region', { name: /^Payments to sort out/ });
  await expect(box).toContainText('no order claims it');
  await box.getByRole('link', { name: 'Sort them out' }).click();
  await expect(admin).toHaveURL(/\/admin\?tab=payments$/);
  const row = admin.getByRole('row').filter({ hasText: 'Account 9000000077' }).first();
  await expect(row).toContainText('₦66,000');
  await expect(row).toContainText('no order has this account or reference');

  await row.getByRole('button', { name: 'Attach to order' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Attach ₦66,000 to an order' });
  await dialog.getByRole('button', { name: 'Attach' }).click();
  await expect(dialog.getByLabel('Order number')).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByLabel('Order number').fill(number);
  await dialog.getByLabel('How you know').fill('The shopper sent the receipt');
  await dialog.getByRole('button', { name: 'Attach' }).click();
  await expect(dialog).toBeHidden();
  await expect(admin.getByRole('row').filter({ hasText: 'Account 9000000077' })).toHaveCount(0);

  // Attached, it paid the order.
  await admin.goto(`/admin?tab=orders&order=${number}`);
  await expect(admin.locator('.admin-order__status')).toContainText('Paid, being packed');
  await admin.context().close();
});

test("the admin cancels a part-paid order: the dialog names what arrived to refund, and the payment box doesn't say none; the refund sent is e-mailed", async ({
  page,
  browser,
  baseURL,
  db,
}) => {
  const user = { email: `part-cancel-${Date.now()}@example.com`, password: '', name: 'Emeka Obi' };
  const number = await placeOrderAs(page, user, 'anker-735-charger-ganprime-65w');
  expect((await pay(page, number, 1_000_000)).webhook).toMatchObject({ outcome: 'part' });

  const admin = await otherBrowser(browser, baseURL);
  await signIn(admin, ADMIN.email, ADMIN.password);
  // The list says what arrived beside the status, so the order does not read as unpaid.
  await admin.goto('/admin?tab=orders');
  await islandsHydrated(admin);
  const row = admin.getByRole('row').filter({ has: admin.getByRole('link', { name: number }) });
  await expect(row).toContainText(/Awaiting payment\s*₦10,000 of ₦[\d,]+ arrived/);
  await row.getByRole('link', { name: number }).click();
  await expect(admin.getByRole('region', { name: 'Payment', exact: true })).toContainText(
    /State\s*Part paid: ₦10,000 of ₦[\d,]+ arrived\s*Received so far\s*₦10,000\s*Still to pay/,
  );
  // Confirming it says what arrived and what is still to pay, and leaves the amount to type.
  await admin.getByRole('button', { name: 'Confirm payment' }).click();
  const confirm = admin.getByRole('dialog', { name: `Confirm payment for ${number}` });
  await expect(confirm).toContainText(
    /₦10,000 of it arrived already and ₦[\d,]+ is still to pay\. Confirm only once the rest has arrived/,
  );
  await expect(confirm.getByLabel('Amount received (₦, naira)')).toHaveValue('');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();

  await admin.getByRole('button', { name: 'Cancel order' }).click();
  const dialog = admin.getByRole('dialog', { name: `Cancel order ${number}?` });
  await expect(dialog).toContainText('₦10,000 of it has arrived: refund that to the shopper (Payments lists it).');
  // Its two buttons: the move, and the one that leaves the order as it is (not a second "Cancel").
  await expect(dialog.getByRole('button')).toHaveText(['Keep the order', 'Cancel the order']);
  await dialog.getByLabel('Reason').fill('The shopper asked to cancel');
  await dialog.getByRole('button', { name: 'Cancel the order' }).click();
  await expect(dialog).toBeHidden();
  const payment = admin.getByRole('region', { name: 'Payment', exact: true });
  await expect(payment).toContainText('Not paid in full: what arrived is listed below.');
  await expect(payment).not.toContainText('No payment recorded');
  await expect(payment).toContainText('₦10,000 to refund');
  // Cancelled, the list still says money arrived (the refund is owed).
  await admin.goto('/admin?tab=orders');
  await expect(row).toContainText(/Cancelled\s*₦10,000 of ₦[\d,]+ arrived/);

  // The admin sends the ₦10,000 back and says so: the shopper is e-mailed, the payment waits no more.
  await admin.goto('/admin?tab=payments');
  await islandsHydrated(admin);
  const owed = admin.getByRole('row').filter({ has: admin.getByRole('link', { name: number }) });
  await owed.getByRole('button', { name: 'Mark dealt with' }).click();
  const resolve = admin.getByRole('dialog', { name: 'Mark the payment of ₦10,000 as dealt with' });
  await expect(resolve.getByLabel('I sent the ₦10,000 back')).toBeChecked();
  await resolve.getByLabel('What you did').fill('Transfer from GTBank, ref 55120');
  await resolve.getByRole('button', { name: 'Mark dealt with' }).click();
  await expect(resolve).toBeHidden();
  await expect(owed).toHaveCount(0);
  const sent = db.query<{ subject: string; text: string }>(
    `select subject, text from email_outbox where kind = 'order_refund_sent' and order_id = (select id from orders where number = '${number}')`,
  );
  expect(sent.map((e) => e.subject)).toEqual([`Your GTS order ${number}: ₦10,000 sent back`]);
  expect(sent[0]!.text).not.toContain('55120');
  await admin.context().close();
});
