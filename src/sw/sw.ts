/**
 * The store's service worker, served at /sw.js (docs/decisions/015-service-worker-and-offline.md).
 * Built by @vite-pwa/astro (injectManifest): the precache manifest placeholder becomes the list of files
 * to pre-cache (astro.config.mjs: the app shell, core pages, icons). Type-checked on its own
 * with the WebWorker library: tsconfig/sw.json.
 *
 * - Pre-cached pages and scripts answer from the cache: the app opens at once and offline.
 * - Product pages and product images the shopper opened are kept at run time, capped.
 * - GET /api/products* goes to the network first; offline, the last answer is used.
 * - Every other /api/* request, and every write, goes straight to the network: nothing
 *   is cached or replayed later.
 * - A navigation that fails offline to a page never kept gets the offline page.
 * - A new version waits until the page asks it to take over (the "new version" banner).
 * - Notifications: SCHEDULE_NOTIFICATION / CANCEL_NOTIFICATION messages; a click opens /cart.
 */
import { clientsClaim } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, matchPrecache, type PrecacheEntry, precacheAndRoute } from 'workbox-precaching';
import { registerRoute, setCatchHandler } from 'workbox-routing';
import { CacheFirst, NetworkFirst, NetworkOnly } from 'workbox-strategies';
import {
  isToServiceWorker,
  MAX_SW_DELAY_MS,
  NOTIFICATION_ICON,
  type NotificationRequest,
  notificationTarget,
} from '../features/pwa/sw-messages.ts';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | PrecacheEntry)[] };

/** Caches filled at run time, each capped so a phone's storage is not eaten. */
const PAGES_CACHE = 'gts-pages';
const IMAGES_CACHE = 'gts-product-images';
const API_CACHE = 'gts-api-products';
const OFFLINE_PAGE = '/offline';

/** Only complete answers are kept (not a 404 page, an error or a redirect). */
const okOnly = {
  cacheWillUpdate: async ({ response }: { response: Response }) =>
    response.status === 200 && response.type === 'basic' ? response : null,
};

// The pre-cached files; a pre-cached page with a query (/track?order=…) is the same page (its island reads the query).
precacheAndRoute(self.__WB_MANIFEST, { ignoreURLParametersMatching: [/.*/] });
cleanupOutdatedCaches();
// The first install takes over open pages at once; an update waits for SKIP_WAITING.
clientsClaim();

const sameOrigin = (url: URL) => url.origin === self.location.origin;

/** The pages kept for offline use (product pages, listings): one limit for the one cache. */
const keepPages = new ExpirationPlugin({ maxEntries: 40, maxAgeSeconds: 14 * 24 * 3600, purgeOnQuotaError: true });

// Product pages the shopper opened: fresh when the network answers within 4 s, the kept copy otherwise.
registerRoute(
  ({ request, url }) => request.mode === 'navigate' && sameOrigin(url) && url.pathname.startsWith('/product/'),
  new NetworkFirst({
    cacheName: PAGES_CACHE,
    networkTimeoutSeconds: 4,
    plugins: [okOnly, keepPages],
  }),
);

// The listing renders in the Worker for each URL (/products?category=phones shows phones in its
// HTML, its heading, filters and count), so it is never served from the pre-cache: fresh from the
// network, and offline the same listing kept, filters and all. Another listing's copy is not
// served for it (it would show phones under /products?category=laptops): that one is the offline
// page, like any page not saved yet.
registerRoute(
  ({ request, url }) => request.mode === 'navigate' && sameOrigin(url) && url.pathname === '/products',
  new NetworkFirst({
    cacheName: PAGES_CACHE,
    networkTimeoutSeconds: 4,
    plugins: [okOnly, keepPages],
  }),
);

// Any other page not pre-cached (the account pages, /brands…): the network only; offline, the catch handler's offline page.
registerRoute(
  ({ request, url }) => request.mode === 'navigate' && sameOrigin(url) && !url.pathname.startsWith('/api/'),
  new NetworkOnly(),
);

// Product images the shopper saw: they change only with a new file name.
registerRoute(
  ({ request, url }) => request.destination === 'image' && sameOrigin(url) && url.pathname.startsWith('/images/'),
  new CacheFirst({
    cacheName: IMAGES_CACHE,
    plugins: [okOnly, new ExpirationPlugin({ maxEntries: 60, maxAgeSeconds: 30 * 24 * 3600, purgeOnQuotaError: true })],
  }),
);

// Prices and stock: always D1's when the network answers; offline (or after 8 s), the last answer.
registerRoute(
  ({ url }) => sameOrigin(url) && (url.pathname === '/api/products' || url.pathname.startsWith('/api/products/')),
  new NetworkFirst({
    cacheName: API_CACHE,
    networkTimeoutSeconds: 8,
    plugins: [okOnly, new ExpirationPlugin({ maxEntries: 60, maxAgeSeconds: 7 * 24 * 3600, purgeOnQuotaError: true })],
  }),
  'GET',
);

// A page that could not be fetched and was not kept: the offline page (pre-cached).
setCatchHandler(async ({ request }) => {
  if (request.mode === 'navigate') return (await matchPrecache(OFFLINE_PAGE)) ?? Response.error();
  return Response.error();
});

// ---------------------------------------------------------------- notifications

const timers = new Map<string, ReturnType<typeof setTimeout>>();

function show({ title, body, tag, url }: NotificationRequest) {
  return self.registration.showNotification(title, {
    body,
    tag,
    icon: NOTIFICATION_ICON,
    badge: NOTIFICATION_ICON,
    data: { url: notificationTarget(url, self.location.origin) },
    // 200 ms where supported (Android); `vibrate` is not in every browser's NotificationOptions type.
    ...({ vibrate: [200] } as NotificationOptions),
  });
}

self.addEventListener('message', (event) => {
  const message: unknown = event.data;
  if (!isToServiceWorker(message)) return;
  switch (message.type) {
    case 'SKIP_WAITING':
      void self.skipWaiting();
      return;
    case 'CANCEL_NOTIFICATION': {
      clearTimeout(timers.get(message.tag));
      timers.delete(message.tag);
      event.waitUntil(
        self.registration.getNotifications({ tag: message.tag }).then((shown) => {
          for (const notification of shown) notification.close();
        }),
      );
      return;
    }
    case 'SCHEDULE_NOTIFICATION': {
      clearTimeout(timers.get(message.tag));
      const delay = Math.min(Math.max(0, message.delay), MAX_SW_DELAY_MS);
      // waitUntil keeps the worker alive for the (short) wait; long waits are the page's (sw-messages.ts).
      event.waitUntil(
        new Promise<void>((resolve) => {
          timers.set(
            message.tag,
            setTimeout(() => {
              timers.delete(message.tag);
              show(message).then(resolve, (error: unknown) => {
                console.error('Could not show a notification', error);
                resolve();
              });
            }, delay),
          );
        }),
      );
      return;
    }
  }
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data: unknown = event.notification.data;
  const path = notificationTarget(
    typeof data === 'object' && data && 'url' in data ? String(data.url) : undefined,
    self.location.origin,
  );
  const target = new URL(path, self.location.origin).href;
  // The cart's tab if one is open; a new one otherwise.
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(async (windows) => {
      const open = windows.find((w) => w.url === target);
      if (open) await open.focus();
      else await self.clients.openWindow(target);
    }),
  );
});
