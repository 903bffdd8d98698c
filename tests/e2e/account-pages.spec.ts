import type { Page } from '@playwright/test';
import { apiPost, markDelivered, newEmail, PASSWORD, placeOrderAs, signedInUser, signIn } from './accounts.ts';
import { axeViolations, expect, test } from './fixtures.ts';
import { otherBrowser } from './contexts.ts';
import { islandsHydrated } from './islands.ts';

const checkout = (page: Page) => page.getByRole('dialog', { name: /Checkout|Pay by bank transfer|Payment noted/ });

/** An account page once its island has asked who is signed in. */
async function openAccountPage(page: Page, path: string) {
  await page.goto(path);
  await islandsHydrated(page);
  await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0);
}

test('a signed-in shopper checks out with their saved details, then finds the order on /orders and its payment on /transactions', async ({
  page,
  db,
}) => {
  const user = await signedInUser(page, db, { verify: false });
  // The profile's personal tab: name, phone and the default delivery address, saved.
  await openAccountPage(page, '/profile');
  const personal = page.getByRole('tabpanel', { name: 'Personal' });
  await expect(personal.getByLabel('Full name')).toHaveValue('Ada Obi');
  await personal.getByLabel('Full name').fill('Ada Obi-Okafor');
  await personal.getByLabel('Phone number').fill('12345');
  await personal.getByRole('button', { name: 'Save details' }).click();
  await expect(personal.getByText('Enter a Nigerian phone number, like 0803 123 4567')).toBeVisible();
  await personal.getByLabel('Phone number').fill('+234 803 123 4567');
  await personal.getByLabel('Delivery address').fill('12 Allen Avenue');
  await personal.getByLabel('City').fill('Ikeja');
  await personal.getByLabel('State').selectOption('Lagos');
  await personal.getByRole('button', { name: 'Save details' }).click();
  await expect(personal.getByRole('status')).toHaveText('Your details are saved. The checkout will fill them in for you.');
  await page.reload();
  await islandsHydrated(page);
  await expect(personal.getByLabel('Phone number')).toHaveValue('0803 123 4567');
  await expect(personal.getByLabel('State')).toHaveValue('Lagos');

  // The checkout starts from them.
  await page.goto('/product/oraimo-freepods-4-anc-earbuds');
  await islandsHydrated(page);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await page.goto('/cart');
  await islandsHydrated(page);
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  const dialog = checkout(page);
  await expect(dialog.getByLabel('Full name')).toHaveValue('Ada Obi-Okafor');
  await expect(dialog.getByLabel('Email')).toHaveValue(user.email);
  await expect(dialog.getByLabel('Phone number')).toHaveValue('0803 123 4567');
  await expect(dialog.getByLabel('Delivery address')).toHaveValue('12 Allen Avenue');
  await expect(dialog.getByLabel('City')).toHaveValue('Ikeja');
  await expect(dialog.getByLabel('State')).toHaveValue('Lagos');
  await dialog.getByRole('button', { name: 'Place Order' }).click();
  await expect(dialog.getByRole('heading', { name: 'Pay by bank transfer' })).toBeVisible();
  const reference = (await dialog.locator('[data-field="Reference"]').textContent())!;
  expect(reference).toMatch(/^GTS-[0-9A-Z]{10}$/);

  // /orders: the order is the user's, Processing (yellow), with the bank details while unpaid.
  await openAccountPage(page, '/orders');
  const order = page.getByRole('article', { name: `Order ${reference}` });
  await expect(order).toBeVisible();
  const badge = order.getByText('Processing', { exact: true });
  await expect(badge).toHaveAttribute('data-tone', 'yellow');
  await expect(order.getByRole('heading', { name: 'Payment due' })).toBeVisible();
  await expect(order.locator('[data-field="Reference"]')).toHaveText(reference);
  // The order's own account from the payment provider (the offline stand-in here: decision 023).
  await expect(order.locator('[data-field="Bank"]')).toHaveText('Wema Bank (stand-in)');
  await expect(order.locator('[data-field="Account number"]')).toHaveText(/^\d{10}$/);
  await expect(order.locator('[data-field="Account number"]')).not.toHaveText('3081726354');
  await expect(order).toContainText('Oraimo FreePods 4 ANC True Wireless Earbuds');
  await expect(order.getByRole('link', { name: `Track order ${reference}` })).toHaveAttribute(
    'href',
    `/track?order=${reference}`,
  );

  // /transactions: due, not yet reported.
  await openAccountPage(page, '/transactions');
  const table = page.getByRole('table', { name: 'Bank transfers for your orders, newest first' });
  let row = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: reference }) });
  // Cells after the order number: amount, reference, status, placed, reported, confirmed.
  await expect(row.getByRole('cell').nth(0)).toHaveText('₦36,400');
  await expect(row.getByRole('cell').nth(1)).toHaveText(reference);
  await expect(row.getByRole('cell').nth(2)).toHaveText('Due');
  await expect(row.getByRole('cell').nth(4)).toContainText('Not yet');
  const hint = page.getByText("Scroll the table sideways for each transfer's status and dates.");
  await expect(hint).toBeHidden();
  // On a phone the status and dates are past the edge: a hint says so, and the order number stays in view as the table scrolls.
  const desktop = page.viewportSize()!;
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(hint).toBeVisible();
  const region = page.locator('.account-table');
  await region.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
  const [regionBox, orderBox] = await Promise.all([region.boundingBox(), row.getByRole('rowheader').boundingBox()]);
  expect(orderBox!.x).toBeGreaterThanOrEqual(regionBox!.x);
  await page.setViewportSize(desktop);

  // 'I Have Made Payment' from the cart's own order, then the payment shows as reported, with its date.
  await page.goto('/cart');
  await islandsHydrated(page);
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await checkout(page).getByRole('button', { name: 'I Have Made Payment' }).click();
  await expect(checkout(page).getByRole('status')).toContainText(`We have noted your payment for order ${reference}`);
  await openAccountPage(page, '/transactions');
  row = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: reference }) });
  await expect(row.getByRole('cell').nth(2)).toHaveText('Reported');
  await expect(row.getByRole('cell').nth(4).locator('time')).toHaveAttribute('datetime', /^\d{4}-\d\d-\d\dT/);
  await expect(row.getByRole('cell').nth(5)).toContainText('Not yet');
  // Reported, so no longer due: no bank details on /orders.
  await openAccountPage(page, '/orders');
  await expect(
    page.getByRole('article', { name: `Order ${reference}` }).getByRole('heading', { name: 'Payment due' }),
  ).toHaveCount(0);
});

