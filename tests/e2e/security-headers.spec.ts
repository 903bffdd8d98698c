import type { APIResponse } from '@playwright/test';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  isPrivatePage,
  OPENER_POLICY,
  PAGE_CSP_HEADER,
  PAGE_ONLY_HEADERS,
  PAGE_SECURITY_HEADERS,
} from '../../functions/platform/security-headers.ts';
import { expect, test } from './fixtures.ts';
import { islandsHydrated, listedScripts } from './islands.ts';

/**
 * The policies of a response: each Content-Security-Policy header, and each policy of a header
 * that lists several, comma-separated (Cloudflare joins a header two `_headers` rules set that
 * way). A browser enforces all of them.
 */
function policies(response: APIResponse): string[] {
  return response
    .headersArray()
    .filter((h) => h.name.toLowerCase() === 'content-security-policy')
    .flatMap((h) => h.value.split(/,\s*/));
}

/**
 * The headers every page carries, wherever it comes from (static assets or the Worker), and the
 * opener policy on the pages with a person's data only.
 */
function expectPageHeaders(response: APIResponse) {
  const headers = response.headers();
  for (const [name, value] of Object.entries(PAGE_SECURITY_HEADERS)) expect(headers[name.toLowerCase()], name).toBe(value);
  const path = new URL(response.url()).pathname;
  for (const [name, value] of Object.entries(OPENER_POLICY))
    expect(headers[name.toLowerCase()], `${path} ${name}`).toBe(isPrivatePage(path) ? value : undefined);
  expect(policies(response)).toContain(PAGE_CSP_HEADER);
  // Local runs are plain http: no HSTS.
  expect(headers['strict-transport-security']).toBeUndefined();
}

/** A page's script/style policy: the build's or the Worker's (pre-rendered pages), Astro's (pages rendered on demand). */
function expectScriptPolicy(policy: string | undefined) {
  expect(policy).toBeDefined();
  const directives = policy!.split(';').map((d) => d.trim());
  const scriptSrc = directives.find((d) => d.startsWith('script-src '));
  expect(scriptSrc).toMatch(/^script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+$/);
  expect(directives.find((d) => d.startsWith('style-src '))).toMatch(/^style-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+$/);
  expect(directives).toEqual(
    expect.arrayContaining(["default-src 'self'", "object-src 'none'", "base-uri 'self'", "form-action 'self'"]),
  );
  expect(policy).not.toContain('unsafe-inline');
  expect(policy).not.toContain('unsafe-eval');
}

const metaPolicy = (html: string) => /<meta http-equiv="content-security-policy" content="([^"]+)"/.exec(html)?.[1];

test('public/_headers gives pre-rendered files the same headers as the Worker gives its pages', () => {
  const file = readFileSync('public/_headers', 'utf8');
  const all = /^\/\*\n((?:[ \t]+.+\n?)+)/m.exec(file)?.[1] ?? '';
  const rules = Object.fromEntries(
    all
      .trim()
      .split('\n')
      .map((line) =>
        line
          .trim()
          .split(/:\s(.*)/s)
          .slice(0, 2),
      ),
  );
  expect(rules).toEqual({ 'Content-Security-Policy': PAGE_CSP_HEADER, ...PAGE_SECURITY_HEADERS });
});

