import { WORKING_DEVICE } from '../fixtures/trade-in.ts';
import { request as httpRequest } from 'node:http';
import { deflateSync } from 'node:zlib';
import { UPLOAD_BUDGET_BYTES } from '../../functions/platform/upload-budget.ts';
import { MAX_SUBMISSION_BYTES } from '../../functions/trade-ins/photos.ts';
import type { Browser, Page } from '@playwright/test';
import { ADMIN, apiPost, signIn, signedInUser } from './accounts.ts';
import { otherBrowser, quietServiceWorker } from './contexts.ts';
import { axeViolations, expect, test } from './fixtures.ts';
import { islandsHydrated } from './islands.ts';

/**
 * Sell or swap (issue 14), as its people use it: a guest sends a swap request with a photo and
 * gets a reference; the admin finds it in the queue with the photo and makes an offer, seeing
 * the difference the shopper would pay; the shopper accepts it on the status page; the admin
 * completes it. And the form has no axe violations in either theme or on a phone.
 * The rules (every field, photo refusals, who may answer, the swap's order) are tests/api/trade-ins.test.ts's.
 */

/** Seeded: the PlayStation 5 Slim's Disc Edition costs ₦849,000. */
const PS5 = { name: 'Sony PlayStation 5 Slim', variant: 'disc-edition', price: '₦849,000' };

/** A 64×48 PNG of one colour: a real photo file for the file input, made here rather than kept in the repository. */
function photoPng(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), body.length + 4);
    return out;
  };
  const [width, height] = [64, 48];
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, Buffer.from([0x2a, 0x6f, 0xdb]))]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

test.beforeEach(async ({ context }) => {
  await quietServiceWorker(context);
});

async function adminBrowser(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const page = await otherBrowser(browser, baseURL);
  await signIn(page, ADMIN.email, ADMIN.password);
  return page;
}

/**
 * A request sent through the API as the form would (a working device, no photos), and the
 * admin's offer for it: the reference, for the shopper's status page.
 */
