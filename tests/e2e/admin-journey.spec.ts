import { readFile } from 'node:fs/promises';
import { deflateSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import { apiPost, newEmail, placeOrderAs, signedInUser, signIn, type TestUser, ADMIN } from './accounts.ts';
import { querySql } from './d1.ts';
import { expect, type TestDb, test } from './fixtures.ts';
import { islandsHydrated } from './islands.ts';
import { otherBrowser, quietServiceWorker } from './contexts.ts';

/**
 * The admin running the store (issue "Admin: run the store"), through the admin screens,
 * with a shopper in another browser context seeing each change: a product added with an
 * uploaded image, repriced, deleted; an order confirmed, shipped and delivered; the
 * newsletter's subscribers exported; two admins confirming one order.
 * Access, axe and the tabs are tests/e2e/admin.spec.ts's.
 */

/** A seeded product with plenty of stock and no variants: ₦189,500, so ₦191,000 delivered. */
const TV = { id: 'hisense-32-a4-hd', name: 'Hisense 32" A4 HD Smart TV' };

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const sqlText = (value: string) => `'${value.replaceAll("'", "''")}'`;

test.beforeEach(async ({ context }) => {
  await quietServiceWorker(context);
});

/** /admin… once its island has hydrated and nothing on it is still loading. */
async function openAdmin(page: Page, path: string) {
  await page.goto(path);
  await islandsHydrated(page);
  await expect(page.locator('.admin-screen, .admin-denied').first()).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0);
}

/** Adds one unit to the cart from the product's page, as a shopper does. */
async function putInCart(page: Page, id: string, name: string) {
  await page.goto(`/product/${id}`);
  await islandsHydrated(page);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByRole('alert').filter({ hasText: `${name} added to cart` })).toBeVisible();
}

const cartLine = (page: Page, name: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('link', { name, exact: true }) });
const checkoutDialog = (page: Page) => page.getByRole('dialog', { name: /Checkout|Pay by bank transfer|Payment noted/ });

/** A product on sale, added as if after the build (the db fixture deletes it after the test). */
function newProduct(db: TestDb, label: string, priceKobo: number) {
  const stamp = unique();
  const product = {
    id: `journey-${label}-${stamp}`,
    name: `Journey ${label} ${stamp}`,
    brand: 'DJI',
    category: 'drones',
    description: 'A small drone for the admin journey tests, with a 4K camera and 30 minutes of flight.',
    priceKobo,
    image: '/images/products/itel-a90.svg',
    stock: 9,
  };
  db.insertProduct(product);
  return product;
}

/** Deletes a product the admin added in a test (what the db fixture does for its own inserts). */
function removeProduct(db: TestDb, id: string) {
  db.query(`delete from product_variants where product_id = ${sqlText(id)}`);
  db.query(`delete from products where id = ${sqlText(id)}`);
}

// ── A real PNG, different every time (so the page can only show this upload) ─────────────────

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A `size`×`size` PNG of one random colour. */
function randomPng(size = 24): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, RGB, deflate, no filter, no interlace
  const [r, g, b] = [0, 0, 0].map(() => Math.floor(Math.random() * 256));
  const row = Buffer.from([0, ...Array.from({ length: size }, () => [r!, g!, b!]).flat()]);
  const pixels = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(pixels)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

// ── The catalogue ───────────────────────────────────────────────────────────────────────────────