test('scripts and styles carry nosniff but not the page-only headers; other files keep them all', async ({ request }) => {
  // The rule in public/_headers detaches exactly the page-only headers.
  const file = readFileSync('public/_headers', 'utf8');
  const astroRule = /^\/_astro\/\*\n((?:[ \t]+.+\n?)+)/m.exec(file)?.[1] ?? '';
  const detached = astroRule
    .split('\n')
    .map((line) => /^\s*!\s+(\S+)/.exec(line)?.[1])
    .filter(Boolean);
  expect(detached).toEqual([...PAGE_ONLY_HEADERS]);

  // And the asset server applies it: a page's script and a stylesheet, as the browser gets them.
  // Pages inline their own CSS; the toast outlet's stylesheet is a file its loader script names.
  const html = await (await request.get('/products')).text();
  const scripts = listedScripts(html).start;
  const script = scripts[0];
  let style: string | undefined;
  for (const src of scripts) style ??= /\/_astro\/[^"'`]+\.css/.exec(await (await request.get(src)).text())?.[0];
  expect(script).toBeDefined();
  expect(style).toBeDefined();
  for (const path of [script!, style!]) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    const headers = response.headers();
    expect(headers['x-content-type-options'], path).toBe('nosniff');
    expect(headers['referrer-policy'], path).toBe(PAGE_SECURITY_HEADERS['Referrer-Policy']);
    for (const name of PAGE_ONLY_HEADERS) expect(headers[name.toLowerCase()], `${path} ${name}`).toBeUndefined();
    // Named by their content: kept for a year.
    expect(headers['cache-control'], path).toBe('public, max-age=31536000, immutable');
  }

  // Everything else keeps every header: the service worker (a worker, under the page CSP), an SVG image (a document when opened).
  for (const path of ['/sw.js', '/favicon.svg', '/manifest.webmanifest']) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    expectPageHeaders(response);
    expect(response.headers()['cache-control'], path).not.toContain('immutable');
  }
});

test('a pre-rendered page: headers from _headers, and one script policy, in its header, from the first byte: no <meta> policy', async ({
  request,
}) => {
  for (const path of ['/', '/product/sony-playstation-5-slim', '/track', '/login']) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    expectPageHeaders(response);
    const policy = policies(response).find((p) => p.includes('script-src'));
    expectScriptPolicy(policy);
    // Astro's site-wide <meta> is taken out at build (scripts/build/page-headers.ts checks the
    // page's own hashes against it first): 2.3 KB of hashes no page needs.
    const html = await response.text();
    expect(metaPolicy(html), path).toBeUndefined();
    expect(html, path).not.toMatch(/http-equiv="content-security-policy"/i);
    // The header covers <head> from its start: the theme script, the first thing in it, is allowed by hash.
    const [theme] = [
      ...html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*application\/(?:ld\+)?json)[^>]*>([\s\S]*?)<\/script>/g),
    ].map((m) => m[1]!);
    expect(theme, path).toContain("localStorage.getItem('theme')");
    expect(policy, path).toContain(`'sha256-${createHash('sha256').update(theme!).digest('base64')}'`);
  }
});

/** The CSP source of a text's SHA-256, as a policy lists it. */
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

test('every page sends its own script policy as a header: default-src, and the hashes of exactly its inline scripts and styles', async ({
  request,
}) => {
  // Pre-rendered, served by the static assets (`_headers`) and by the Worker (the home page, a
  // product page, the 404 page); rendered on demand by the Worker (the listings, the cart), where
  // the Worker's list replaces Astro's site-wide one.
  for (const path of [
    '/about',
    '/track',
    '/login',
    '/sell-or-swap/status',
    '/',
    '/product/sony-playstation-5-slim',
    '/no/such/page',
    '/products',
    '/products?category=phones',
    '/cart',
  ]) {
    const response = await request.get(path);
    const html = await response.text();
    const own = policies(response).filter((p) => p.includes('script-src'));
    expect(own, path).toHaveLength(1);
    // A page with no inline style lists none: style-src 'self' alone.
    expect(own[0], path).toMatch(/(^|; )script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+(;|$)/);
    expect(own[0], path).toMatch(/(^|; )style-src 'self'( 'sha256-[A-Za-z0-9+/=]+')*(;|$)/);
    for (const directive of ["default-src 'self'", "object-src 'none'", "base-uri 'self'", "frame-ancestors 'none'"])
      expect(own[0]!.split('; '), path).toContain(directive);
    expect(own[0], path).not.toContain('unsafe-');
    const listed = (directive: string) =>
      own[0]!
        .split(';')
        .map((d) => d.trim())
        .find((d) => d.startsWith(`${directive} `))!
        .split(' ')
        .slice(2)
        .sort();
    const scripts = [
      ...html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*application\/(?:ld\+)?json)[^>]*>([\s\S]*?)<\/script>/g),
    ].map((m) => sha256(m[1]!));
    const styles = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => sha256(m[1]!));
    expect(listed('script-src'), path).toEqual([...new Set(scripts)].sort());
    expect(listed('style-src'), path).toEqual([...new Set(styles)].sort());
  }
});

