import { type ReactNode, type SubmitEvent, useEffect, useId, useState } from 'react';
import { type AdminRoute, pageCount } from './admin-route.ts';
import { useRouter, AdminLink } from './admin-router.tsx';

/** What the admin's lists share: paging, the search box, the status filter and the scrolling table. */

/** A list's Previous and Next links (with "Page n of m"), or nothing when it fits on one page. */
export function Pager({
  route,
  page,
  pageSize,
  total,
  label,
}: {
  route: AdminRoute;
  page: number;
  pageSize: number;
  total: number;
  label: string;
}) {
  const pages = pageCount(total, pageSize);
  if (pages <= 1) return null;
  return (
    <nav className="admin-pager" aria-label={`${label} pages`}>
      {page > 1 ? (
        <AdminLink className="btn btn-outline" to={{ ...route, page: page - 1 }}>
          Previous<span className="visually-hidden"> page</span>
        </AdminLink>
      ) : (
        <span />
      )}
      <span>
        Page {page} of {pages}
      </span>
      {page < pages ? (
        <AdminLink className="btn btn-outline" to={{ ...route, page: page + 1 }}>
          Next<span className="visually-hidden"> page</span>
        </AdminLink>
      ) : (
        <span />
      )}
    </nav>
  );
}

/**
 * A list's search box: it shows the route's `q` (also after Back or a link changes it) and
 * sends the trimmed text as the new `q`, back on the first page.
 */
export function SearchForm({ id, label, placeholder }: { id: string; label: string; placeholder: string }) {
  const { route, go } = useRouter();
  const [search, setSearch] = useState(route.q ?? '');
  useEffect(() => setSearch(route.q ?? ''), [route.q]);
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    go({ ...route, q: search.trim() || undefined, page: undefined });
  };
  return (
    <form className="admin-search" onSubmit={submit}>
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          className="input"
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          maxLength={100}
          placeholder={placeholder}
        />
      </div>
      <button type="submit" className="btn btn-outline">
        Search
      </button>
    </form>
  );
}

/**
 * A list's status filter: every status with how many there are (once the list has loaded them),
 * and "All statuses" with the sum. Choosing one calls `onChange` (undefined for all).
 */
export function StatusFilter<S extends string>({
  id,
  statuses,
  labels,
  counts,
  value,
  onChange,
}: {
  id: string;
  statuses: readonly S[];
  labels: Record<S, string>;
  counts: Partial<Record<S, number>> | undefined;
  value: S | undefined;
  onChange: (status: S | undefined) => void;
}) {
  const all = counts ? Object.values<number | undefined>(counts).reduce<number>((a, b) => a + (b ?? 0), 0) : undefined;
  return (
    <div className="field">
      <label htmlFor={id}>Status</label>
      <select
        id={id}
        className="input"
        value={value ?? ''}
        onChange={(e) => onChange(statuses.find((s) => s === e.target.value))}
      >
        <option value="">All statuses{all === undefined ? '' : ` (${all})`}</option>
        {statuses.map((status) => (
          <option key={status} value={status}>
            {labels[status]}
            {counts ? ` (${counts[status] ?? 0})` : ''}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A wide table in its own scrolling box (focusable, so keyboard users can scroll it), labelled by its caption. */
export function TableBox({ caption, children }: { caption: string; children: ReactNode }) {
  const id = useId();
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (axe: scrollable-region-focusable)
    <section className="admin-table" aria-labelledby={id} tabIndex={0}>
      <table>
        <caption id={id}>{caption}</caption>
        {children}
      </table>
    </section>
  );
}
