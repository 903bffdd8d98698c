/**
 * Whether the store already runs as the installed app: the window is not a browser tab
 * (the manifest asks for `standalone`; fullscreen and minimal-ui are installed apps too), or
 * iOS Safari's home-screen app (`navigator.standalone`). An installed app is never offered
 * to be installed. Kept apart from install.browser.ts so every page can ask without loading it.
 */
const INSTALLED_DISPLAY_MODES = '(display-mode: standalone), (display-mode: fullscreen), (display-mode: minimal-ui)';

export function isInstalled(): boolean {
  return window.matchMedia(INSTALLED_DISPLAY_MODES).matches || (navigator as { standalone?: boolean }).standalone === true;
}