test('a script injected into a pre-rendered page is blocked by its header policy', async ({ page, cspViolations }) => {
  // The attacker's page: /about as served (its headers, and no <meta> policy), a script added.
  await page.route('**/about', async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace('</body>', '<script>window.injected = true</script></body>');
    await route.fulfill({ response, body: html });
  });
  await page.goto('/about');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await page.evaluate(() => 'injected' in window)).toBe(false);
  await expect.poll(() => cspViolations.join('\n')).toContain('script-src-elem blocked inline');
  // The page's own inline script (the theme) still ran: its hash is in the header.
  expect(await page.evaluate(() => document.documentElement.style.colorScheme)).toMatch(/^(dark|light)$/);
  // Expected in this test only: without this, the fixture would (rightly) fail it.
  cspViolations.length = 0;
});

test('the pages the Worker renders (listing, cart): the same headers, the script policy as a header', async ({ request }) => {
  for (const path of ['/products', '/products?category=phones', '/cart']) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    expectPageHeaders(response);
    // One script policy, as a header: it covers the whole page, inline scripts included.
    expect(
      policies(response).filter((p) => p.includes('script-src')),
      path,
    ).toHaveLength(1);
    expectScriptPolicy(policies(response).find((p) => p.includes('script-src')));
    expect(metaPolicy(await response.text()), path).toBeUndefined();
  }
});

test('the opener policy: a window another site opens on a page with a shopper’s data loses its hold on it', async ({
  page,
  baseURL,
}) => {
  // The other site: a page of no origin the store shares, which opens store pages as an attacker's page would.
  await page.goto('data:text/html,<title>elsewhere</title><p>elsewhere</p>');
  /** Opens `path` from that page and answers whether its window reference was cut once the page loaded. */
  const cutOff = async (path: string) => {
    const url = new URL(path, baseURL).href;
    const opened = page.context().waitForEvent('page', (p) => p.url() === url || p.url() === 'about:blank');
    await page.evaluate((target) => {
      (window as unknown as { opened: Window | null }).opened = window.open(target);
    }, url);
    const popup = await opened;
    await popup.waitForURL(url);
    await popup.waitForLoadState('load');
    const closed = await page.evaluate(() => (window as unknown as { opened: Window | null }).opened?.closed ?? null);
    await popup.close();
    return closed;
  };
  for (const path of ['/login', '/track', '/cart', '/orders', '/admin', '/sell-or-swap'])
    expect(await cutOff(path), `${path}: the opener's reference is closed`).toBe(true);
  // A catalogue page carries no policy (it holds nothing of the shopper's): the reference stays.
  expect(await cutOff('/about'), '/about keeps its opener').toBe(false);
});

