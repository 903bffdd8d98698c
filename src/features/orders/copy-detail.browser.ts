import { notify } from '../toast/notify.browser.ts';

/** How long a Copy button says Copied. */
export const COPIED_MS = 2_000;

/**
 * Copies one of an order's bank details and says so in a toast, or asks the shopper to copy it
 * themselves when the browser will not. True when it was copied. Used by the checkout's and the
 * account's Copy buttons (OrderParts.tsx), and through copyFromButton by the plain scripts'.
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

/**
 * A Copy button drawn by the Worker or the build (OrderParts.tsx's CopyButton markup: `data-copy`,
 * `data-label`, an `aria-live` word), used by a plain script (/track, /cart): copies, then says
 * Copied for a moment.
 */
export async function copyFromButton(button: HTMLButtonElement) {
  if (!(await copyDetail(button.dataset.copy ?? '', button.dataset.label ?? 'Detail'))) return;
  const said = button.querySelector('[aria-live]');
  button.dataset.copied = '';
  if (said) said.textContent = 'Copied';
  clearTimeout(Number(button.dataset.copiedTimer));
  button.dataset.copiedTimer = String(
    setTimeout(() => {
      delete button.dataset.copied;
      if (said) said.textContent = 'Copy';
    }, COPIED_MS),
  );
}