test('the admin adds a product with an uploaded image, and a shopper finds it and its page at once', async ({
  page,
  db,
  browser,
  baseURL,
}) => {
  const name = `Skyline Drone ${unique()}`;
  const png = randomPng();
  await signIn(page, ADMIN.email, ADMIN.password);
  await openAdmin(page, '/admin?tab=products');
  await page.getByRole('link', { name: 'Add product' }).click();
  await expect(page).toHaveURL(/\/admin\?tab=products&edit=new$/);
  await expect(page.getByRole('heading', { name: 'Add a product' })).toBeVisible();

  let id: string | undefined;
  try {
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel('Category').selectOption({ label: 'Drones' });
    await page.getByLabel('Brand').selectOption('DJI');
    await page.getByLabel('Description').fill('A folding camera drone with 4K video, 34 minutes of flight and obstacle sensing.');
    await page.getByLabel('Price (₦, naira)').fill('845,000');
    await page.getByLabel('Stock (units)').fill('6');
    await page
      .getByRole('button', { name: 'Upload Image URL', exact: true })
      .setInputFiles({ name: 'drone.png', mimeType: 'image/png', buffer: png });
    await expect(page.getByRole('alert').filter({ hasText: 'Image uploaded' })).toBeVisible();
    const imageField = page.getByLabel('Image URL', { exact: true });
    await expect(imageField).toHaveValue(/^\/images\/uploads\/[^/]+\.png$/);
    const image = await imageField.inputValue();
    await expect(page.getByRole('img', { name: 'Preview: Image URL' })).toHaveAttribute('src', image);

    await page.getByRole('button', { name: 'Add product', exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: `${name} added` })).toBeVisible();
    await expect(page).toHaveURL(/\/admin\?tab=products$/);
    // Its id is made from the name.
    id = db.query<{ id: string }>(`select id from products where name = ${sqlText(name)}`)[0]?.id;
    expect(id).toBe(name.toLowerCase().replaceAll(' ', '-'));
    expect(db.query(`select price_kobo, stock, image, category, brand from products where id = ${sqlText(id!)}`)).toEqual([
      { price_kobo: 84_500_000, stock: 6, image, category: 'drones', brand: 'DJI' },
    ]);

    // The shopper, in another browser, not signed in: the Worker's listing finds it by name…
    const shopper = await otherBrowser(browser, baseURL);
    await shopper.goto(`/products?q=${encodeURIComponent(name)}`);
    await islandsHydrated(shopper);
    const card = shopper.locator(`[data-product-id="${id}"]`);
    await expect(card).toBeVisible();
    await expect(card).toContainText(name);
    await expect(card).toContainText('₦845,000');
    await expect(card.locator('img')).toHaveAttribute('src', image);

    // …and its own page, rendered on demand (it was not there at build time), with the upload.
    await card.getByRole('link', { name }).first().click();
    await expect(shopper).toHaveURL(new RegExp(`/product/${id}$`));
    await expect(shopper.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(shopper.getByTestId('product-price')).toHaveText('₦845,000');
    const picture = shopper.getByRole('img', { name, exact: true }).first();
    await expect(picture).toHaveAttribute('src', image);
    await expect
      .poll(() => picture.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)))
      .toBe(png.readUInt32BE(16));
    // The Worker serves the very bytes the admin uploaded.
    const served = await shopper.request.get(image);
    expect(served.status()).toBe(200);
    expect(served.headers()['content-type']).toBe('image/png');
    expect(Buffer.compare(await served.body(), png)).toBe(0);
    // …and /brands, rendered from D1, lists its brand with its category (the build had no DJI).
    await shopper.goto('/brands');
    const brand = shopper.getByRole('link', { name: /^DJI \d+ products?\b.*\bDrones\b/ });
    await expect(brand).toHaveAttribute('href', '/products?brand=DJI');
    await shopper.context().close();
  } finally {
    if (id) removeProduct(db, id);
  }
});

