import { watchConnection } from './connection.browser.ts';
import { isInstalled } from './display-mode.browser.ts';
import { INSTALL_OFFER } from './install-offer.ts';
import type { BeforeInstallPromptEvent } from './install.browser.ts';

/**
 * The installable app's part of every page (Pwa.astro): plain code, no React, kept small;
 * everything else is loaded when it is needed, never while the page is loading.
 * - The offline notice follows the connection from the first moment; the theme-color follows the theme.
 * - A script chunk that fails to load after a deploy (its file is gone) reloads the page,
 *   once per tab session, so the shopper gets the new version instead of a dead button.
 * - The browser's install offer is held back at once, and the install banner is shown only
 *   after the shopper's first interaction with the page (a tap, a key, the wheel): it can
 *   then never be the page's largest paint, nor appear while the page is still loading.
 * - Once the page has settled (loaded, its islands hydrated, the browser idle), the service
 *   worker is registered (its install downloads the app shell) and, where they can do
 *   anything, notifications and the app badge start.
 */

const RELOADED_KEY = 'gtsChunkReloadAt';

/** A script chunk gone after a deploy reloads the page, once per tab session. */
function reloadForMissingChunks() {
  window.addEventListener('vite:preloadError', (event) => {
    // Offline, a script that fails to load is the connection, not a deploy: a reload would fail
    // too (or show the offline page) and lose what the shopper was doing. The caller's own
    // fallback applies, and the one reload is kept for a real deploy.
    if (!navigator.onLine) return;
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
}

// The browser's toolbar colour (and the installed app's title bar) follows the chosen theme.
const THEME_COLOURS = { dark: '#0b1016', light: '#f6f7f9' } as const;
function followThemeColour() {
  const themeColour = document.querySelector('meta[name="theme-color"]');
  const followTheme = () =>
    themeColour?.setAttribute(
      'content',
      document.documentElement.classList.contains('dark') ? THEME_COLOURS.dark : THEME_COLOURS.light,
    );
  followTheme();
  new MutationObserver(followTheme).observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
}

// ---------------------------------------------------------------- install offer

/** The browser's offer, held until the shopper has interacted with the page. */
let heldOffer: BeforeInstallPromptEvent | null = null;
let interacted = false;

function offerWhenReady() {
  const offer = heldOffer;
  if (!offer || !interacted) return;
  heldOffer = null;
  import('./install.browser.ts')
    .then((install) => install.offerInstall(offer))
    .catch((error: unknown) => console.warn('Install offer unavailable', error));
}

/**
 * The shopper's first tap, click, key or wheel turn: the inputs that also end the browser's
 * largest-paint measurement. Not `scroll`, which the browser fires by itself (restoring the
 * position on reload, following a #link); touch scrolling starts with a pointerdown.
 */
const INTERACTIONS = ['pointerdown', 'keydown', 'wheel'] as const;
const listening = { capture: true, passive: true } as const;
function onFirstInteraction() {
  interacted = true;
  for (const type of INTERACTIONS) window.removeEventListener(type, onFirstInteraction, listening);
  offerWhenReady();
}
function onInstallOffer(event: Event) {
  event.preventDefault();
  if (isInstalled()) return;
  heldOffer = event as BeforeInstallPromptEvent;
  offerWhenReady();
}
/** Holds the browser's install offer (this page's, or one the starter kept) until the first interaction. */
function holdInstallOffer() {
  for (const type of INTERACTIONS) window.addEventListener(type, onFirstInteraction, listening);
  window.addEventListener('beforeinstallprompt', onInstallOffer);
  // An offer the browser made before this script started (scripts start after the first paint):
  // the page's starter held it back and kept it here (functions/platform/page-scripts.ts).
  const earlyOffer = (window as unknown as Record<typeof INSTALL_OFFER, Event | undefined>)[INSTALL_OFFER];
  if (earlyOffer) onInstallOffer(earlyOffer);
  window.addEventListener('appinstalled', () => {
    heldOffer = null;
    import('./install.browser.ts').then((install) => install.forgetInstallOffer()).catch(() => undefined);
  });
}

// ---------------------------------------------------------------- after the page has settled

/** The longest wait for the page's islands before the service worker is registered anyway. */
const ISLANDS_WAIT_MS = 5000;

/**
 * Calls `then` once the page has loaded, the islands it hydrates at once (client:load and
 * client:idle; client:visible ones wait for the shopper) are running, and the browser is idle.
 */
function whenSettled(then: () => void) {
  const idle = () => {
    if ('requestIdleCallback' in window) window.requestIdleCallback(() => then(), { timeout: 2000 });
    else setTimeout(then, 200);
  };
  const afterLoad = () => {
    const pending = [...document.querySelectorAll('astro-island[ssr]')].filter((island) =>
      ['load', 'idle'].includes(island.getAttribute('client') ?? ''),
    );
    let left = pending.length;
    let done = false;
    const settle = () => {
      if (done) return;
      done = true;
      idle();
    };
    if (left === 0) return settle();
    for (const island of pending) island.addEventListener('astro:hydrate', () => --left === 0 && settle(), { once: true });
    setTimeout(settle, ISLANDS_WAIT_MS);
  };
  if (document.readyState === 'complete') afterLoad();
  else window.addEventListener('load', afterLoad, { once: true });
}

/** Once the page has settled: the service worker, then notifications and the app badge where they can do anything. */
function startWhenSettled() {
  whenSettled(() => {
    import('./register.browser.ts')
      .then((sw) => sw.registerServiceWorker())
      .catch((error: unknown) => console.error('Service worker registration failed', error));
    // Nothing to do without permission (asked for on a click, notifications.browser.ts) or app badges.
    const notificationsAllowed = typeof Notification !== 'undefined' && Notification.permission === 'granted';
    if (notificationsAllowed || 'setAppBadge' in navigator) {
      import('./notifications.browser.ts')
        .then((notifications) => {
          notifications.startNotifications();
          notifications.syncAppBadge();
        })
        .catch((error: unknown) => console.warn('Notifications unavailable', error));
    }
  });
}

/** The installable app's part of the frame's start-up (one of its turns: src/layouts/BaseLayout.astro). */
export function startPwa() {
  reloadForMissingChunks();
  watchConnection();
  followThemeColour();
  holdInstallOffer();
  startWhenSettled();
}
