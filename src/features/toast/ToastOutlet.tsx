import { useEffect } from 'react';
import { ToastContainer, toast } from 'react-toastify/unstyled'; // its CSS below, not a <style> the CSP would block
import 'react-toastify/dist/ReactToastify.css';
import { $pendingToasts } from './notify.browser.ts';

/**
 * The toast outlet (decisions.md: top-right, 5 s, progress bar, pause on hover, draggable, Alt+T).
 * It shows what `notify()` queued, and everything queued after. Loaded by Toasts.tsx
 * when the first toast is queued.
 */
export default function ToastOutlet() {
  useEffect(
    () =>
      $pendingToasts.subscribe((pending) => {
        if (!pending.length) return;
        $pendingToasts.set([]);
        for (const { kind, message } of pending) toast[kind](message);
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
