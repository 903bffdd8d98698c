import { watchConnection } from './connection.browser.ts';
import type { BeforeInstallPromptEvent } from './install.browser.ts';

/**
 * The installable app's part of every page (Pwa.astro): plain code, no React, most of it
 * loaded after the page has loaded.
 * - The offline notice follows the connection from the first moment; the theme-color follows the theme.
 * - A script chunk that fails to load after a deploy (its file is gone) reloads the page,
 *   once per tab session, so the shopper gets the new version instead of a dead button.
 * - The browser's install offer is held back at once and handed to the install banner.
 * - After load: the service worker is registered, and notifications and the app badge start.
 */

const RELOADED_KEY = 'gtsChunkReloadAt';

window.addEventListener('vite:preloadError', (event) => {
  let reloadedBefore = false;
  try {
    reloadedBefore = sessionStorage.getItem(RELOADED_KEY) !== null;
    if (!reloadedBefore) sessionStorage.setItem(RELOADED_KEY, String(Date.now()));
  } catch {
    reloadedBefore = true; // no storage: no way to tell a second failure, so no reload loop
  }
  if (reloadedBefore) {
    console.error('A script failed to load again after a reload', (event as Event & { payload?: unknown }).payload);
    return;
  }
  event.preventDefault();
  window.location.reload();
});

watchConnection();

// The browser's toolbar colour (and the installed app's title bar) follows the chosen theme.
const THEME_COLOURS = { dark: '#0b1016', light: '#f6f7f9' } as const;
const themeColour = document.querySelector('meta[name="theme-color"]');
const followTheme = () =>
  themeColour?.setAttribute(
    'content',
    document.documentElement.classList.contains('dark') ? THEME_COLOURS.dark : THEME_COLOURS.light,
  );
followTheme();
new MutationObserver(followTheme).observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });

window.addEventListener('beforeinstallprompt', (event) => {
  event.preventDefault();
  import('./install.browser.ts')
    .then((install) => install.offerInstall(event as BeforeInstallPromptEvent))
    .catch((error: unknown) => console.warn('Install offer unavailable', error));
});
window.addEventListener('appinstalled', () => {
  import('./install.browser.ts').then((install) => install.forgetInstallOffer()).catch(() => undefined);
});

function afterLoad() {
  import('./register.browser.ts')
    .then((sw) => sw.registerServiceWorker())
    .catch((error: unknown) => console.error('Service worker registration failed', error));
  import('./notifications.browser.ts')
    .then((notifications) => {
      notifications.startNotifications();
      notifications.syncAppBadge();
    })
    .catch((error: unknown) => console.warn('Notifications unavailable', error));
}

if (document.readyState === 'complete') afterLoad();
else window.addEventListener('load', afterLoad, { once: true });
