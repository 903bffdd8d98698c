import { expect, type Page } from '@playwright/test';

/**
 * Waits until every island on the page has hydrated (Astro drops the `ssr` attribute then), and
 * the plain scripts of the product page, the listing, /cart, /track, /login and /sell-or-swap have taken them over. Islands hydrate late by design
 * (client:idle), so a test that types into one straight after navigating would otherwise race
 * its hydration.
 */
export async function islandsHydrated(page: Page) {
  await expect(page.locator('astro-island[ssr]:not([client="visible"])')).toHaveCount(0);
  // The product page and the listing have no island: their plain scripts mark what they took over.
  await expect(
    page.locator(
      'form[data-product-form]:not([data-ready]), [data-listing]:not([data-ready]), [data-cart]:not([data-ready]), [data-track]:not([data-ready]), [data-login]:not([data-ready]), form[data-trade-in]:not([data-ready])',
    ),
  ).toHaveCount(0);
}