async function offeredTradeIn(
  page: Page,
  browser: Browser,
  baseURL: string | undefined,
  request: {
    device: Record<string, string>;
    want: Record<string, string>;
    contact: { name: string; email: string; phone: string; state: string };
    offerNaira: number;
  },
): Promise<string> {
  const { offerNaira, ...fields } = request;
  const sent = await apiPost(page, '/api/trade-ins', {
    ...fields,
    condition: { ...WORKING_DEVICE, notes: '' },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  const { reference } = ((await sent.json()) as { tradeIn: { reference: string } }).tradeIn;
  const admin = await adminBrowser(browser, baseURL);
  const { version } = (await (await admin.request.get(`/api/admin/trade-ins/${reference}`)).json()) as { version: number };
  const offered = await apiPost(admin, `/api/admin/trade-ins/${reference}/move`, { version, move: 'offer', offerNaira });
  expect(offered.status(), await offered.text()).toBe(200);
  await admin.context().close();
  return reference;
}

async function openTradeInForm(page: Page) {
  await page.goto('/sell-or-swap');
  await islandsHydrated(page);
  await expect(page.getByRole('button', { name: 'Send my request' })).toBeEnabled();
}

/** Fills the form for a swap of an iPhone 12 for the PS5's Disc Edition, with one photo. */
async function fillSwapRequest(page: Page, email: string) {
  const form = page.getByRole('form', { name: 'Your trade-in request' });
  await form.getByLabel('Type of device').selectOption('phones');
  await form.getByLabel('Brand').selectOption('Apple');
  await form.getByLabel('Model').fill('iPhone 12 Pro');
  await form.getByLabel('Storage (if it has any)').fill('256GB');
  const answers: [string, 'Yes' | 'No'][] = [
    ['Does it turn on and work?', 'Yes'],
    ['Is the screen cracked?', 'No'],
    ['Does the body have dents or deep scratches?', 'No'],
    ['Have you signed out of every account on it (iCloud, Google, PlayStation, Xbox)?', 'Yes'],
    ['Do you have the original box?', 'Yes'],
  ];
  for (const [question, answer] of answers) {
    await form.getByRole('group', { name: question }).getByRole('radio', { name: answer, exact: true }).check();
  }
  await form.getByRole('radio', { name: '80% or more' }).check();
  await form.getByLabel('Add photos').setInputFiles({ name: 'front.png', mimeType: 'image/png', buffer: photoPng() });
  await expect(form.getByRole('list', { name: 'Your photos' }).getByRole('listitem')).toHaveCount(1);
  await form.getByRole('radio', { name: /^A swap/ }).check();
  await form.getByLabel('Search for the product you want').fill('PlayStation 5');
  await form.getByRole('button', { name: 'Search', exact: true }).click();
  await form
    .getByRole('list', { name: 'Matching products' })
    .getByRole('button', { name: `Choose ${PS5.name}`, exact: true })
    .click();
  await form.getByRole('combobox', { name: 'Edition' }).selectOption(PS5.variant);
  await expect(form.getByTestId('swap-price')).toContainText(PS5.price);
  await form.getByLabel('Full name').fill('Chidi Okeke');
  await form.getByLabel('Phone number').fill('0802 555 0199');
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('State').selectOption('Lagos');
}

test('an e-mail a letter off a common mailbox is offered corrected, in one tap: the offer is e-mailed there', async ({
  page,
}) => {
  await openTradeInForm(page);
  const form = page.getByRole('form', { name: 'Your trade-in request' });
  const offer = form.getByRole('status').filter({ hasText: 'Did you mean' });
  await form.getByLabel('Email').fill('chidi@hotmial.com');
  await expect(offer).toHaveText('Did you mean chidi@hotmail.com?');
  await offer.getByRole('button', { name: 'chidi@hotmail.com' }).click();
  await expect(form.getByLabel('Email')).toHaveValue('chidi@hotmail.com');
  await expect(form.getByLabel('Email')).toBeFocused();
  await expect(offer).toHaveCount(0);
});

test('a guest swaps a phone: request with a photo, the admin’s offer, accepted on the status page, ordered, paid, completed', async ({
  page,
  browser,
  baseURL,
  db,
}) => {
  // The whole life of a swap across two browsers (request, offer, answer, order, payment, completion).
  test.slow();
  const email = `swap-${Date.now().toString(36)}@example.com`;
  await openTradeInForm(page);
  await fillSwapRequest(page, email);
  await page.getByRole('button', { name: 'Send my request' }).click();
  await expect(page.getByRole('heading', { name: 'Request received' })).toBeInViewport();
  await expect(page.getByTestId('trade-in-reference')).toBeInViewport();
  const reference = (await page.getByTestId('trade-in-reference').textContent())?.trim() ?? '';
  expect(reference).toMatch(/^TRD-[0-9A-Z]{10}$/);
  // What the Worker stored: the request, its photo (shrunk in the browser to a JPEG) and the e-mail.
  const [stored] = db.query<{ status: string; want_kind: string; photos: number; type: string }>(
    `select t.status, t.want_kind, count(p.key) photos, min(p.content_type) type
       from trade_ins t left join trade_in_photos p on p.trade_in_id = t.id where t.reference = '${reference}' group by t.id`,
  );
  expect(stored).toEqual({ status: 'new', want_kind: 'swap', photos: 1, type: expect.stringMatching(/^image\/(jpeg|png)$/) });
  expect(db.query(`select kind from email_outbox where recipient = '${email}'`)).toEqual([{ kind: 'trade_in_received' }]);

  // The admin finds it in the queue, sees the photo, and offers ₦300,000.
  const admin = await adminBrowser(browser, baseURL);
  await admin.goto('/admin?tab=trade-ins');
  await islandsHydrated(admin);
  await admin.getByRole('link', { name: reference }).click();
  await expect(admin.getByRole('heading', { name: `Trade-in ${reference}` })).toBeVisible();
  const photo = admin.getByRole('link', { name: /1 of 1 \(opens in a new tab\)/ });
  await expect(photo.locator('img')).toHaveJSProperty('complete', true);
  expect(await photo.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await admin.getByRole('button', { name: 'Make offer' }).click();
  const offer = admin.getByRole('dialog', { name: `Make an offer for ${reference}` });
  await expect(offer.getByText(`The product's price now: ${PS5.price}`)).toBeVisible();
  await offer.getByLabel('Offer (₦, naira)').fill('300000');
  await expect(offer.locator('#trade-in-difference')).toHaveText('Difference to pay: ₦549,000');
  await offer.getByLabel('Note to the shopper (optional)').fill('Clean phone, battery healthy');
  await offer.getByRole('button', { name: 'Send offer' }).click();
  await expect(offer).toBeHidden();
  await expect(admin.locator('#admin-trade-in-status')).toContainText('Offer made');

  // The shopper looks it up with the reference from the link and their e-mail, and accepts.
  await page.getByRole('link', { name: 'Check your request’s status' }).click();
  await islandsHydrated(page);
  await expect(page.getByLabel('Trade-in reference')).toHaveValue(reference);
  await page.getByLabel('Email used on the request').fill(email);
  await page.getByRole('button', { name: 'Find my request' }).click();
  const card = page.getByRole('article', { name: `Trade-in ${reference}` });
  await expect(card.getByTestId('trade-in-offer')).toContainText('₦300,000');
  await expect(card).toContainText('“Clean phone, battery healthy”');
  await expect(card.getByTestId('trade-in-difference')).toContainText('₦549,000');
  await card.getByRole('button', { name: 'Accept the offer' }).click();
  await expect(card.getByRole('button', { name: 'Accept the offer' })).toHaveCount(0);
  await expect(card).toContainText(/accepted/i);

  // The admin sees the acceptance; the swap is completed only once its order is paid, and the screen says so.
  await admin.reload();
  await islandsHydrated(admin);
  await expect(admin.locator('#admin-trade-in-status')).toContainText('Accepted');
  await expect(admin.getByText('The shopper has not ordered this swap yet: complete it once its order is paid.')).toBeVisible();
  await expect(admin.getByRole('button', { name: 'Mark completed' })).toHaveCount(0);

  // The shopper orders the swap from the card (pick-up: the device is checked at the counter).
  await card.getByText('Pick-up at our Ikeja store').click();
  await card.getByRole('button', { name: 'Place the swap order' }).click();
  const placed = card.getByRole('heading', { name: /^Your swap order GTS-/ });
  await expect(placed).toBeVisible();
  const number = ((await placed.textContent()) ?? '').replace('Your swap order ', '').trim();
  // Part of the transfer lands in the order's own account: the card shows it by itself, and what is still to pay.
  const part = await page.request.post('/api/test/paystack/pay', { data: { orderNumber: number, amountKobo: 10_000_000 } });
  expect(part.status(), await part.text()).toBe(200);
  await expect(card.locator('[data-field="Received so far"]')).toHaveText('₦100,000', { timeout: 15_000 });
  await expect(card.getByRole('status').filter({ hasText: `Order ${number} is placed` })).toContainText('₦449,000');
  await admin.reload();
  await islandsHydrated(admin);
  await expect(admin.getByText(`The swap's order ${number} is still open and holds the credit`)).toBeVisible();
  await expect(admin.getByText(`The swap's order ${number} is not paid yet`)).toBeVisible();
  await expect(admin.getByRole('button', { name: 'Close request' })).toHaveCount(0);

  // Paid (the admin found the transfer on the statement): the admin completes the trade-in.
  const order = await admin.request.get(`/api/admin/orders/${number}`);
  const { version, order: view } = (await order.json()) as { version: string; order: { total: number } };
  const paid = await apiPost(admin, `/api/admin/orders/${number}/confirm-payment`, {
    version,
    amountReceivedNaira: view.total / 100,
    bankReference: 'NIP-SWAP-0001',
  });
  expect(paid.status(), await paid.text()).toBe(200);
  await admin.reload();
  await islandsHydrated(admin);
  await admin.getByRole('button', { name: 'Mark completed' }).click();
  const complete = admin.getByRole('dialog', { name: `Complete ${reference}?` });
  await expect(complete).toContainText('The device was received and the swap was handed over.');
  // The note is e-mailed to the shopper, and the field says so.
  await expect(complete.getByLabel('Note (optional)')).toHaveAccessibleDescription(/^The shopper sees this note in their e-mail/);
  await complete.getByLabel('Note (optional)').fill('Phone received, PS5 handed over');
  await complete.getByRole('button', { name: 'Mark completed' }).click();
  await expect(admin.locator('#admin-trade-in-status')).toContainText('Completed');
  await expect(admin.getByRole('region', { name: 'History' })).toContainText('Phone received, PS5 handed over');

  // The shopper's page says so, and every move reached their inbox.
  await page.getByRole('button', { name: 'Find my request' }).click();
  await expect(card).toContainText(/completed/i);
  expect(
    db.query<{ kind: string }>(`select kind from email_outbox where recipient = '${email}' order by id`).map((e) => e.kind),
  ).toEqual([
    'trade_in_received',
    'trade_in_offer_made',
    'trade_in_accepted',
    'order_confirmation',
    // The ₦100,000 part paid into the order's account above: what arrived, what is still to pay.
    'order_part_paid',
    'order_status_paid',
    'trade_in_completed',
  ]);
  await admin.context().close();
});

/**
 * Strangers' uploads in flight, as raw HTTP: each declares `bytes` of multipart body, sends a few
 * and then nothing, so the Worker holds its share of the isolate's upload budget
 * (functions/platform/upload-budget.ts) until the socket closes. `end()` closes them all.
 */
function slowUploads(url: URL, sizes: number[]) {
  const sockets = sizes.map((bytes) => {
    const request = httpRequest(url, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=slow', 'content-length': String(bytes), origin: url.origin },
    });
    request.on('error', () => {}); // closed by end(): the Worker's answer no longer matters
    request.write('--slow\r\n');
    return request;
  });
  return {
    end: () => {
      for (const socket of sockets) socket.destroy();
    },
  };
}

/**
 * Three of the largest forms and one more, in flight, leaving less than 1 KB of the budget: held
 * once a small upload is told to wait too. Tried again if not: in a dev server's first seconds,
 * requests may reach another instance of the Worker (each with its own budget).
 */
async function fillUploadBudget(baseURL: string) {
  const url = new URL('/api/trade-ins', baseURL);
  const largest = MAX_SUBMISSION_BYTES;
  const small = async () =>
    (
      await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'multipart/form-data; boundary=x', origin: url.origin },
        body: `--x\r\n${'.'.repeat(1024)}`,
      })
    ).status;
  for (let attempt = 0; attempt < 5; attempt++) {
    const strangers = slowUploads(url, [largest, largest, largest, UPLOAD_BUDGET_BYTES - 3 * largest - 512]);
    for (let probe = 0; probe < 10; probe++) {
      if ((await small()) === 503) return strangers;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    strangers.end();
  }
  throw new Error('The slow uploads never filled the upload budget');
}

