import { callApi } from '../../lib/api-client.browser.ts';
import { hideBanner, showBanner } from './banner.browser.ts';
import { deviceId } from './device-id.browser.ts';
import { isInstalled } from './display-mode.browser.ts';
import { installApi } from './install-api.ts';

/** Chromium's install offer (not in TypeScript's DOM library). */
export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed'; platform?: string }>;
}

const BANNER_ID = 'pwa-install';
/** Set once this device dismissed or used the offer (seed spec §4: "records the dismissal locally"). */
const DISMISSED_KEY = 'gtsInstallDismissed';

/** The browser's offer, held back until the shopper asks for it, then cleared (it can be used once). */
let held: BeforeInstallPromptEvent | null = null;

function dismissedHere(): boolean {
  try {
    return localStorage.getItem(DISMISSED_KEY) !== null;
  } catch {
    return false;
  }
}

/** Records the dismissal on this device and with the server; a failure is logged, never shown. */
async function recordDismissal() {
  try {
    localStorage.setItem(DISMISSED_KEY, String(Date.now()));
  } catch {
    // Storage blocked: the server still knows.
  }
  try {
    await callApi(installApi.dismiss, { body: { deviceId: deviceId() } });
  } catch (error) {
    console.warn('Could not record the install dismissal', error);
  }
}

/** Shows the held install offer; true when the shopper accepted. The offer is cleared either way. */
export async function installApp(): Promise<boolean> {
  const offer = held;
  held = null;
  if (!offer) return false;
  await offer.prompt();
  const { outcome } = await offer.userChoice;
  return outcome === 'accepted';
}

/**
 * The install banner (seed spec §4): shown when the server says so for this device, the app
 * is not installed, the browser offers installation and this device has not dismissed it.
 * If the check fails, it shows (§8: installable and not installed is enough). pwa.browser.ts
 * calls this only after the shopper's first interaction with the page, so the check and the
 * banner never compete with the page's loading or become its largest paint.
 */
export async function offerInstall(offer: BeforeInstallPromptEvent) {
  held = offer;
  if (isInstalled() || dismissedHere()) return;
  let shouldShow = true;
  try {
    shouldShow = (await callApi(installApi.check, { params: { deviceId: deviceId() } })).shouldShowPrompt;
  } catch (error) {
    console.warn('Install check failed: offering the install anyway', error);
  }
  if (!shouldShow || !held) return;
  showBanner({
    id: BANNER_ID,
    label: 'Install the app',
    text: 'Install GTS: it opens at once and keeps what you looked at for when the signal drops.',
    actions: [
      {
        label: 'Install',
        primary: true,
        onClick: () => {
          hideBanner(BANNER_ID);
          void recordDismissal();
          installApp().catch((error: unknown) => console.warn('The install offer failed', error));
        },
      },
      {
        label: 'Dismiss',
        onClick: () => {
          hideBanner(BANNER_ID);
          held = null;
          void recordDismissal();
        },
      },
    ],
  });
}

/** Installed from the browser's own menu: the banner has nothing left to offer. */
export function forgetInstallOffer() {
  held = null;
  hideBanner(BANNER_ID);
}
