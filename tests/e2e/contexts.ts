import type { Browser, BrowserContext, Page } from '@playwright/test';
import { navigationsWaitForScripts } from './islands.ts';

/*
 * Playwright blocks service workers (playwright.config.ts), and then `register()` answers
 * undefined: src/features/pwa/register.browser.ts reads `.waiting` of it, the error reaches
 * Vite's 'vite:preloadError', and pwa.browser.ts reloads the page once, about a second after
 * load (every page), which can pull the page from under a step. Here the registration fails
 * the way a browser's refusal does, so the page logs it and stays.
 */
export async function quietServiceWorker(context: BrowserContext) {
  await context.addInitScript(() => {
    if ('serviceWorker' in navigator)
      navigator.serviceWorker.register = () => Promise.reject(new Error('Service workers are off in these tests'));
  });
}

/** Another browser (the shopper beside the admin, or the reverse): its own cookies and storage. */
export async function otherBrowser(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({ baseURL, serviceWorkers: 'block' });
  await quietServiceWorker(context);
  navigationsWaitForScripts(context);
  return context.newPage();
}