test('while strangers’ uploads fill the budget, the form says to wait and keeps what was typed; sent again later, it goes', async ({
  page,
  baseURL,
}) => {
  const email = `busy-${Date.now().toString(36)}@example.com`;
  await openTradeInForm(page);
  await fillSwapRequest(page, email);
  const strangers = await fillUploadBudget(baseURL!);
  try {
    await page.getByRole('button', { name: 'Send my request' }).click();
    await expect(
      page
        .getByRole('form', { name: 'Your trade-in request' })
        .getByRole('alert')
        .filter({ hasText: 'Many photos are being sent to us right now' }),
    ).toHaveText(
      'Many photos are being sent to us right now. Please wait 10 seconds and send the form again; nothing was saved.',
    );
    await expect(page.getByLabel('Email')).toHaveValue(email);
    await expect(page.getByRole('list', { name: 'Your photos' }).getByRole('listitem')).toHaveCount(1);
  } finally {
    strangers.end();
  }
  // Once they are gone (their bytes given back as their sockets close), the same form goes through.
  await expect(async () => {
    await page.getByRole('button', { name: 'Send my request' }).click();
    await expect(page.getByRole('heading', { name: 'Request received' })).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 20_000 });
});

test('the form tells what is missing at each field, and focuses the first', async ({ page }) => {
  await openTradeInForm(page);
  await page.getByRole('button', { name: 'Send my request' }).click();
  const category = page.getByLabel('Type of device');
  await expect(category).toBeFocused();
  await expect(category).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('group', { name: 'Is the screen cracked?' })).toContainText('Please answer');
  await expect(page.getByLabel('Phone number')).toHaveAttribute('aria-invalid', 'true');
  // The summary sits by the button, below every field it points to.
  const summary = page.getByRole('form', { name: 'Your trade-in request' }).getByText('Please check the fields marked above.');
  await expect(summary).toBeVisible();
  expect((await summary.boundingBox())!.y).toBeGreaterThan((await page.getByLabel('Phone number').boundingBox())!.y);

  // Each field put right loses its message as it is fixed; the others keep theirs.
  await category.selectOption('phones');
  await expect(category).not.toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('Model').fill('iPhone 13');
  await expect(page.getByLabel('Model')).not.toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('group', { name: 'Is the screen cracked?' }).getByRole('radio', { name: 'No', exact: true }).check();
  await expect(page.getByRole('group', { name: 'Is the screen cracked?' })).not.toContainText('Please answer');
  await page.getByRole('radio', { name: /^A swap/ }).check();
  await expect(page.getByRole('group', { name: 'Cash or a swap?' })).not.toContainText('Choose cash or a swap');
  await expect(page.getByLabel('Phone number')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Full name')).toHaveAttribute('aria-invalid', 'true');
});

