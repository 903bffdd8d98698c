import type { ReactNode } from 'react';
import type { Loaded } from './use-loaded.browser.ts';

/** "Loading …" with a spinner, announced politely. `look` picks the island's classes (account__loading, admin-loading). */
export function Loading({ what, look }: { what: string; look: 'account' | 'admin' }) {
  return (
    <div className={look === 'admin' ? 'admin-loading' : 'account__loading'} role="status" aria-live="polite">
      <span className={look === 'admin' ? 'admin-spinner' : 'account__spinner'} aria-hidden="true" />
      <span>Loading {what}…</span>
    </div>
  );
}

/** The loading and failure states of a screen's data (useLoaded); `children` renders it once it is there. */
export function LoadedView<T>({
  loaded,
  what,
  retry,
  look,
  children,
}: {
  loaded: Loaded<T>;
  what: string;
  retry: () => void;
  look: 'account' | 'admin';
  children: (data: T) => ReactNode;
}) {
  if (loaded.state === 'loading') return <Loading what={what} look={look} />;
  if (loaded.state === 'failed')
    return (
      <div className={`card ${look === 'admin' ? 'admin-failed' : 'account__failed'}`} role="alert">
        <p>{loaded.message}</p>
        <button type="button" className="btn btn-outline" onClick={retry}>
          Try again
        </button>
      </div>
    );
  return <>{children(loaded.data)}</>;
}
