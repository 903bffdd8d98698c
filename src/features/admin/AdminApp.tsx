import { useStore } from '@nanostores/react';
import { lazy, Suspense } from 'react';
import { useAuth } from '../account/use-account.browser.ts';
import { Loading } from '../loaded/LoadedView.tsx';
import { $adminDenied } from './admin-access.browser.ts';
import './admin-gate.css';

/** The admin screens: fetched only once the session says an admin is signed in. */
const AdminConsole = lazy(() => import('./AdminConsole.tsx'));

/** The exact words a guest or a shopper sees on /admin (the spec's). */
export const ACCESS_DENIED = 'Access Denied - You need admin privileges to access this page.';

/**
 * /admin: the store's back office, one island (client:only, so it is never rendered into the
 * page's HTML). This gate is all a guest or a shopper loads: it asks who is signed in and,
 * for anyone but an admin, shows the refusal without fetching the admin screens or calling
 * any admin endpoint. A permission refusal from any admin call later (a 401, or a 403
 * `forbidden`: see $adminDenied) shows the same refusal.
 */
export default function AdminApp() {
  const auth = useAuth();
  const denied = useStore($adminDenied);
  if (auth.loading) return <Loading what="admin" look="admin" />;
  if (!auth.user || denied === 401) return <AccessDenied guest />;
  if (auth.user.role !== 'admin' || denied === 403) return <AccessDenied guest={false} />;
  return (
    <Suspense fallback={<Loading what="admin" look="admin" />}>
      <AdminConsole />
    </Suspense>
  );
}

function AccessDenied({ guest }: { guest: boolean }) {
  return (
    <section className="card admin-denied" aria-label="Access denied">
      <p className="admin-denied__text">{ACCESS_DENIED}</p>
      {guest && (
        <p>
          <a className="btn btn-primary" href="/login?next=/admin">
            Sign in
          </a>
        </p>
      )}
    </section>
  );
}