for (const theme of ['dark', 'light'] as const) {
  test(`the trade-in form has no axe violations (${theme})`, async ({ page }) => {
    await page.addInitScript((dark) => localStorage.setItem('theme', JSON.stringify(dark)), theme === 'dark');
    await openTradeInForm(page);
    // With its error messages showing, and with the swap's product search open. The failed send
    // moves focus (and the page) to the first field to correct before anything else is clicked.
    await page.getByRole('button', { name: 'Send my request' }).click();
    await expect(page.getByLabel('Type of device')).toBeFocused();
    await page.getByRole('radio', { name: /^A swap/ }).check();
    await expect(page.getByLabel('Search for the product you want')).toBeVisible();
    expect(await axeViolations(page, theme)).toEqual([]);
  });
}

test('on a phone the form fits the screen and has no axe violations @phone', async ({ page }) => {
  await openTradeInForm(page);
  await page.getByRole('button', { name: 'Send my request' }).click();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  expect(await axeViolations(page)).toEqual([]);
  // The mobile menu leads here.
  await page.getByRole('button', { name: /menu/i }).first().click();
  await expect(page.locator('#mobile-menu').getByRole('link', { name: 'Sell or Swap' })).toHaveAttribute('href', '/sell-or-swap');
  await page.keyboard.press('Escape');

  // At 360 px a swap's prices break at their spaces, never inside the number ("₦2,999,00" / "0").
  await page.setViewportSize({ width: 360, height: 740 });
  const form = page.getByRole('form', { name: 'Your trade-in request' });
  await form.getByRole('radio', { name: /^A swap/ }).check();
  await form.getByLabel('Search for the product you want').fill('macbook');
  await form.getByRole('button', { name: 'Search', exact: true }).click();
  const prices = form.getByRole('list', { name: 'Matching products' }).locator('.product-picker__result-text > .muted');
  await expect(prices.first()).toContainText('₦');
  const amountsOnOneLine = await prices.evaluateAll((elements) =>
    elements.map((element) => {
      const text = element.firstChild as Text;
      const start = text.data.indexOf('₦');
      const range = document.createRange();
      range.setStart(text, start);
      range.setEnd(text, text.data.indexOf(' ', start) === -1 ? text.data.length : text.data.indexOf(' ', start));
      return `${range.toString()}: ${new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size} line(s)`;
    }),
  );
  expect(amountsOnOneLine.length).toBeGreaterThan(0);
  for (const amount of amountsOnOneLine) expect(amount).toMatch(/: 1 line\(s\)$/);
});