test('a delivered product is rated on /ratings, its page shows the new rating, and a second save edits the review', async ({
  page,
  db,
}) => {
  test.slow();
  const productId = 'ea-sports-fc-26';
  const [before] = db.query<{ rating: number; reviews: number }>(
    `select rating, reviews from products where id = '${productId}'`,
  );
  // The catalogue's history, which the figures below build on; its page says whose reviews they are.
  expect(before).toEqual({ rating: 4.2, reviews: 301 });
  await page.goto(`/product/${productId}`);
  await expect(page.getByRole('main').locator('.rating')).toHaveText(
    /4\.2 out of 5 stars, \(301 reviews, none yet from GTS buyers\)/,
  );
  const user = await signedInUser(page, db);
  try {
    const number = await placeOrderAs(page, user, productId);
    // Not delivered yet: nothing to rate.
    await openAccountPage(page, '/ratings');
    await expect(page.getByText('Nothing to rate right now.')).toBeVisible();
    markDelivered(db, number);

    await openAccountPage(page, '/ratings');
    const card = page.getByRole('region', { name: 'To rate' }).getByRole('article', { name: 'EA Sports FC 26' });
    const stars = card.getByRole('group', { name: 'Your rating of EA Sports FC 26' });
    await card.getByRole('button', { name: /^Save rating/ }).click();
    await expect(card.getByText('Please choose a rating from 1 to 5')).toBeVisible();
    // A radio group: arrow keys move the choice.
    await stars.getByRole('radio', { name: '3 stars' }).check();
    await page.keyboard.press('ArrowRight');
    await expect(stars.getByRole('radio', { name: '4 stars' })).toBeChecked();
    await card.getByLabel('Comment (optional)').fill('Smooth online play.');
    await card.getByRole('button', { name: /^Save rating/ }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved your' })).toHaveText(
      // The catalogue's 4.2 from 301 reviews is the product's history; this review is added to it
      // (issue 20), not put in its place: (4.2 × 301 + 4) / 302 = 4.2.
      'Saved your 4-star rating of EA Sports FC 26. It is now rated 4.2 from 302 reviews.',
    );
    const review = page.getByRole('region', { name: 'Your reviews' }).getByRole('article', { name: 'EA Sports FC 26' });
    await expect(review).toContainText('You rated it 4 out of 5');
    await expect(review).toContainText('“Smooth online play.”');
    await expect(page.getByRole('region', { name: 'To rate' }).getByRole('article')).toHaveCount(0);

    // The product page refreshes from the API: D1's new rating and count, and how many are from buyers here.
    await page.goto(`/product/${productId}`);
    await expect(page.getByRole('main').locator('.rating')).toHaveText(/4\.2 out of 5 stars, \(302 reviews, 1 from GTS buyers\)/);

    // A second save edits the review: still one review.
    await openAccountPage(page, '/ratings');
    await page.getByRole('button', { name: 'Edit review of EA Sports FC 26' }).click();
    const edit = page.getByRole('region', { name: 'Your reviews' }).getByRole('article', { name: 'EA Sports FC 26' });
    await expect(edit.getByRole('radio', { name: '4 stars' })).toBeChecked();
    await expect(edit.getByRole('radio', { name: '4 stars' })).toBeFocused();
    await edit.getByRole('radio', { name: '2 stars' }).check();
    await edit.getByLabel('Comment (optional)').fill('Servers lag at night.');
    await edit.getByRole('button', { name: /^Save changes/ }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved your' })).toHaveText(
      // Still one review of ours, now 2 stars: (4.2 × 301 + 2) / 302 = 4.19, shown as 4.2.
      'Saved your 2-star rating of EA Sports FC 26. It is now rated 4.2 from 302 reviews.',
    );
    await expect(edit).toContainText('You rated it 2 out of 5');
    await expect(page.getByRole('button', { name: 'Edit review of EA Sports FC 26' })).toBeFocused();
    await page.reload();
    await islandsHydrated(page);
    await expect(page.getByRole('region', { name: 'Your reviews' }).getByRole('article')).toHaveCount(1);
    await page.goto(`/product/${productId}`);
    await expect(page.getByRole('main').locator('.rating')).toHaveText(/4\.2 out of 5 stars, \(302 reviews, 1 from GTS buyers\)/);
  } finally {
    // The catalogue's own rating back for the other tests.
    db.query(
      `delete from reviews where product_id = '${productId}'; update products set rating = ${before!.rating}, reviews = ${before!.reviews} where id = '${productId}'`,
    );
  }
});

