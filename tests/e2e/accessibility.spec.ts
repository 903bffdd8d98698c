import { axeViolations, expect, test } from './fixtures.ts';

// One page per template, in both themes: every rule in dark, the colour rules in light (fixtures.ts `axe`).
const pages = [
  ['home', '/'],
  ['product listing', '/products?category=phones'],
  ['product detail', '/product/sony-playstation-5-slim'],
  ['product not found', '/product/no-such-phone'],
  ['brands', '/brands'],
  ['information page', '/shipping'],
  ['sitemap page', '/sitemap'],
  ['unknown path (404)', '/no/such/page'],
  ['empty cart', '/cart'],
  ['order tracking', '/track'],
  ['sign in', '/login'],
] as const;

for (const theme of ['dark', 'light'] as const) {
  for (const [name, path] of pages) {
    test(`${name} has no axe violations (${theme})`, async ({ page }) => {
      await page.addInitScript((dark) => localStorage.setItem('theme', JSON.stringify(dark)), theme === 'dark');
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      expect(await axeViolations(page, theme)).toEqual([]);
    });
  }
}

test('every page has a title, description, canonical URL and Open Graph tags; products carry JSON-LD', async ({ page }) => {
  for (const path of [
    '/',
    '/products?category=phones',
    '/product/sony-playstation-5-slim',
    '/shipping',
    '/track',
    '/sell-or-swap',
  ]) {
    await page.goto(path);
    await expect(page).toHaveTitle(/GTS/);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /.{30,}/);
    // The address the page is served at (not the build's /shipping.html), as its link preview says too.
    const canonical = await page.locator('link[rel="canonical"]').getAttribute('href');
    expect(canonical, path).toMatch(/^https?:\/\//);
    const served = new URL(canonical!);
    expect(served.pathname + served.search, path).toBe(path);
    await expect(page.locator('meta[property="og:url"]')).toHaveAttribute('content', canonical!);
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', /GTS/);
  }
  await page.goto('/product/sony-playstation-5-slim');
  const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}');
  expect(jsonLd).toMatchObject({ '@type': 'Product', offers: { priceCurrency: 'NGN' } });
});

test('robots.txt and sitemap.xml list the store', async ({ request }) => {
  expect(await (await request.get('/robots.txt')).text()).toContain('Sitemap: ');
  const sitemap = await (await request.get('/sitemap.xml')).text();
  expect(sitemap).toContain('/product/sony-playstation-5-slim</loc>');
  expect(sitemap.match(/<url>/g)?.length).toBeGreaterThanOrEqual(48 + 11);
});