test('/sell-or-swap loads no React, and the schema (with zod) only when the shopper turns to the form', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await openTradeInForm(page);
  expect(scripts.some((path) => path.includes('TradeInForm.astro'))).toBe(true);
  expect(scripts.filter((path) => /react|jsx-runtime|client\.[\w-]+\.js$/i.test(path))).toEqual([]);
  expect(scripts.filter((path) => /\/trade-in\.[\w-]+\.js$/.test(path))).toEqual([]);
  await page.getByLabel('Model').focus();
  await expect.poll(() => scripts.filter((path) => /\/trade-in\.[\w-]+\.js$/.test(path)).length).toBe(1);
  expect(scripts.filter((path) => /react|jsx-runtime/i.test(path))).toEqual([]);
});

test('photos: a file that is not a photo is named and refused, at most four are kept, and Remove takes one away', async ({
  page,
}) => {
  await openTradeInForm(page);
  const form = page.getByRole('form', { name: 'Your trade-in request' });
  const input = form.getByLabel('Add photos');
  await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a photo') });
  await expect(form.getByText('“notes.txt” is not a JPEG, PNG or WebP photo.', { exact: false })).toBeVisible();
  await expect(input).toHaveAttribute('aria-invalid', 'true');

  const photo = (name: string) => ({ name, mimeType: 'image/png', buffer: photoPng() });
  await input.setInputFiles(['a.png', 'b.png', 'c.png', 'd.png', 'e.png'].map(photo));
  const list = form.getByRole('list', { name: 'Your photos' });
  await expect(list.getByRole('listitem')).toHaveCount(4);
  await expect(form.getByText('You can send up to 4 photos: we kept the first 4 you chose.')).toBeVisible();
  await expect(form.getByText('4 of 4 photos added (the most you can send).')).toBeVisible();
  await expect(input).toBeDisabled();

  await list.getByRole('button', { name: 'Remove photo 2' }).click();
  await expect(list.getByRole('listitem')).toHaveCount(3);
  await expect(list.getByRole('img', { name: 'b.png' })).toHaveCount(0);
  await expect(input).toBeEnabled();
  await expect(input).not.toHaveAttribute('aria-invalid', 'true');
});

