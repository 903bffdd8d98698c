import { ArrowLeft } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { LoadedView } from '../loaded/LoadedView.tsx';
import { useLoaded } from '../loaded/use-loaded.browser.ts';
import { FormProblem } from './FormProblem.tsx';
import type { AdminRoute } from './admin-route.ts';
import { AdminLink, ScreenHeading } from './admin-router.tsx';
import type { MoveOutcome } from './MoveDialog.tsx';
import { adminLoadFailed } from './use-admin.browser.ts';

/**
 * One thing that moves through states (an order, a trade-in request) on its own screen: the
 * link back to its list, its heading, the screen's problem line (a refused move), and the
 * detail once loaded. `children` renders the detail and hands `outcome` to its MoveActions.
 */
export function DetailScreen<D>({
  title,
  what,
  back,
  backLabel,
  load,
  loadKey,
  conflict = (message) => message,
  children,
}: {
  /** The heading ("Order GTS-…"). */
  title: string;
  /** What "Loading …" names ("order GTS-…"). */
  what: string;
  /** The list this detail was opened from, as it was (filter, search, page). */
  back: AdminRoute;
  backLabel: string;
  load: (signal: AbortSignal) => Promise<D>;
  /** Names the detail: another key loads another one. */
  loadKey: string;
  /** How the screen words a refused move (the server's message unless a code says more). */
  conflict?: (message: string, code: string) => string;
  children: (detail: D, outcome: MoveOutcome<D>) => ReactNode;
}) {
  const { loaded, reload, set } = useLoaded(load, { key: loadKey, errorMessage: adminLoadFailed });
  const [problem, setProblem] = useState<string | null>(null);
  const outcome: MoveOutcome<D> = {
    onMoved: (next) => {
      setProblem(null);
      set(next);
    },
    onConflict: (message, code) => {
      setProblem(conflict(message, code));
      reload();
    },
  };
  return (
    <section className="admin-screen" aria-labelledby="admin-screen-title">
      <p>
        <AdminLink to={back} className="admin-back">
          <ArrowLeft size={18} aria-hidden="true" /> {backLabel}
        </AdminLink>
      </p>
      <ScreenHeading id="admin-screen-title">{title}</ScreenHeading>
      <FormProblem text={problem} />
      <LoadedView loaded={loaded} what={what} retry={reload} look="admin">
        {(detail) => children(detail, outcome)}
      </LoadedView>
    </section>
  );
}