test('the security tab: e-mail confirmation, other devices, and a password change that the next sign-in needs', async ({
  page,
  db,
}) => {
  const user = await signedInUser(page, db, { email: newEmail('security'), verify: false });
  await openAccountPage(page, '/profile');
  // The tabs follow the ARIA pattern: arrow keys, Home and End move and select.
  const personalTab = page.getByRole('tab', { name: 'Personal' });
  await expect(personalTab).toHaveAttribute('aria-selected', 'true');
  await personalTab.focus();
  await page.keyboard.press('ArrowRight');
  const securityTab = page.getByRole('tab', { name: 'Security' });
  await expect(securityTab).toBeFocused();
  await expect(securityTab).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('End');
  await expect(page.getByRole('tab', { name: 'Preferences' })).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(personalTab).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tabpanel', { name: 'Personal' })).toBeHidden();
  const security = page.getByRole('tabpanel', { name: 'Security' });
  await expect(security).toBeVisible();

  await expect(security).toContainText(`${user.email} Not confirmed`);
  // Every account page says the address is not confirmed yet, with the button to send the link again.
  const confirm = page.getByRole('region', { name: 'Confirm your e-mail address' });
  await expect(confirm).toContainText(`We sent a link to ${user.email}. Until you open it, orders you placed as a guest`);
  await confirm.getByRole('button', { name: 'Resend verification e-mail' }).click();
  await expect(confirm.getByRole('status').filter({ hasText: 'new link' })).toHaveText(
    `We have sent a new link to ${user.email}.`,
  );

  await security.getByRole('button', { name: 'Sign out of all other devices' }).click();
  await expect(security.getByRole('status').filter({ hasText: 'other device' })).toHaveText(
    'You are signed out on every other device.',
  );

  // The policy is shown with the new password; a wrong current password gets its own message.
  const newPassword = security.getByLabel('New password', { exact: true });
  await expect(newPassword).toHaveAccessibleDescription('At least 8 characters, and not a commonly used password.');
  await security.getByLabel('Current password', { exact: true }).fill('not my password');
  await newPassword.fill('password123');
  await security.getByRole('button', { name: 'Change password' }).click();
  await expect(security.getByText('That password is too common. Please choose one that is harder to guess')).toBeVisible();
  await newPassword.fill('a much better passphrase');
  await security.getByRole('button', { name: 'Change password' }).click();
  await expect(security.getByText('Your current password is not right')).toBeVisible();
  await expect(security.getByLabel('Current password', { exact: true })).toBeFocused();
  await security.getByLabel('Current password', { exact: true }).fill(user.password);
  await security.getByRole('button', { name: 'Change password' }).click();
  await expect(security.getByRole('status').filter({ hasText: 'password' })).toHaveText(
    'Your password is changed. Every other device is signed out.',
  );
  // This browser stays signed in.
  await page.reload();
  await islandsHydrated(page);
  await expect(page.getByRole('tabpanel', { name: 'Security' })).toBeVisible();

  // The old password no longer signs in; the new one does.
  const old = await apiPost(page, '/api/account/sign-in', { email: user.email, password: PASSWORD });
  expect(old.status()).toBe(401);
  await signIn(page, user.email, 'a much better passphrase');
});

