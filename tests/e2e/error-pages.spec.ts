import { quietServiceWorker } from './contexts.ts';
import { expect, test } from './fixtures.ts';

/**
 * Error pages carry the request's id (functions/platform/request-log.ts): the one in the
 * `x-request-id` header and in the request's log line, for a shopper to quote to support.
 */
test.beforeEach(async ({ context }) => {
  await quietServiceWorker(context);
});

for (const { path, heading } of [
  { path: '/no-such-page', heading: 'We could not find that page.' },
  { path: '/product/no-such-product', heading: 'Product not found' },
]) {
  test(`${path} answers 404 and shows the request's reference, the same as its header`, async ({ page }) => {
    const answer = await page.goto(path);
    expect(answer?.status()).toBe(404);
    const id = answer?.headers()['x-request-id'];
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    await expect(page.getByText(heading)).toBeVisible();
    await expect(page.getByText(`Reference: ${id}`)).toBeVisible();
  });
}

test('a page that is found shows no reference, though its answer has an id', async ({ page }) => {
  const answer = await page.goto('/products?category=phones');
  expect(answer?.status()).toBe(200);
  expect(answer?.headers()['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  await expect(page.getByText(/^Reference:/)).toHaveCount(0);
});

test('a path whose %-escapes do not decode is answered with the 404 page, whatever route it looks like', async ({ request }) => {
  for (const path of ['/%ff', '/product/%ff', '/products/%E0%A4%A', '/track/%c0%af']) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(404);
    const html = await response.text();
    expect(html, path).toContain('<title>Page not found | GTS</title>');
    expect(html, path).toContain('We could not find that page.');
  }
});
