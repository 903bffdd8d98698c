import { init, parse } from 'es-module-lexer';
import { expect, test } from './fixtures.ts';
import { islandsHydrated } from './islands.ts';

/**
 * Every module a page's scripts import, however deep, is named by a modulepreload link, so a slow
 * phone fetches them at once rather than one import level per round trip (issue 23;
 * functions/platform/module-preloads.ts). Checked here against the built files as the browser gets
 * them, read with es-module-lexer (the parser Vite uses), not with the Worker's own reading: on a
 * pre-rendered page (the build wrote the links), a page the Worker renders (the listing, the cart),
 * and a product page (the Worker serves the build's).
 */
const PAGES = ['/', '/about', '/products?category=phones', '/cart', '/product/sony-playstation-5-slim'];
/** Pages with a script of their own besides the frame's (BaseLayout's); the others have only the frame's. */
const OWN_SCRIPT = new Set(['/products?category=phones', '/cart', '/product/sony-playstation-5-slim']);

const attribute = (tag: string, name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];

test.describe('module preloads', () => {
  for (const path of PAGES) {
    test(`${path}: a modulepreload link for each module its scripts import, after the content`, async ({ request }) => {
      await init;
      const html = await (await request.get(path)).text();
      const tags = html.match(/<(?:script|link)\b[^>]*>/g) ?? [];
      const scripts = tags
        .filter((t) => t.startsWith('<script') && attribute(t, 'type') === 'module')
        .map((t) => attribute(t, 'src'));
      const preloads = tags.filter((t) => attribute(t, 'rel') === 'modulepreload').map((t) => attribute(t, 'href'));
      expect(scripts.length).toBeGreaterThan(0);

      const imported = new Set<string>();
      let level = scripts.filter((s): s is string => s !== undefined);
      while (level.length > 0) {
        const next: string[] = [];
        for (const module of level) {
          const response = await request.get(module);
          expect(response.status(), module).toBe(200);
          const [imports] = parse(await response.text());
          // Static imports only (d === -1): what a script loads on demand is not preloaded.
          for (const { n, d } of imports) {
            if (d !== -1 || !n) continue;
            const url = new URL(n, `http://x${module}`).pathname;
            if (imported.has(url) || scripts.includes(url)) continue;
            imported.add(url);
            next.push(url);
          }
        }
        level = next;
      }
      expect(imported.size, 'the scripts import modules').toBeGreaterThan(0);
      expect(new Set(preloads)).toEqual(imported);
      // After the page's content: its pictures are asked for before the scripts' modules.
      expect(html.indexOf('rel="modulepreload"')).toBeGreaterThan(html.indexOf('</main>'));
    });
  }

  test('a page starts with the frame script, and one script more only if it has its own behaviour', async ({ request }) => {
    const frames = new Set<string>();
    for (const path of PAGES) {
      const html = await (await request.get(path)).text();
      const scripts = (html.match(/<script\b[^>]*\btype="module"[^>]*>/g) ?? []).map((t) => attribute(t, 'src'));
      const frame = scripts.filter((src) => src?.includes('/BaseLayout.astro_astro_type_script'));
      expect(frame, path).toHaveLength(1);
      frames.add(frame[0] ?? '');
      // Each component's own <script> would be one request more before the page settles (decision 004).
      expect(scripts, path).toHaveLength(OWN_SCRIPT.has(path) ? 2 : 1);
    }
    expect(frames.size, 'one frame script, the same file on every page').toBe(1);
  });

  test('the browser fetches each module once: the preloaded copy is the one the scripts use', async ({ page }) => {
    const fetched = new Map<string, number>();
    page.on('request', (r) => {
      const { pathname } = new URL(r.url());
      if (pathname.startsWith('/_astro/') && pathname.endsWith('.js')) fetched.set(pathname, (fetched.get(pathname) ?? 0) + 1);
    });
    await page.goto('/products?category=phones');
    await islandsHydrated(page);
    const preloaded = await page
      .locator('link[rel="modulepreload"]')
      .evaluateAll((links) => links.map((l) => new URL((l as HTMLLinkElement).href).pathname));
    expect(preloaded.length).toBeGreaterThan(0);
    for (const module of preloaded) expect(fetched.get(module), module).toBe(1);
    // And the page works from them: a filter applies in place.
    await page.getByRole('checkbox', { name: 'Apple' }).check();
    await expect(page).toHaveURL(/\/products\?category=phones&brand=Apple$/);
    await expect(page.getByRole('button', { name: 'Remove filter Apple' })).toBeVisible();
  });
});
