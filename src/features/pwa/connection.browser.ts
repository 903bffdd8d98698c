/**
 * The offline notice (Pwa.astro renders it hidden): shown while the browser is offline,
 * "You are offline — prices may have changed". Back online it goes, and the
 * `gts:reconnected` event tells islands to fetch live prices again (`onReconnect`).
 */
export const RECONNECTED_EVENT = 'gts:reconnected';

/** Calls `refresh` each time the connection comes back; returns the unsubscribe. */
export function onReconnect(refresh: () => void): () => void {
  window.addEventListener(RECONNECTED_EVENT, refresh);
  return () => window.removeEventListener(RECONNECTED_EVENT, refresh);
}

export function isOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

export function watchConnection() {
  const notice = document.querySelector<HTMLElement>('[data-offline-notice]');
  const update = () => {
    if (notice) notice.hidden = !isOffline();
    document.documentElement.toggleAttribute('data-offline', isOffline());
  };
  update();
  window.addEventListener('offline', update);
  window.addEventListener('online', () => {
    update();
    window.dispatchEvent(new Event(RECONNECTED_EVENT));
  });
}
