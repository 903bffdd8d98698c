import { toast, type ToastOptions } from 'react-toastify';

type Kind = 'info' | 'success' | 'warning' | 'error';

/** Shows a toast (rendered by the Toasts island) and vibrates 200 ms where supported. */
export function notify(kind: Kind, message: string, options?: ToastOptions) {
  toast[kind](message, options);
  try {
    navigator.vibrate?.(200);
  } catch {
    // Some browsers throw when vibration is not allowed before a user gesture.
  }
}