test('a signed-in shopper’s contact details start from the profile, and what was typed stays', async ({ page, db }) => {
  const user = await signedInUser(page, db, { name: 'Ngozi Eze' });
  const saved = await apiPost(page, '/api/account/profile', { phone: '08031234567', state: 'Enugu' });
  expect(saved.status(), await saved.text()).toBe(200);
  await page.goto('/sell-or-swap');
  // Typed before the profile arrives: kept.
  await page.getByLabel('Full name').fill('Ngozi E.');
  await islandsHydrated(page);
  const form = page.getByRole('form', { name: 'Your trade-in request' });
  await expect(form.getByLabel('Email')).toHaveValue(user.email);
  await expect(form.getByLabel('Phone number')).toHaveValue('0803 123 4567');
  await expect(form.getByLabel('State')).toHaveValue('Enugu');
  await expect(form.getByLabel('Full name')).toHaveValue('Ngozi E.');
});

test('choosing a swap: no product chosen is said at the search, a product with editions asks for one', async ({ page }) => {
  await openTradeInForm(page);
  const form = page.getByRole('form', { name: 'Your trade-in request' });
  await form.getByRole('radio', { name: /^A swap/ }).check();
  await page.getByRole('button', { name: 'Send my request' }).click();
  const search = form.getByLabel('Search for the product you want');
  await expect(search).toHaveAccessibleDescription('Please search for and choose the product you want');

  await search.fill('PlayStation 5');
  await search.press('Enter');
  // The consoles, and (further down) games sold in a PS5 edition: "1 product matches", "3 products match" or "The first 9 of 10 matches…".
  await expect(form.getByRole('status')).toHaveText(/^(\d+ products? match|The first \d+ of \d+ matches)/);
  await form.getByRole('button', { name: `Choose ${PS5.name}`, exact: true }).click();
  const edition = form.getByRole('combobox', { name: 'Edition' });
  await expect(edition).toBeFocused();
  await expect(form.getByTestId('swap-price')).toContainText('From');
  await page.getByRole('button', { name: 'Send my request' }).click();
  await expect(edition).toHaveAccessibleDescription('Please choose the edition you want');
  await edition.selectOption(PS5.variant);
  await expect(form.getByTestId('swap-price')).toHaveText(`Price now: ${PS5.price}`);
  await form.getByRole('button', { name: 'Choose another product' }).click();
  await expect(search).toBeFocused();
});

