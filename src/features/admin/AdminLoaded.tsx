import type { ReactNode } from 'react';
import type { Loaded } from './use-admin.browser.ts';

// ── Loading, failure, paging ─────────────────────────────────────────────────────────────────

export function AdminLoading({ what }: { what: string }) {
  return (
    <div className="admin-loading" role="status" aria-live="polite">
      <span className="admin-spinner" aria-hidden="true" />
      <span>Loading {what}…</span>
    </div>
  );
}

export function LoadedView<T>({
  loaded,
  what,
  retry,
  children,
}: {
  loaded: Loaded<T>;
  what: string;
  retry: () => void;
  children: (data: T) => ReactNode;
}) {
  if (loaded.state === 'loading') return <AdminLoading what={what} />;
  if (loaded.state === 'failed')
    return (
      <div className="card admin-failed" role="alert">
        <p>{loaded.message}</p>
        <button type="button" className="btn btn-outline" onClick={retry}>
          Try again
        </button>
      </div>
    );
  return <>{children(loaded.data)}</>;
}