test('HSTS is sent for the production host only', async ({ request }) => {
  const production = await request.get('/about', { headers: { host: 'gts.ng' } });
  expect(production.headers()['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  const local = await request.get('/about');
  expect(local.headers()['strict-transport-security']).toBeUndefined();
});

test('the 404 pages carry the same headers', async ({ request }) => {
  // An unknown path: the pre-rendered 404 page.
  const unknown = await request.get('/no/such/page');
  expect(unknown.status()).toBe(404);
  expectPageHeaders(unknown);
  expectScriptPolicy(policies(unknown).find((p) => p.includes('script-src')));
  expect(metaPolicy(await unknown.text())).toBeUndefined();
  // An unknown product: rendered by the Worker.
  const product = await request.get('/product/no-such-phone');
  expect(product.status()).toBe(404);
  expectPageHeaders(product);
  expectScriptPolicy(policies(product).find((p) => p.includes('script-src')));
});

test('a product page rendered on demand carries the headers and its own script policy', async ({ request, page, db }) => {
  db.insertProduct({
    id: 'tecno-pop-10-sec',
    name: 'Tecno Pop 10 (headers)',
    brand: 'Tecno',
    category: 'phones',
    description: 'An entry phone with a 6.67-inch screen and a 5,000 mAh battery.',
    priceKobo: 9_950_000,
    image: '/images/products/itel-a90.svg',
    stock: 7,
  });
  const response = await request.get('/product/tecno-pop-10-sec');
  expect(response.status()).toBe(200);
  expectPageHeaders(response);
  // Its own hashes as a header (no <meta>).
  expectScriptPolicy(policies(response).find((p) => p.includes('script-src')));
  expect(metaPolicy(await response.text())).toBeUndefined();

  // And the page works under it: the islands hydrate, nothing is blocked (the fixture checks).
  await page.goto('/product/tecno-pop-10-sec');
  await expect(page.getByRole('heading', { level: 1, name: 'Tecno Pop 10 (headers)' })).toBeVisible();
  // Hydrated first: a click before that submits the no-JavaScript form, which goes to /cart.
  await islandsHydrated(page);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Tecno Pop 10 (headers) added to cart' })).toBeVisible();
});

test("a visitor's or an admin's text shown back on a page is never allowed as a script or a style of it", async ({
  request,
  page,
  db,
}) => {
  const script = 'alert(document.cookie)';
  const style = '*{display:none}';
  const markup = `<script>${script}</script><style>${style}</style>`;
  db.insertProduct({
    id: 'tecno-pop-10-csp',
    name: `Tecno Pop 10 ${markup}`,
    brand: 'Tecno',
    category: 'phones',
    description: `An entry phone. ${markup}`,
    priceKobo: 9_950_000,
    image: '/images/products/itel-a90.svg',
    stock: 7,
  });
  // A search shown back in the page's title, its description, its canonical link and its box; a
  // product rendered from D1 with the markup in its name (its title, alt text, JSON-LD) and text.
  for (const path of [`/products?q=${encodeURIComponent(markup)}`, '/product/tecno-pop-10-csp']) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    expect(await response.text(), path).toContain(script);
    const policy = policies(response).find((p) => p.includes('script-src'))!;
    expect(policy, path).not.toContain(sha256(script));
    expect(policy, path).not.toContain(sha256(style));
    // Its own inline scripts (the theme, the starter) are still allowed, and the page works under it.
    expectScriptPolicy(policy);
    await page.goto(path);
    await islandsHydrated(page);
    expect(await page.evaluate(() => document.documentElement.style.colorScheme)).toMatch(/^(dark|light)$/);
  }
});

test('an API answer carries its own strict headers', async ({ request }) => {
  const response = await request.get('/api/products?limit=1');
  expect(response.status()).toBe(200);
  const headers = response.headers();
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['content-security-policy']).toBe(
    "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  );
  expect(headers['permissions-policy']).toBe(PAGE_SECURITY_HEADERS['Permissions-Policy']);
  expect(headers['strict-transport-security']).toBeUndefined();
});

test('the policy blocks an injected inline script, and the CSP fixture catches it', async ({ page, cspViolations }) => {
  await page.goto('/about');
  await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.injected = true';
    document.body.appendChild(script);
  });
  expect(await page.evaluate(() => 'injected' in window)).toBe(false);
  await expect.poll(() => cspViolations.join('\n')).toContain('script-src-elem blocked inline');
  // Expected in this test only: without this, the fixture would (rightly) fail it.
  cspViolations.length = 0;
});

test('no other site can frame the store', async ({ page, cspViolations, baseURL }) => {
  await page.setContent(`<iframe src="${baseURL}/about" title="store"></iframe>`);
  await expect.poll(() => cspViolations.join('\n')).toContain("frame-ancestors 'none'");
  // The frame shows Chromium's error page instead of the store.
  const frame = page.frames().find((f) => f !== page.mainFrame());
  expect(frame?.url()).toMatch(/^chrome-error:/);
  cspViolations.length = 0;
});
