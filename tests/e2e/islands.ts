import { expect, type Page } from '@playwright/test';

/**
 * Waits until every island on the page has hydrated (Astro drops the `ssr` attribute then), and
 * the product page's plain script has taken its buy form. Islands hydrate late by design
 * (client:idle), so a test that types into one straight after navigating would otherwise race
 * its hydration.
 */
export async function islandsHydrated(page: Page) {
  await expect(page.locator('astro-island[ssr]:not([client="visible"])')).toHaveCount(0);
  // The product page has no island: its plain script marks the buy form when it answers.
  await expect(page.locator('form[data-product-form]:not([data-ready])')).toHaveCount(0);
}
