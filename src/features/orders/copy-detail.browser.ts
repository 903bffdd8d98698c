import { notify } from '../toast/notify.browser.ts';

/** How long a Copy button says Copied. */
export const COPIED_MS = 2_000;

/**
 * Copies one of an order's bank details and says so in a toast, or asks the shopper to copy it
 * themselves when the browser will not. True when it was copied. Used by the checkout's and the
 * account's Copy buttons (OrderParts.tsx) and /track's (track.browser.ts).
 */
export async function copyDetail(value: string, label: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(value);
    notify('success', `${label} copied`);
    return true;
  } catch {
    notify('warning', `Could not copy the ${label.toLowerCase()}. Please select it and copy it yourself.`);
    return false;
  }
}