test('notification and theme preferences save, and the theme applies at once', async ({ page, db }) => {
  await signedInUser(page, db, { verify: false });
  await page.goto('/profile#notifications');
  await islandsHydrated(page);
  const notifications = page.getByRole('tabpanel', { name: 'Notifications' });
  await expect(notifications.getByLabel('Order updates')).toBeChecked();
  await notifications.getByLabel('Promotions').check();
  await notifications.getByLabel('Order updates').uncheck();
  await notifications.getByRole('button', { name: 'Save notifications' }).click();
  await expect(notifications.getByRole('status')).toHaveText('Your e-mail choices are saved.');

  await page.getByRole('tab', { name: 'Preferences' }).click();
  const preferences = page.getByRole('tabpanel', { name: 'Preferences' });
  await expect(preferences.getByLabel('Dark')).toBeChecked();
  await expect(page.locator('html')).toHaveClass(/dark/);
  await preferences.getByLabel('Light').check();
  await preferences.getByRole('button', { name: 'Save preferences' }).click();
  await expect(preferences.getByRole('status')).toHaveText('Saved: the light theme is on.');
  await expect(page.locator('html')).not.toHaveClass(/dark/);
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('false');

  // A new page load (not just a hash change): saved on the server, applied before first paint.
  await page.goto('/orders');
  await page.goto('/profile#notifications');
  await islandsHydrated(page);
  await expect(page.locator('html')).not.toHaveClass(/dark/);
  await expect(notifications.getByLabel('Promotions')).toBeChecked();
  await expect(notifications.getByLabel('Order updates')).not.toBeChecked();
  await page.getByRole('tab', { name: 'Preferences' }).click();
  await expect(preferences.getByLabel('Light')).toBeChecked();
});

