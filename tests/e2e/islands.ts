import { expect, type Page } from '@playwright/test';

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