test("the admin's new price reaches a cart that already holds the product, and its checkout total", async ({
  page,
  db,
  browser,
  baseURL,
}) => {
  const product = newProduct(db, 'reprice', 61_000_000);
  const shopper = await otherBrowser(browser, baseURL);
  await putInCart(shopper, product.id, product.name);

  await signIn(page, ADMIN.email, ADMIN.password);
  await openAdmin(page, `/admin?tab=products&q=${encodeURIComponent(product.name)}`);
  await expect(page.getByRole('rowheader', { name: product.name })).toContainText(product.name);
  await page.getByRole('link', { name: `Edit ${product.name}` }).click();
  await expect(page).toHaveURL(new RegExp(`edit=${product.id}`));
  await expect(page.getByRole('heading', { name: `Edit ${product.name}` })).toBeVisible();
  const price = page.getByLabel('Price (₦, naira)');
  await expect(price).toHaveValue('610000');
  await price.fill('575000');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('alert').filter({ hasText: `${product.name} saved` })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: product.name })).toContainText('₦575,000');
  expect(db.query(`select price_kobo from products where id = ${sqlText(product.id)}`)).toEqual([{ price_kobo: 57_500_000 }]);
  // The product's audit trail writes the prices as every amount is written.
  await page.getByRole('link', { name: `Edit ${product.name}` }).click();
  await expect(page.getByRole('region', { name: 'Audit trail' })).toContainText('priceNaira: ₦610,000 → ₦575,000');

  // The shopper's cart, filled at the old price, checks it and takes the new one.
  await shopper.goto('/cart');
  await islandsHydrated(shopper);
  const line = cartLine(shopper, product.name);
  await expect(line).toContainText('Price changed: was ₦610,000, now ₦575,000');
  await expect(line).toContainText('₦575,000 each');
  const summary = shopper.getByRole('complementary', { name: 'Order summary' });
  await expect(summary).toContainText('Subtotal₦575,000');
  await expect(summary).toContainText('Total₦576,500');
  await summary.getByRole('button', { name: 'Proceed to Checkout' }).click();
  const dialog = checkoutDialog(shopper);
  await expect(dialog.getByRole('heading', { name: 'Checkout' })).toBeVisible();
  const dialogSummary = dialog.getByRole('region', { name: 'Order summary' });
  await expect(dialogSummary).toContainText('₦575,000');
  await expect(dialogSummary).toContainText('Total₦576,500');
  await expect(dialogSummary).not.toContainText('₦610,000');
  await shopper.context().close();
});