const PRIVATE_PAGES = [
  ['/profile', 'Your profile'],
  ['/orders', 'Your orders'],
  ['/transactions', 'Your transactions'],
  ['/ratings', 'Your ratings'],
] as const;

test('each account page asks a signed-out visitor to sign in, and brings them back after signing in', async ({ page, db }) => {
  const user = await signedInUser(page, db);
  await page.context().clearCookies();
  for (const [path, title] of PRIVATE_PAGES) {
    await openAccountPage(page, path);
    await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Please sign in' })).toBeVisible();
    const link = page.getByRole('main').getByRole('link', { name: 'Sign in', exact: true });
    await expect(link).toHaveAttribute('href', `/login?next=${encodeURIComponent(path)}`);
  }
  // Payment methods are public.
  await openAccountPage(page, '/payment-methods');
  await expect(page.getByRole('heading', { name: 'Please sign in' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Bank transfer' })).toContainText('3081726354');
  // The test servers run the payments stand-in: each order has its own account.
  await expect(page.getByRole('region', { name: 'Bank transfer' })).toContainText('Each order gets an account of its own');

  for (const [path, title] of PRIVATE_PAGES) {
    await openAccountPage(page, path);
    await page.getByRole('main').getByRole('link', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(`/login?next=${encodeURIComponent(path)}`);
    await islandsHydrated(page);
    const form = page.getByRole('form', { name: 'Sign in' });
    await form.getByLabel('Email').fill(user.email);
    await form.getByLabel('Password', { exact: true }).fill(user.password);
    await form.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(path);
    await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
    await islandsHydrated(page);
    await expect(page.getByRole('heading', { name: 'Please sign in' })).toHaveCount(0);
    await expect(page.getByRole('navigation', { name: 'Your account' }).getByRole('link', { name: 'Profile' })).toBeVisible();
    await page.context().clearCookies();
  }
});

for (const theme of ['dark', 'light'] as const) {
  test(`the account pages have no axe violations (${theme})`, async ({ page, db }) => {
    // Seven pages and views, each analysed, plus the D1 calls that set the data up.
    test.slow();
    await page.addInitScript((dark) => localStorage.setItem('theme', JSON.stringify(dark)), theme === 'dark');
    // Every rule in dark, the colour rules in light (fixtures.ts `axe`).
    const axe = async (what: string) => expect(await axeViolations(page, theme, `${what}: `)).toEqual([]);
    // Signed out first: the sign-in prompt.
    await openAccountPage(page, '/orders');
    await axe('/orders signed out');

    const user = await signedInUser(page, db);
    // Content on every page: an unpaid order (bank details), a delivered one to rate.
    await placeOrderAs(page, user, 'hp-250-g10');
    markDelivered(db, await placeOrderAs(page, user, 'oraimo-traveler-4-20000mah-power-bank'));
    for (const path of ['/profile', '/orders', '/transactions', '/ratings', '/payment-methods']) {
      await openAccountPage(page, path);
      await page.waitForLoadState('networkidle');
      await expect(page.locator('.account__body [role="alert"]')).toHaveCount(0);
      await axe(path);
    }
    await openAccountPage(page, '/profile#security');
    await axe('/profile security tab');
    await page.getByRole('tab', { name: 'Preferences' }).click();
    await axe('/profile preferences tab');
  });
}

test('@phone the profile tabs fit the screen', async ({ page, db }) => {
  await signedInUser(page, db);
  await openAccountPage(page, '/profile');
  const width = page.viewportSize()!.width;
  const tabs = page.getByRole('tab');
  await expect(tabs).toHaveCount(4);
  for (const tab of await tabs.all()) {
    await expect(tab).toBeVisible();
    const box = (await tab.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(width);
    expect(box.height).toBeGreaterThanOrEqual(44);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  await page.getByRole('tab', { name: 'Notifications' }).click();
  await expect(page.getByRole('tabpanel', { name: 'Notifications' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
});

test('the security tab lists where the account is signed in: one device signed out, then everywhere', async ({
  page,
  db,
  browser,
  baseURL,
}) => {
  const user = await signedInUser(page, db, { email: newEmail('devices') });
  const phone = await otherBrowser(browser, baseURL);
  await signIn(phone, user.email, user.password);
  expect(
    db.query<{ n: number }>(
      `select count(*) as n from sessions s join users u on u.id = s.user_id where u.email = '${user.email}'`,
    ),
  ).toEqual([{ n: 2 }]);

  await openAccountPage(page, '/profile');
  await page.getByRole('tab', { name: 'Security' }).click();
  const security = page.getByRole('tabpanel', { name: 'Security' });
  const devices = security.getByRole('list', { name: 'Signed-in devices' });
  await expect(devices.getByRole('listitem')).toHaveCount(2);
  await expect(devices.getByRole('listitem').filter({ hasText: 'This device' })).toHaveCount(1);
  // Read as words apart ("Chrome on Linux This device"), not run together.
  await expect(devices.getByRole('listitem').filter({ hasText: 'This device' })).toContainText(/\S This device/);
  expect(await axeViolations(page)).toEqual([]);

  // The other one, by keyboard: its own "Sign out" button.
  const other = devices.getByRole('listitem').filter({ hasNotText: 'This device' });
  await other.getByRole('button', { name: /^Sign out / }).focus();
  await page.keyboard.press('Enter');
  await expect(security.getByRole('status').filter({ hasText: 'signed out' })).toHaveText('That device is signed out.');
  await expect(devices.getByRole('listitem')).toHaveCount(1);
  expect((await phone.request.get('/api/account/profile')).status()).toBe(401);

  await security.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect((await page.request.get('/api/account/profile')).status()).toBe(401);
  expect(
    db.query<{ n: number }>(
      `select count(*) as n from sessions s join users u on u.id = s.user_id where u.email = '${user.email}'`,
    ),
  ).toEqual([{ n: 0 }]);
  await phone.context().close();
});

test('an unpaid order is cancelled from /orders, without the browser that placed it', async ({ page, browser, baseURL, db }) => {
  const user = await signedInUser(page, db);
  // Placed from another device of the same account: this browser never held the order's token.
  const phone = await otherBrowser(browser, baseURL);
  await signIn(phone, user.email, user.password);
  const number = await placeOrderAs(phone, user, 'anker-735-charger-ganprime-65w');
  await phone.context().close();

  await page.goto('/orders');
  await islandsHydrated(page);
  const card = page.getByRole('article', { name: `Order ${number}` });
  await card.getByRole('button', { name: `Cancel order ${number}` }).click();
  const ask = card.getByRole('group', { name: `Cancel order ${number}?` });
  await expect(ask).toContainText('Its items go back on sale');
  await expect(ask.getByRole('button', { name: 'Cancel the order' })).toBeFocused();
  await ask.getByRole('button', { name: 'Keep the order' }).click();
  await expect(ask).toBeHidden();
  await expect(card.getByRole('button', { name: `Cancel order ${number}` })).toBeFocused();
  await card.getByRole('button', { name: `Cancel order ${number}` }).click();
  await ask.getByRole('button', { name: 'Cancel the order' }).click();
  await expect(card.getByRole('heading', { level: 2 })).toBeFocused();
  await expect(card).toContainText('Cancelled');
  await expect(card.getByRole('button', { name: /Cancel order/ })).toHaveCount(0);
  expect(db.query(`select status from orders where number = '${number}'`)).toEqual([{ status: 'cancelled' }]);
});
