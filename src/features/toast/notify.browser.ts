import { atom } from 'nanostores';

export type ToastKind = 'info' | 'success' | 'warning' | 'error';
export interface ToastMessage {
  kind: ToastKind;
  message: string;
}

/**
 * Toasts waiting for the outlet. Code that wants a toast does not import React or
 * react-toastify: it queues a message here, and the Toasts island (the only module
 * that knows react-toastify) shows and drains the queue, also when it hydrates after
 * the message was queued (it hydrates on idle).
 */
export const $pendingToasts = atom<readonly ToastMessage[]>([]);

/** Shows a toast (rendered by the Toasts island) and vibrates 200 ms where supported. */
export function notify(kind: ToastKind, message: string) {
  $pendingToasts.set([...$pendingToasts.get(), { kind, message }]);
  try {
    navigator.vibrate?.(200);
  } catch {
    // Some browsers throw when vibration is not allowed before a user gesture.
  }
}
