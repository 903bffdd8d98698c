import toastifyCss from 'react-toastify/dist/ReactToastify.css?url';
import { $pendingToasts } from './notify.browser.ts';
import outletCss from './ToastOutlet.css?url';

/**
 * The toast outlet's loader: a few lines of plain script on every page that can show a toast
 * (BaseLayout's `toasts`), so no page pays for React to be ready for one. When the first
 * message is queued with `notify()`, it loads React, react-dom and the outlet
 * (ToastOutlet.tsx, react-toastify) and mounts it; the outlet then shows the queue and
 * everything queued after. On a page with a React island these modules are already loaded or
 * shared. If they cannot load (offline, a deploy replaced them), the toast is lost, never the page.
 *
 * The outlet's styles load with it, as files (`?url`, then a <link>): imported by ToastOutlet.tsx
 * they became a stylesheet every page waited for before its first paint, for a toast most pages
 * never show (issue 23: ~3 KB, one more request on a slow link). The toast mounts once they have.
 */
let mounted = false;

function mount() {
  mounted = true;
  Promise.all([
    import('react'),
    import('react-dom/client'),
    import('./ToastOutlet.tsx'),
    stylesheet(toastifyCss),
    stylesheet(outletCss),
  ])
    .then(([react, dom, outlet]) => {
      const host = document.createElement('div');
      host.dataset.toasts = '';
      document.body.appendChild(host);
      dom.createRoot(host).render(react.createElement(outlet.default));
    })
    .catch(() => {
      mounted = false;
    });
}

/** Watches the toast queue: the outlet loads with the first toast. */
export function startToastOutlet() {
  $pendingToasts.subscribe((pending) => {
    if (pending.length > 0 && !mounted) mount();
  });
}

/** Adds a stylesheet to the page; settles when it has loaded (or failed: an unstyled toast beats none). */
function stylesheet(href: string): Promise<void> {
  return new Promise((resolve) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    link.onload = () => resolve();
    link.onerror = () => resolve();
    document.head.appendChild(link);
  });
}
