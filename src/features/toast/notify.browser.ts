import { atom } from 'nanostores';

export type ToastKind = 'info' | 'success' | 'warning' | 'error';

/** A button inside the toast (e.g. 'Undo'); pressing it runs `onClick` and closes the toast. */
export interface ToastAction {
  label: string;
  onClick: () => void;
}

export interface ToastOptions {
  action?: ToastAction;
}

export interface ToastMessage extends ToastOptions {
  kind: ToastKind;
  message: string;
}

/**
 * Toasts waiting for the outlet. Code that wants a toast does not import React or
 * react-toastify: it queues a message here, and the outlet (ToastOutlet.tsx, the only module
 * that knows react-toastify) shows and drains the queue, including what was queued while it
 * loaded (toasts.browser.ts loads it with the first message).
 */
export const $pendingToasts = atom<readonly ToastMessage[]>([]);

/**
 * Shows a toast (rendered by the outlet, which the first toast loads) and vibrates 200 ms
 * where supported.
 * The same kind and message while that toast still shows refresh it instead of stacking a
 * second one (five Copy clicks, one toast). With `action`, the toast carries a button:
 * `notify('info', 'Phone removed from cart', { action: { label: 'Undo', onClick: restore } })`.
 */
export function notify(kind: ToastKind, message: string, options: ToastOptions = {}) {
  $pendingToasts.set([...$pendingToasts.get(), { kind, message, ...options }]);
  try {
    navigator.vibrate?.(200);
  } catch {
    // Some browsers throw when vibration is not allowed before a user gesture.
  }
}