test('the admin deletes a product: it leaves the listing, its page, and the cart that held it', async ({
  page,
  db,
  browser,
  baseURL,
}) => {
  const product = newProduct(db, 'remove', 23_000_000);
  const shopper = await otherBrowser(browser, baseURL);
  await putInCart(shopper, product.id, product.name);
  // A product nobody has rated says so, not "★ 0.0 (0)": on its page and on its card.
  await expect(shopper.locator('.detail__info .rating')).toHaveText('No reviews yet');
  await shopper.goto(`/products?q=${encodeURIComponent(product.name)}`);
  await expect(shopper.locator(`[data-product-id="${product.id}"]`)).toBeVisible();
  await expect(shopper.locator(`[data-product-id="${product.id}"] .rating`)).toHaveText('No reviews yet');

  await signIn(page, ADMIN.email, ADMIN.password);
  await openAdmin(page, `/admin?tab=products&q=${encodeURIComponent(product.name)}`);
  await page.getByRole('button', { name: `Delete ${product.name}` }).click();
  const confirm = page.getByRole('dialog', { name: `Delete ${product.name}?` });
  await expect(confirm).toContainText('No order or trade-in names it, so it will be deleted for good.');
  await confirm.getByRole('button', { name: 'Delete it' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole('alert').filter({ hasText: `${product.name} deleted` })).toBeVisible();
  await expect(page.getByText('No products match.')).toBeVisible();
  expect(db.query(`select id from products where id = ${sqlText(product.id)}`)).toEqual([]);

  await shopper.goto(`/products?q=${encodeURIComponent(product.name)}`);
  await islandsHydrated(shopper);
  await expect(shopper.getByRole('heading', { name: 'No products found' })).toBeVisible();
  await expect(shopper.locator(`[data-product-id="${product.id}"]`)).toHaveCount(0);

  const answer = await shopper.goto(`/product/${product.id}`);
  expect(answer?.status()).toBe(404);
  await expect(shopper.getByRole('heading', { level: 1, name: 'Product not found' })).toBeVisible();

  await shopper.goto('/cart');
  await islandsHydrated(shopper);
  await expect(cartLine(shopper, product.name)).toContainText('No longer available. Remove it to check out.');
  await expect(shopper.getByRole('button', { name: 'Proceed to Checkout' })).toBeDisabled();
  // What can no longer be bought is not in the totals.
  await expect(shopper.locator('[data-cart-subtotal]')).toHaveText('₦0');
  await shopper.context().close();
});

// ── Orders ─────────────────────────────────────────────────────────────────────────────────────

/** The shopper's order on /track, found by number and e-mail. */
async function trackedOrder(page: Page, number: string, email: string) {
  await page.goto(`/track?order=${number}`);
  await islandsHydrated(page);
  await expect(page.getByLabel('Order number')).toHaveValue(number);
  await page.getByLabel('Email used at checkout').fill(email);
  await page.getByRole('button', { name: 'Track Order' }).click();
  const result = page.getByRole('region', { name: `Order ${number}` });
  await expect(result).toBeVisible();
  return result;
}

/** The order's card on the signed-in shopper's /orders. */
async function ordersCard(page: Page, number: string) {
  await page.goto('/orders');
  await islandsHydrated(page);
  const card = page.getByRole('article', { name: `Order ${number}` });
  await expect(card).toBeVisible();
  return card;
}

test('a reported transfer: the admin confirms it from the dashboard, and the shopper sees it paid', async ({
  page,
  db,
  browser,
  baseURL,
}) => {
  const user = await signedInUser(page, db);
  await putInCart(page, TV.id, TV.name);
  await page.goto('/cart');
  await islandsHydrated(page);
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  const dialog = checkoutDialog(page);
  // Signed in: the form fills itself from the profile; the rest is typed.
  await expect(dialog.getByLabel('Email')).toHaveValue(user.email);
  await dialog.getByLabel('Full name').fill(user.name);
  await dialog.getByLabel('Phone number').fill('0803 123 4567');
  await dialog.getByLabel('Delivery address').fill('12 Allen Avenue');
  await dialog.getByLabel('City').fill('Ikeja');
  await dialog.getByLabel('State').selectOption('Lagos');
  await dialog.getByRole('button', { name: 'Place Order' }).click();
  await expect(dialog.getByRole('heading', { name: 'Pay by bank transfer' })).toBeVisible();
  const number = (await dialog.locator('[data-field="Reference"]').textContent())!;
  expect(number).toMatch(/^GTS-[0-9A-Z]{10}$/);
  await expect(dialog.locator('[data-field="Amount"]')).toHaveText('₦191,000');
  await dialog.getByRole('button', { name: 'I Have Made Payment' }).click();
  await expect(dialog.getByRole('heading', { name: 'Payment noted' })).toBeVisible();

  // The admin, in another browser: the dashboard lists the report; Confirm leads to the order.
  const admin = await otherBrowser(browser, baseURL);
  await signIn(admin, ADMIN.email, ADMIN.password);
  await openAdmin(admin, '/admin');
  const reported = admin.getByRole('region', { name: /^Payments reported/ });
  const item = reported.getByRole('listitem').filter({ has: admin.getByRole('link', { name: number }) });
  await expect(item).toContainText(`${number} · ${user.name} · ₦191,000`);
  await item.getByRole('button', { name: `Confirm payment for ${number}` }).click();
  await expect(admin).toHaveURL(new RegExp(`tab=orders&order=${number}$`));
  await expect(admin.getByRole('heading', { name: `Order ${number}` })).toBeVisible();
  await expect(admin.locator('.admin-order__status')).toContainText('Payment reported, waiting for us to confirm the transfer');
  await expect(admin.getByRole('region', { name: 'Payment', exact: true })).toContainText(
    'The shopper reported the transfer; not confirmed yet',
  );
  // The admin reads how it travels in the store's words, not the shopper's ("to your address").
  await expect(admin.getByText("Delivery to the shopper's address")).toBeVisible();

  await admin.getByRole('button', { name: 'Confirm payment' }).click();
  const confirm = admin.getByRole('dialog', { name: `Confirm payment for ${number}` });
  await expect(confirm).toContainText("The order's total is ₦191,000");
  await expect(confirm.getByLabel('Amount received (₦, naira)')).toHaveValue('191000');
  // A slip of the keyboard: more than the total is said before it becomes a refund to send.
  const overTotal = confirm.locator('#confirm-over-total');
  await expect(overTotal).toHaveText('');
  await confirm.getByLabel('Amount received (₦, naira)').fill('196,000');
  await expect(overTotal).toHaveText(
    'That is ₦5,000 more than the total. Check the statement: what arrived over the total is owed back to the shopper, and Payments will list it.',
  );
  await confirm.getByLabel('Amount received (₦, naira)').fill('₦191,000');
  await expect(overTotal).toHaveText('');
  await confirm.getByLabel('Bank reference').fill('NIP-JOURNEY-0001');
  await confirm.getByRole('button', { name: 'Confirm payment' }).click();
  await expect(confirm).toBeHidden();
  await expect(admin.getByRole('alert').filter({ hasText: `Payment for ${number} confirmed` })).toBeVisible();
  await expect(admin.locator('.admin-order__status')).toContainText('Paid, being packed');
  const payment = admin.getByRole('region', { name: 'Payment', exact: true });
  await expect(payment).toContainText('Received₦191,000');
  await expect(payment).toContainText('Bank referenceNIP-JOURNEY-0001');
  await expect(payment).toContainText(`Confirmed by${ADMIN.email}`);
  // The dashboard no longer asks for it.
  await openAdmin(admin, '/admin');
  await expect(admin.getByRole('region', { name: /^Payments reported/ }).getByRole('link', { name: number })).toHaveCount(0);
  // The order has its own account (the servers run the payments stand-in): the admin's confirmation
  // records no payment of its own, since the provider reports that money (tests/api/payments.test.ts
  // covers the shared account's, which is recorded).
  await openAdmin(admin, '/admin?tab=payments&view=all');
  await expect(
    admin.getByRole('table', { name: 'All payments' }).or(admin.getByText('No payment is recorded yet.')),
  ).toBeVisible();
  await expect(admin.getByRole('main').getByRole('link', { name: number })).toHaveCount(0);
  await admin.context().close();

  // The shopper: /orders and /track say it is paid.
  const card = await ordersCard(page, number);
  await expect(card).toContainText('Paid, being packed');
  const tracked = await trackedOrder(page, number, user.email);
  await expect(tracked).toContainText('Paid, being packed');
  await expect(tracked.getByText('Payment due')).toHaveCount(0);
});

test('the admin ships a paid order with a tracking note and marks it delivered; /track and /orders follow', async ({
  page,
  db,
  browser,
  baseURL,
}) => {
  // Set-up (the previous test covers these steps through the screens): an order placed and paid.
  const user = await signedInUser(page, db);
  const number = await placeOrderAs(page, user, TV.id);
  const admin = await otherBrowser(browser, baseURL);
  await signIn(admin, ADMIN.email, ADMIN.password);
  const detail = await admin.request.get(`/api/admin/orders/${number}`);
  expect(detail.status()).toBe(200);
  const { version } = (await detail.json()) as { version: string };
  const paid = await apiPost(admin, `/api/admin/orders/${number}/confirm-payment`, {
    version,
    amountReceivedNaira: 191_000,
    bankReference: 'NIP-JOURNEY-0002',
  });
  expect(paid.status(), await paid.text()).toBe(200);

  const note = `Rider Musa, 0803 555 ${Math.floor(1000 + Math.random() * 9000)}`;
  await openAdmin(admin, `/admin?tab=orders&order=${number}`);
  await expect(admin.locator('.admin-order__status')).toContainText('Paid, being packed');
  await expect(admin.getByRole('region', { name: 'Shipment', exact: true })).toContainText('Not shipped yet.');
  await admin.getByRole('button', { name: 'Mark shipped' }).click();
  const ship = admin.getByRole('dialog', { name: `Mark ${number} as shipped` });
  await ship.getByLabel('Carrier (optional)').fill('GIG Logistics');
  await ship.getByLabel('Tracking note (optional)').fill(note);
  await ship.getByRole('button', { name: 'Mark shipped' }).click();
  await expect(ship).toBeHidden();
  await expect(admin.locator('.admin-order__status')).toContainText('Shipped');
  const shipment = admin.getByRole('region', { name: 'Shipment', exact: true });
  await expect(shipment).toContainText('CarrierGIG Logistics');
  await expect(shipment).toContainText(`Tracking note${note}`);

  const tracked = await trackedOrder(page, number, user.email);
  const badge = tracked.locator('[data-tone]');
  await expect(badge).toHaveText('Shipped');
  await expect(badge).toHaveAttribute('data-tone', 'blue');
  await expect(tracked).toContainText('Carrier: GIG Logistics');
  await expect(tracked).toContainText(`Tracking: ${note}`);

  await admin.getByRole('button', { name: 'Mark delivered' }).click();
  const deliver = admin.getByRole('dialog', { name: `Mark ${number} as delivered?` });
  await deliver.getByRole('button', { name: 'Mark delivered' }).click();
  await expect(deliver).toBeHidden();
  await expect(admin.locator('.admin-order__status')).toContainText('Delivered');
  await expect(admin.getByText('No further moves: the order is delivered.')).toBeVisible();
  await admin.context().close();

  await page.getByRole('button', { name: 'Track Order' }).click();
  await expect(badge).toHaveText('Delivered');
  await expect(badge).toHaveAttribute('data-tone', 'green');
  await expect(tracked).toContainText(`Tracking: ${note}`);
  const card = await ordersCard(page, number);
  await expect(card.locator('[data-tone]')).toHaveText('Delivered');
});

test("two admins on one order: the second's confirmation gets the server's conflict and the order reloads as paid", async ({
  page,
  db,
  browser,
  baseURL,
}) => {
  const shopper = await otherBrowser(browser, baseURL);
  const customer: TestUser = { email: newEmail('conflict'), password: '', name: 'Chidi Eze' };
  const number = await placeOrderAs(shopper, customer, TV.id);
  await shopper.context().close();

  await signIn(page, ADMIN.email, ADMIN.password);
  const second = await page.context().newPage();
  for (const tab of [page, second]) {
    await openAdmin(tab, `/admin?tab=orders&order=${number}`);
    await expect(tab.locator('.admin-order__status')).toContainText('Awaiting payment');
  }

  await page.getByRole('button', { name: 'Confirm payment' }).click();
  const first = page.getByRole('dialog', { name: `Confirm payment for ${number}` });
  await first.getByLabel('Bank reference').fill('NIP-FIRST-0001');
  await first.getByRole('button', { name: 'Confirm payment' }).click();
  await expect(page.locator('.admin-order__status')).toContainText('Paid, being packed');

  // The second page still shows the order as it was, and tries the same.
  await expect(second.locator('.admin-order__status')).toContainText('Awaiting payment');
  await second.getByRole('button', { name: 'Confirm payment' }).click();
  const late = second.getByRole('dialog', { name: `Confirm payment for ${number}` });
  await late.getByLabel('Bank reference').fill('NIP-SECOND-0002');
  const refused = second.waitForResponse((r) => r.url().endsWith(`/api/admin/orders/${number}/confirm-payment`));
  await late.getByRole('button', { name: 'Confirm payment' }).click();
  expect((await refused).status()).toBe(409);
  await expect(
    second.getByRole('alert').filter({
      hasText: 'The order changed since you loaded it (another admin or the shopper moved it). Reload it and try again.',
    }),
  ).toBeVisible();
  await expect(late).toBeHidden();
  await expect(second.locator('.admin-order__status')).toContainText('Paid, being packed');
  await expect(second.getByRole('region', { name: 'Payment', exact: true })).toContainText('Bank referenceNIP-FIRST-0001');
  await expect(second.getByRole('button', { name: 'Confirm payment' })).toHaveCount(0);
  await expect(second.getByRole('button', { name: 'Mark shipped' })).toBeVisible();

  // One confirmation only: the first.
  expect(db.query(`select status, payment_reference from orders where number = ${sqlText(number)}`)).toEqual([
    { status: 'paid', payment_reference: 'NIP-FIRST-0001' },
  ]);
  expect(
    db.query(
      `select count(*) as n from order_events e join orders o on o.id = e.order_id
        where o.number = ${sqlText(number)} and e.to_status = 'paid'`,
    ),
  ).toEqual([{ n: 1 }]);
});

// ── Subscribers ──────────────────────────────────────────────────────────────────────────────

test('a transfer found on the statement after the order expired: the admin confirms it late, and the order is paid again', async ({
  page,
  db,
  browser,
  baseURL,
}) => {
  const shopper = await otherBrowser(browser, baseURL);
  const customer: TestUser = { email: newEmail('late'), password: '', name: 'Bola Ade' };
  const number = await placeOrderAs(shopper, customer, TV.id);
  await shopper.context().close();
  const stock = db.stockOf(TV.id);
  // The hold ran out: the admin's look at the order expires it, and its unit goes back on sale.
  db.query(`update orders set expires_at = unixepoch() - 60 where number = '${number}'`);

  await signIn(page, ADMIN.email, ADMIN.password);
  await openAdmin(page, `/admin?tab=orders&order=${number}`);
  await expect(page.locator('.admin-order__status')).toContainText('Expired');
  expect(db.stockOf(TV.id)).toBe(stock + 1);
  await expect(page.getByRole('button', { name: 'Confirm payment', exact: true })).toHaveCount(0);
  await page.getByRole('button', { name: 'Confirm late payment' }).click();
  const confirm = page.getByRole('dialog', { name: `Confirm late payment for ${number}` });
  await expect(confirm).toContainText('The order expired and its items went back on sale.');
  await confirm.getByLabel('Bank reference').fill('NIP-LATE-0001');
  await confirm.getByRole('button', { name: 'Confirm payment' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.locator('.admin-order__status')).toContainText('Paid, being packed');
  expect(db.stockOf(TV.id)).toBe(stock);
});

test('a shopper subscribes in the footer; the admin finds the address and exports it in the CSV', async ({
  page,
  browser,
  baseURL,
}) => {
  const email = newEmail('newsletter');
  const shopper = await otherBrowser(browser, baseURL);
  await shopper.goto('/');
  const form = shopper.locator('form[data-newsletter]');
  await form.getByLabel('Get deals and new arrivals by e-mail').fill(email);
  await form.getByRole('button', { name: 'Subscribe' }).click();
  await expect(form.getByRole('status')).toHaveText('Check your inbox to confirm your subscription.');
  // The e-mailed link's page: only a confirmed address is exported.
  const [mail] = querySql<{ text: string }>(
    `select text from email_outbox where recipient = '${email}' and kind = 'newsletter_confirm'`,
  );
  const confirm = new URL(/https?:\/\/\S+\/newsletter\/confirm\?token=\S+/.exec(mail!.text)![0]);
  await shopper.goto(`${confirm.pathname}${confirm.search}`);
  await shopper.getByRole('button', { name: 'Confirm my subscription' }).click();
  await expect(shopper.getByRole('heading', { name: 'You are subscribed' })).toBeVisible();
  await shopper.context().close();

  await signIn(page, ADMIN.email, ADMIN.password);
  await openAdmin(page, '/admin?tab=subscribers');
  await page.getByLabel('Search subscribers').fill(email);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`tab=subscribers&q=${encodeURIComponent(email).replaceAll('.', '\\.')}`));
  await expect(page.getByRole('rowheader', { name: email, exact: true })).toBeVisible();
  await expect(page.getByText('1 subscriber.', { exact: true })).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/subscribers.*\.csv$/);
  const csv = await readFile((await file.path())!, 'utf8');
  const rows = csv.split('\r\n');
  expect(rows[0]).toBe('email,subscribed_at,unsubscribe_url');
  const row = rows.find((r) => r.startsWith(`${email},`));
  expect(row, `${email} in the export`).toMatch(
    /,\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z,https?:\/\/\S+\/newsletter\/unsubscribe\?token=\S+$/,
  );

  // The export is personal data leaving the store: the audit log says who took it, with how many people.
  await page.getByRole('link', { name: 'Audit log' }).click();
  await page.getByLabel('Show').selectOption('subscriber');
  await expect(page).toHaveURL(/tab=audit&kind=subscriber/);
  const exportRow = page.getByRole('table', { name: "Admins' changes" }).getByRole('row').nth(1);
  await expect(exportRow).toContainText(ADMIN.email);
  await expect(exportRow).toContainText(/Subscriber list subscribers-\d{4}-\d{2}-\d{2}\.csv/);
  const people = rows.slice(1).filter(Boolean).length;
  await expect(exportRow).toContainText(`people: — → ${people}`);
});
