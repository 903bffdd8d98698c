import { type ComponentType, lazy, Suspense, useEffect, useState } from 'react';
import { $pendingToasts } from './notify.browser.ts';

// react-toastify (about 8 KB gzip with its CSS) loads with the first toast, not with every
// page that might show one. If it cannot load (offline), the toast is lost, never the page.
const NoOutlet: ComponentType = () => null;
const ToastOutlet = lazy(
  (): Promise<{ default: ComponentType }> => import('./ToastOutlet.tsx').catch(() => ({ default: NoOutlet })),
);

/** The island that mounts the toast outlet once something is queued with `notify()`. */
export default function Toasts() {
  const [wanted, setWanted] = useState(false);
  useEffect(
    () =>
      $pendingToasts.subscribe((pending) => {
        if (pending.length > 0) setWanted(true);
      }),
    [],
  );
  return wanted ? (
    <Suspense fallback={null}>
      <ToastOutlet />
    </Suspense>
  ) : null;
}
