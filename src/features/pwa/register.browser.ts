/// <reference types="vite-plugin-pwa/vanillajs" />
import { registerSW } from 'virtual:pwa-register';
import { showBanner } from './banner.browser.ts';

const UPDATE_BANNER_ID = 'pwa-update';

/**
 * Registers /sw.js (built from src/sw/sw.ts). A new version does not take over the open
 * page: it waits, and the shopper is offered "A new version is available — Reload".
 * Reload tells the waiting worker to take over (SKIP_WAITING) and reloads the page once it
 * has. A registration failure is logged and the page goes on without offline support.
 */
export function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return;
  let current: ServiceWorkerRegistration | undefined;
  // The new worker takes over, then the page reloads (also a page that opened before any
  // worker controlled it, which workbox-window would not reload). Nothing waiting: just reload.
  const takeUpdate = async () => {
    if (!current?.waiting) return window.location.reload();
    navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), { once: true });
    await updateServiceWorker(true);
  };
  const updateServiceWorker = registerSW({
    immediate: true,
    onNeedRefresh() {
      showBanner({
        id: UPDATE_BANNER_ID,
        label: 'Update',
        role: 'status',
        text: 'A new version is available',
        actions: [{ label: 'Reload', primary: true, onClick: () => void takeUpdate() }],
      });
    },
    onRegisteredSW(_url: string, registration: ServiceWorkerRegistration | undefined) {
      current = registration;
    },
    onRegisterError(error: unknown) {
      console.error('Service worker registration failed', error);
    },
  });
}