test('a swap whose order was cancelled shows that order, and the form to order the swap again', async ({
  page,
  browser,
  baseURL,
}) => {
  const email = `again-${Date.now().toString(36)}@example.com`;
  const reference = await offeredTradeIn(page, browser, baseURL, {
    device: { category: 'phones', brand: 'Apple', model: 'iPhone 12', storage: '128GB' },
    want: { kind: 'swap', productId: 'sony-playstation-5-slim', variant: PS5.variant },
    contact: { name: 'Chidi Okeke', email, phone: '0802 555 0199', state: 'Lagos' },
    offerNaira: 300_000,
  });
  const accepted = await apiPost(page, `/api/trade-ins/${reference}/respond`, { email, decision: 'accept', offer: 30_000_000 });
  expect(accepted.status(), await accepted.text()).toBe(200);
  const ordered = await apiPost(page, `/api/trade-ins/${reference}/order`, {
    email,
    idempotencyKey: `e2e-${crypto.randomUUID()}`,
    customer: { delivery: 'pickup', name: 'Chidi Okeke', email, phone: '0802 555 0199' },
  });
  expect(ordered.status(), await ordered.text()).toBe(201);
  const { order, accessToken } = (await ordered.json()) as { order: { number: string }; accessToken: string };
  const cancelled = await page.request.post(`/api/orders/${order.number}/cancel`, {
    headers: { authorization: `Bearer ${accessToken}`, origin: new URL(baseURL!).origin },
  });
  expect(cancelled.status(), await cancelled.text()).toBe(200);

  await page.goto(`/sell-or-swap/status?ref=${reference}`);
  await islandsHydrated(page);
  await page.getByLabel('Email used on the request').fill(email);
  await page.getByRole('button', { name: 'Find my request' }).click();
  const card = page.getByRole('article', { name: `Trade-in ${reference}` });
  await expect(card.getByTestId('trade-in-earlier-order')).toHaveText(
    `Your swap order ${order.number} was cancelled: the credit is yours again, and you can order the swap once more below.`,
  );
  await card.getByText('Pick-up at our Ikeja store').click();
  await card.getByRole('button', { name: 'Place the swap order' }).click();
  await expect(card.getByRole('heading', { name: /^Your swap order GTS-/ })).not.toHaveText(`Your swap order ${order.number}`);
  await expect(card.getByRole('heading', { name: /^Your swap order GTS-/ })).toBeVisible();
});

test('declining an offer asks once more, since it is final; the answer takes the focus', async ({ page, browser, baseURL }) => {
  const email = `decline-${Date.now().toString(36)}@example.com`;
  const reference = await offeredTradeIn(page, browser, baseURL, {
    device: { category: 'laptops', brand: 'Dell', model: 'XPS 13', storage: '512GB' },
    want: { kind: 'cash' },
    contact: { name: 'Ngozi Eze', email, phone: '0803 555 0142', state: 'Lagos' },
    offerNaira: 150_000,
  });

  await page.goto(`/sell-or-swap/status?ref=${reference}`);
  await islandsHydrated(page);
  await page.getByLabel('Email used on the request').fill(email);
  await page.getByRole('button', { name: 'Find my request' }).click();
  const card = page.getByRole('article', { name: `Trade-in ${reference}` });
  await card.getByRole('button', { name: 'Decline the offer' }).click();
  const asked = card.getByRole('group', { name: 'Decline our offer of ₦150,000?' });
  await expect(asked.getByRole('button', { name: 'Decline it' })).toBeFocused();
  // Kept: nothing was sent, and focus is back where it was.
  await asked.getByRole('button', { name: 'Keep the offer' }).click();
  await expect(card.getByRole('button', { name: 'Decline the offer' })).toBeFocused();
  await card.getByRole('button', { name: 'Decline the offer' }).click();
  await card.getByRole('button', { name: 'Decline it' }).click();
  const answer = card.getByRole('status').filter({ hasText: 'You declined our offer.' });
  await expect(answer).toBeFocused();
  await expect(card.getByRole('button', { name: /Accept the offer|Decline/ })).toHaveCount(0);
});
