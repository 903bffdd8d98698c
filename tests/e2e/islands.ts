import { type BrowserContext, expect, type Page } from '@playwright/test';

/**
 * Waits until the page's scripts have run, every island on the page has hydrated (Astro drops the `ssr` attribute then), and
 * the plain scripts of the product page, the listing, /cart, /track, /login and /sell-or-swap have taken them over. Islands hydrate late by design
 * (client:idle), so a test that types into one straight after navigating would otherwise race
 * its hydration.
 */
export async function islandsHydrated(page: Page) {
  await scriptsRan(page);
  await expect(page.locator('astro-island[ssr]:not([client="visible"])')).toHaveCount(0);
  // The product page and the listing have no island: their plain scripts mark what they took over.
  await expect(
    page.locator(
      'form[data-product-form]:not([data-ready]), [data-listing]:not([data-ready]), [data-cart]:not([data-ready]), [data-track]:not([data-ready]), [data-login]:not([data-ready]), form[data-trade-in]:not([data-ready])',
    ),
  ).toHaveCount(0);
}

/**
 * Waits until the page's module scripts have run: they start after its first paint
 * (functions/platform/page-scripts.ts), so a test that dispatches an event straight after
 * navigating would otherwise reach the page before its listeners.
 */
export async function scriptsRan(page: Page) {
  await expect(page.locator('html')).toHaveAttribute('data-scripts', 'ran');
}

/**
 * The module scripts a page starts after its first paint and the modules it preloads then, as the
 * page lists them (functions/platform/page-scripts.ts): its HTML has no script tag of its own for them.
 */
export function listedScripts(html: string): { start: string[]; preload: string[] } {
  const block = /<script type="application\/json" data-page-scripts>([^<]*)<\/script>/.exec(html)?.[1];
  return block ? JSON.parse(block) : { start: [], preload: [] };
}

/** A page's navigations, each of which loads a new document whose scripts start after its first paint. */
const NAVIGATIONS = ['goto', 'reload', 'goBack', 'goForward'] as const;
const waiting = new WeakSet<Page>();

/**
 * Makes every page of the context (those it has and those it opens) wait, in `goto`, `reload`,
 * `goBack` and `goForward`, until the new document's listed scripts have run: the moment a
 * shopper's tap on a scripted control (a menu, a form's own checks) does what the page says.
 * A test that acts straight after navigating would otherwise race the scripts (they start after
 * the first paint: functions/platform/page-scripts.ts), and lose on a busy machine.
 *
 * A navigation with `waitUntil: 'commit'` or `'domcontentloaded'` does not wait: that is how a
 * test reaches a page before its scripts (a tap before they run, an offer they must not miss).
 * A page without a list (JSON, a page with no module script) has nothing to wait for. Only for
 * contexts with JavaScript: without it, the scripts never run.
 */
export function navigationsWaitForScripts(context: BrowserContext) {
  for (const page of context.pages()) waitOnNavigations(page);
  context.on('page', waitOnNavigations);
}

function waitOnNavigations(page: Page) {
  if (waiting.has(page)) return;
  waiting.add(page);
  for (const name of NAVIGATIONS) {
    const navigate = page[name].bind(page) as (...args: unknown[]) => ReturnType<Page['goto']>;
    Object.assign(page, {
      [name]: async (...args: unknown[]) => {
        const response = await navigate(...args);
        const options = args.find((arg): arg is { waitUntil?: string } => typeof arg === 'object' && arg !== null);
        if (options?.waitUntil !== 'commit' && options?.waitUntil !== 'domcontentloaded') {
          await expect(page.locator('html:has(script[data-page-scripts]):not([data-scripts="ran"])')).toHaveCount(0);
        }
        return response;
      },
    });
  }
}
