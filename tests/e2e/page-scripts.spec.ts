import { init, parse } from 'es-module-lexer';
import { expect, test } from './fixtures.ts';
import { islandsHydrated, listedScripts, scriptsRan } from './islands.ts';

/**
 * A page's module scripts start after its first paint, with every module they import preloaded
 * then, so the first screen waits for no script and a slow phone fetches them all at once rather
 * than one import level per round trip (issue 23; functions/platform/page-scripts.ts). Checked
 * against the built files as the browser gets them, read with es-module-lexer (the parser Vite
 * uses), not with the Worker's own reading: on a pre-rendered page (the build wrote the list), a
 * page the Worker renders (the listing, the cart), and a product page (the Worker serves the build's).
 */
const PAGES = ['/', '/about', '/products?category=phones', '/cart', '/product/sony-playstation-5-slim'];
/** Pages with a script of their own besides the frame's (BaseLayout's); the others have only the frame's. */
const OWN_SCRIPT = new Set(['/products?category=phones', '/cart', '/product/sony-playstation-5-slim']);

test.describe('page scripts', () => {
  for (const path of PAGES) {
    test(`${path}: no script before the first paint; its scripts listed with every module they import`, async ({ request }) => {
      await init;
      const html = await (await request.get(path)).text();
      // Nothing the browser would fetch while it reads the page: no module script, no preload.
      expect(html).not.toMatch(/<script\b[^>]*\btype="module"/);
      expect(html).not.toMatch(/<link\b[^>]*\brel="modulepreload"/);
      const { start, preload } = listedScripts(html);
      expect(start.length).toBeGreaterThan(0);

      const imported = new Set<string>();
      let level = [...start];
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
            if (imported.has(url) || start.includes(url)) continue;
            imported.add(url);
            next.push(url);
          }
        }
        level = next;
      }
      expect(imported.size, 'the scripts import modules').toBeGreaterThan(0);
      expect(new Set(preload)).toEqual(imported);
    });
  }

  test('a page starts with the frame script, and one script more only if it has its own behaviour', async ({ request }) => {
    const frames = new Set<string>();
    for (const path of PAGES) {
      const { start } = listedScripts(await (await request.get(path)).text());
      // The frame's first: the header answers before the page's own script runs.
      expect(start[0], path).toMatch(/\/BaseLayout\.astro_astro_type_script/);
      frames.add(start[0] ?? '');
      // Each component's own <script> would be one request more before the page settles (decision 004).
      expect(start, path).toHaveLength(OWN_SCRIPT.has(path) ? 2 : 1);
    }
    expect(frames.size, 'one frame script, the same file on every page').toBe(1);
  });

  for (const path of ['/products?category=phones', '/product/sony-playstation-5-slim', '/']) {
    test(`${path}: the browser asks for the scripts once the first content is shown, each module once`, async ({ page }) => {
      const fetched = new Map<string, number>();
      page.on('request', (r) => {
        const { pathname } = new URL(r.url());
        if (pathname.startsWith('/_astro/') && pathname.endsWith('.js')) fetched.set(pathname, (fetched.get(pathname) ?? 0) + 1);
      });
      await page.goto(path);
      await islandsHydrated(page);
      const timing = await page.evaluate(() => ({
        firstContent: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
        scripts: performance
          .getEntriesByType('resource')
          .filter((entry) => new URL(entry.name).pathname.startsWith('/_astro/') && entry.name.endsWith('.js'))
          .map((entry) => entry.startTime),
      }));
      expect(timing.scripts.length).toBeGreaterThan(0);
      expect(Math.min(...timing.scripts), 'the first script asked for after the first content').toBeGreaterThan(
        timing.firstContent,
      );
      const preloaded = await page
        .locator('link[rel="modulepreload"]')
        .evaluateAll((links) => links.map((l) => new URL((l as HTMLLinkElement).href).pathname));
      expect(preloaded.length).toBeGreaterThan(0);
      for (const module of preloaded) expect(fetched.get(module), module).toBe(1);
    });
  }

  test("the starter starts only the build's own files, from the list right before it", async ({ page }) => {
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') asked.push(r.url());
    });
    // Lists planted elsewhere in the page (a templating slip, say), before and after the starter, and
    // the page's own list made to name other files: the starter reads only the list right before
    // it, the one the build or the Worker put there, and takes only /_astro/ paths from it.
    await page.route('**/about', async (route) => {
      const response = await route.fetch();
      const html = await response.text();
      const { start, preload } = listedScripts(html);
      const planted = (list: object) => `<script type="application/json" data-page-scripts>${JSON.stringify(list)}</script>`;
      const elsewhere = planted({ start: ['/_astro/planted.js'], preload: ['/_astro/planted-import.js'] });
      const changed = html
        .replace('<head>', `<head>${elsewhere}`)
        .replace('<main', `${elsewhere}<main`)
        .replace(
          /<script type="application\/json" data-page-scripts>[^<]*<\/script>(?=<script>)/,
          planted({
            start: ['https://elsewhere.example/x.js', '/api/session', ...start],
            preload: ['//elsewhere.example/y.js', ...preload],
          }),
        );
      expect(changed.match(/data-page-scripts>/g)).toHaveLength(3);
      expect(changed).toContain('elsewhere.example/x.js');
      await route.fulfill({ response, body: changed });
    });
    await page.goto('/about');
    await scriptsRan(page);
    const paths = asked.map((url) => new URL(url));
    expect(
      paths.every((url) => url.origin === new URL(page.url()).origin && url.pathname.startsWith('/_astro/')),
      asked.join(' '),
    ).toBe(true);
    expect(asked.some((url) => url.includes('/_astro/planted'))).toBe(false);
    expect(asked.some((url) => /BaseLayout\.astro_astro_type_script/.test(url))).toBe(true);
  });

  test("the frame's start-up runs in turns, and the page is marked as scripted only after the last", async ({ page }) => {
    // Each turn the browser gives back is held for 300 ms and noted with the page's mark as it
    // was then: a mark set before the last turn (when the script had merely loaded) shows up here.
    await page.addInitScript(() => {
      const turns: (string | null)[] = [];
      (window as unknown as { __turns: typeof turns }).__turns = turns;
      const scheduler = (window as unknown as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
      if (!scheduler?.yield) return;
      const next = scheduler.yield.bind(scheduler);
      scheduler.yield = async () => {
        await next();
        await new Promise((resolve) => setTimeout(resolve, 300));
        turns.push(document.documentElement.getAttribute('data-scripts'));
      };
    });
    await page.goto('/about', { waitUntil: 'domcontentloaded' });
    await scriptsRan(page);
    const turns = await page.evaluate(() => (window as unknown as { __turns: (string | null)[] }).__turns);
    // The header's controls, then Add to Cart, the sign-up, the toasts, the badge, the app, the account links.
    expect(turns.length).toBeGreaterThanOrEqual(6);
    expect(turns.every((mark) => mark === null)).toBe(true);
    // The last turn's part works: the header shows the guest's Login once the Worker has answered.
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login' })).toBeVisible();
  });

  test('the scripts start in a browser without paint timing, at the first frame once the page is parsed', async ({ page }) => {
    // As an older Safari: no `paint` entry type to wait for.
    await page.addInitScript(() => {
      const types = PerformanceObserver.supportedEntryTypes.filter((type) => type !== 'paint');
      Object.defineProperty(PerformanceObserver, 'supportedEntryTypes', { value: Object.freeze(types) });
    });
    await page.goto('/about');
    await scriptsRan(page);
    expect(await page.evaluate(() => PerformanceObserver.supportedEntryTypes.includes('paint'))).toBe(false);
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login' })).toBeVisible();
  });

  test('the scripts start 2 s after the page is parsed when no first paint is reported', async ({ page }) => {
    // The browser never reports the paint: the starter's observer of it hears nothing.
    await page.addInitScript(() => {
      const observe = PerformanceObserver.prototype.observe;
      PerformanceObserver.prototype.observe = function (this: PerformanceObserver, options?: PerformanceObserverInit) {
        if (options?.type === 'paint') return;
        observe.call(this, options);
      };
      document.addEventListener('DOMContentLoaded', () => {
        (window as unknown as { __parsedAt: number }).__parsedAt = performance.now();
      });
    });
    await page.goto('/about');
    await scriptsRan(page);
    const { parsedAt, firstScriptAt } = await page.evaluate(() => ({
      parsedAt: (window as unknown as { __parsedAt: number }).__parsedAt,
      firstScriptAt: Math.min(
        ...performance
          .getEntriesByType('resource')
          .filter((entry) => new URL(entry.name).pathname.startsWith('/_astro/') && entry.name.endsWith('.js'))
          .map((entry) => entry.startTime),
      ),
    }));
    expect(firstScriptAt - parsedAt).toBeGreaterThanOrEqual(1900);
  });

  test('the scripts work once started: a filter applies in place', async ({ page }) => {
    await page.goto('/products?category=phones');
    await islandsHydrated(page);
    await page.getByRole('checkbox', { name: 'Apple' }).check();
    await expect(page).toHaveURL(/\/products\?category=phones&brand=Apple$/);
    await expect(page.getByRole('button', { name: 'Remove filter Apple' })).toBeVisible();
  });
});
