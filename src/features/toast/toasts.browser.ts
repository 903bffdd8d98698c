import { $pendingToasts } from './notify.browser.ts';

/**
 * The toast outlet's loader: a few lines of plain script on every page that can show a toast
 * (BaseLayout's `toasts`), so no page pays for React to be ready for one. When the first
 * message is queued with `notify()`, it loads React, react-dom and the outlet
 * (ToastOutlet.tsx, react-toastify) and mounts it; the outlet then shows the queue and
 * everything queued after. On a page with a React island these modules are already loaded or
 * shared. If they cannot load (offline, a deploy replaced them), the toast is lost, never the page.
 */
let mounted = false;

function mount() {
  mounted = true;
  Promise.all([import('react'), import('react-dom/client'), import('./ToastOutlet.tsx')])
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

$pendingToasts.subscribe((pending) => {
  if (pending.length > 0 && !mounted) mount();
});
