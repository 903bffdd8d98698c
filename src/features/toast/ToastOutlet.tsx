import { useEffect } from 'react';
// Unstyled: its CSS is a file toasts.browser.ts links with this module, not a <style> the CSP would block.
import { ToastContainer, toast, type ToastContentProps } from 'react-toastify/unstyled';
import { $pendingToasts, type ToastAction, type ToastMessage } from './notify.browser.ts';

/** How long a toast with a button stays: long enough to find and press it (it pauses on hover and focus). */
const ACTION_TOAST_MS = 10_000;

/**
 * The toast outlet (decisions.md: top-right, 5 s, progress bar, pause on hover, draggable, Alt+T).
 * It shows what `notify()` queued, and everything queued after. Loaded by toasts.browser.ts
 * when the first toast is queued. Toasts sit below the sticky header (ToastOutlet.css)
 * in the store's colours.
 */
export default function ToastOutlet() {
  useEffect(
    () =>
      $pendingToasts.subscribe((pending) => {
        if (!pending.length) return;
        $pendingToasts.set([]);
        for (const message of pending) show(message);
      }),
    [],
  );
  return (
    <ToastContainer
      position="top-right"
      autoClose={5000}
      closeOnClick
      pauseOnHover
      draggable
      hotKeys={(e) => e.altKey && e.code === 'KeyT'}
      theme="colored"
    />
  );
}

/** The toast now showing each kind and message (`kind:message` → its toast's id). */
const showing = new Map<string, string>();
let serial = 0;

/**
 * One toast per kind and message: the same message again while it shows refreshes that
 * toast (its text, its button's action, its timer) instead of stacking another. Once it
 * closes, the message gets a new toast with a new id (react-toastify drops a toast whose id
 * is still leaving the screen).
 */
function show({ kind, message, action }: ToastMessage) {
  const key = `${kind}:${message}`;
  const options = { type: kind, autoClose: action ? ACTION_TOAST_MS : 5000, data: { message, action } } as const;
  const content = action ? ToastWithAction : message;
  const current = showing.get(key);
  if (current !== undefined && toast.isActive(current)) {
    toast.update(current, { ...options, render: content });
    return;
  }
  const toastId = `${key}#${++serial}`;
  showing.set(key, toastId);
  toast(content, {
    ...options,
    toastId,
    onClose: () => {
      if (showing.get(key) === toastId) showing.delete(key);
    },
  });
}

/** A toast's text with its button (e.g. 'Undo'): the action runs once, then the toast closes. */
function ToastWithAction({ closeToast, data }: ToastContentProps<{ message: string; action?: ToastAction }>) {
  return (
    <div className="toast-with-action">
      <span>{data.message}</span>
      {data.action && (
        <button
          type="button"
          className="toast-action"
          onClick={(event) => {
            // Not also the toast's own close-on-click.
            event.stopPropagation();
            data.action?.onClick();
            closeToast(true);
          }}
        >
          {data.action.label}
        </button>
      )}
    </div>
  );
}
