import { type AnchorHTMLAttributes, createContext, type MouseEvent, type ReactNode, useContext, useEffect, useRef } from 'react';
import { type AdminRoute, adminHref } from './admin-route.ts';

/**
 * The admin island's routing: the route lives in the address (admin-route.ts reads and writes
 * it), moving pushes a history entry, and the screens reach the router through RouterContext.
 */

/** The current route and the way to another (AdminConsole provides it). */
export interface AdminRouter {
  route: AdminRoute;
  /** Go to a route: a new history entry (Back returns), or in place with `replace`. */
  go: (route: AdminRoute, options?: { replace?: boolean }) => void;
  /** How many moves this page has made: 0 on first load (focus stays where the browser put it). */
  moves: number;
}

/** Where AdminConsole hands the router to the screens. */
export const RouterContext = createContext<AdminRouter | null>(null);

/** The admin router, for a screen or a link inside AdminConsole. */
export function useRouter(): AdminRouter {
  const router = useContext(RouterContext);
  if (!router) throw new Error('useRouter outside the admin app');
  return router;
}

/** A real link (opens in a new tab, copyable) that moves within the island on a plain click. */
export function AdminLink({
  to,
  children,
  ...anchor
}: { to: AdminRoute; children: ReactNode } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'>) {
  const { go } = useRouter();
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    go(to);
  };
  return (
    <a href={adminHref(to)} onClick={onClick} {...anchor}>
      {children}
    </a>
  );
}

/** A screen's heading: after a move within the page it takes focus, so a screen reader announces the new screen. */
export function ScreenHeading({ children, id, level = 2 }: { children: ReactNode; id?: string; level?: 2 | 3 }) {
  const { moves } = useRouter();
  const ref = useRef<HTMLHeadingElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus once, when the screen appears after a move
  useEffect(() => {
    if (moves > 0) ref.current?.focus();
  }, []);
  const Tag = level === 2 ? 'h2' : 'h3';
  return (
    <Tag ref={ref} id={id} tabIndex={-1} className="admin-heading">
      {children}
    </Tag>
  );
}
