import type { ToServiceWorker } from './sw-messages.ts';

const UPDATE_BANNER_ID = 'pwa-update';

/**
 * Registers /sw.js (built from src/sw/sw.ts). Loaded by pwa.browser.ts once the page has
 * settled, so the worker's install (it pre-caches the app shell) does not compete with the
 * page's own loading. Plain code on the ServiceWorker API (no workbox-window).
 *
 * A new version does not take over the open page: it waits, and the shopper is offered
 * "A new version is available — Reload". Reload tells the waiting worker to take over
 * (SKIP_WAITING) and reloads the page once it has. The first install needs no offer: the
 * worker claims the open pages itself (clientsClaim in sw.ts). A registration failure is
 * logged and the page goes on without offline support.
 */
export async function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return;
  let registration: ServiceWorkerRegistration | undefined;
  try {
    registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  } catch (error) {
    console.error('Service worker registration failed', error);
    return;
  }
  // A browser with service workers switched off (a policy, an automated test) may answer with nothing.
  if (!registration) {
    console.warn('Service workers are switched off in this browser');
    return;
  }
  offerUpdates(registration);
}

/**
 * Offers each new version that finishes installing while an older one controls the page.
 * An update may have started (or finished) before this runs (the browser checks for one on
 * every navigation), so the installing and waiting workers are looked at too.
 */
function offerUpdates(registration: ServiceWorkerRegistration) {
  const offer = () => {
    if (!registration.waiting || !navigator.serviceWorker.controller) return;
    import('./banner.browser.ts')
      .then(({ showBanner }) =>
        showBanner({
          id: UPDATE_BANNER_ID,
          label: 'Update',
          role: 'status',
          text: 'A new version is available',
          actions: [{ label: 'Reload', primary: true, onClick: () => takeUpdate(registration) }],
        }),
      )
      .catch((error: unknown) => console.warn('Could not offer the new version', error));
  };
  const follow = (worker: ServiceWorker | null) => {
    worker?.addEventListener('statechange', () => {
      if (worker.state === 'installed') offer();
    });
  };
  offer();
  follow(registration.installing);
  registration.addEventListener('updatefound', () => follow(registration.installing));
}

/** The waiting worker takes over, then the page reloads (at once when nothing is waiting any more). */
function takeUpdate(registration: ServiceWorkerRegistration) {
  const waiting = registration.waiting;
  if (!waiting) {
    window.location.reload();
    return;
  }
  navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), { once: true });
  const message: ToServiceWorker = { type: 'SKIP_WAITING' };
  waiting.postMessage(message);
}
