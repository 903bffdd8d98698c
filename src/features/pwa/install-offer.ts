/**
 * Where the page's starter keeps an install offer (`beforeinstallprompt`) the browser made before
 * the page's scripts started (functions/platform/page-scripts.ts); pwa.browser.ts takes it from
 * there. A module of its own: the frame's script and the Worker share it, and nothing else.
 */
export const INSTALL_OFFER = 'gtsInstallOffer';
