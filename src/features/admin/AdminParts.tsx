import {
  type AnchorHTMLAttributes,
  createContext,
  type InputHTMLAttributes,
  type MouseEvent,
  type ReactNode,
  type SelectHTMLAttributes,
  type SubmitEvent,
  type TextareaHTMLAttributes,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { type FieldValues, get, type Path, type UseFormReturn } from 'react-hook-form';
import { ApiRequestError } from '../../lib/api-client.browser.ts';
import { formatNaira } from '../../lib/money.ts';
import { formatLagosTime } from '../../lib/time.ts';
import { type AdminRoute, adminHref, pageCount } from './admin-route.ts';
import type { OrderStatus } from '../orders/order-status.ts';
import type { AuditEntry } from './admin-api.ts';
import { showIssuesAtFields } from './form-issues.browser.ts';
import { adminErrorMessage, type Loaded } from './use-admin.browser.ts';

// ── Routing: the route lives in the address; moving pushes a history entry ────────────────

export interface AdminRouter {
  route: AdminRoute;
  /** Go to a route: a new history entry (Back returns), or in place with `replace`. */
  go: (route: AdminRoute, options?: { replace?: boolean }) => void;
  /** How many moves this page has made: 0 on first load (focus stays where the browser put it). */
  moves: number;
}

export const RouterContext = createContext<AdminRouter | null>(null);

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

// ── History and audit trail ──────────────────────────────────────────────────────────────────

export interface HistoryEntry<S extends string> {
  from: S | null;
  to: S;
  actor: string;
  /** An admin's e-mail; null for the shopper or the Worker. */
  by: string | null;
  note: string | null;
  at: string;
}

/**
 * Every status change, oldest first: when, from → to (`first` for the entry with no `from`),
 * who (the admin, or the actor in words) and the note.
 */
export function StatusHistory<S extends string>({
  entries,
  labels,
  first,
  actors,
}: {
  entries: readonly HistoryEntry<S>[];
  labels: Record<S, string>;
  /** What the first entry says before its status: "Placed", "Received". */
  first: string;
  actors: Record<string, string>;
}) {
  const id = useId();
  return (
    <section className="admin-block admin-block--plain" aria-labelledby={id}>
      <h3 id={id}>History</h3>
      <TableBox caption="Every status change, oldest first">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Change</th>
            <th scope="col">By</th>
            <th scope="col">Note</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the history only grows at its end
            <tr key={index}>
              <td>
                <time dateTime={entry.at}>{formatLagosTime(entry.at)}</time>
              </td>
              <td>
                {entry.from ? `${labels[entry.from]} → ` : `${first}: `}
                {labels[entry.to]}
              </td>
              <td>{entry.by ?? actors[entry.actor] ?? entry.actor}</td>
              <td className="admin-wrap">{entry.note ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </TableBox>
    </section>
  );
}

// ── Audit trail ──────────────────────────────────────────────────────────────────────────────

/** Audit fields the Worker records in kobo (an order's payment, a trade-in's offer); a product's prices are recorded in naira, as typed. */
const KOBO_FIELDS = new Set(['paymentReceived', 'offer']);

function shown(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'number' && KOBO_FIELDS.has(field)) return formatNaira(value, { compact: false });
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

export function AuditTrail({ entries }: { entries: readonly AuditEntry[] }) {
  return (
    <section className="admin-audit" aria-labelledby="admin-audit-title">
      <h3 id="admin-audit-title">Audit trail</h3>
      {entries.length === 0 ? (
        <p className="muted">No admin has changed this yet.</p>
      ) : (
        <ol>
          {entries.map((entry, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: entries never reorder; two may share a time and an author
            <li key={index}>
              <p>
                <strong>{entry.action}</strong> by {entry.by}, <time dateTime={entry.at}>{formatLagosTime(entry.at)}</time>
              </p>
              {Object.keys(entry.changes).length > 0 && (
                <ul>
                  {Object.entries(entry.changes).map(([field, change]) => (
                    <li key={field}>
                      <code>{field}</code>: {shown(field, change.from)} → {shown(field, change.to)}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

// ── Dialog ───────────────────────────────────────────────────────────────────────────────────

/**
 * A confirmation in a native modal <dialog>: focus moves into it (showModal focuses its first
 * control: the form's first field, or Cancel, which comes before the confirm button), the page behind is inert, Escape closes it, and focus returns to what
 * opened it.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  busy = false,
  danger = false,
  onConfirm,
  onClose,
  formId,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  danger?: boolean;
  /** Without `formId`: what the confirm button does. */
  onConfirm?: () => void;
  onClose: () => void;
  /** The dialog holds a form: the confirm button submits it. */
  formId?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const opener = document.activeElement;
    if (!dialog.open) dialog.showModal();
    return () => {
      if (dialog.open) dialog.close();
      // Back to what opened it, if it is still there (a move can remove its own button).
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, [open]);
  return (
    <dialog ref={ref} className="admin-dialog" aria-labelledby={titleId} onClose={() => open && onClose()}>
      <h2 id={titleId}>{title}</h2>
      <div className="admin-dialog__body">{children}</div>
      <div className="admin-dialog__actions">
        <button type="button" className="btn btn-outline" onClick={onClose}>
          Cancel
        </button>
        <button
          type={formId ? 'submit' : 'button'}
          form={formId}
          className={`btn ${danger ? 'btn-danger' : 'btn-primary'}`}
          onClick={formId ? undefined : onConfirm}
          disabled={busy}
        >
          {busy ? 'Working…' : confirmLabel}
        </button>
      </div>
    </dialog>
  );
}

// ── Form controls for react-hook-form: label, control, the field's message tied to it ────────

type FormParts<T extends FieldValues> = Pick<UseFormReturn<T>, 'register' | 'formState'>;

function fieldError<T extends FieldValues>(form: FormParts<T>, name: Path<T>): string | undefined {
  const error: { message?: unknown; root?: { message?: unknown } } | undefined = get(form.formState.errors, name);
  const message = error?.message ?? error?.root?.message;
  return typeof message === 'string' && message ? message : undefined;
}

function describedBy(id: string, error: string | undefined, hint: string | undefined) {
  const ids = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
  return { 'aria-invalid': error ? true : undefined, 'aria-describedby': ids || undefined } as const;
}

function Frame({
  id,
  label,
  error,
  hint,
  children,
  className = 'field',
}: {
  id: string;
  label: string;
  error?: string;
  hint?: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div className={className}>
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && (
        <p id={`${id}-hint`} className="field-hint muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

interface ControlProps<T extends FieldValues> {
  form: FormParts<T>;
  name: Path<T>;
  id: string;
  label: string;
  hint?: string;
  /** register() options, e.g. `{ valueAsNumber: true }`. */
  options?: Parameters<UseFormReturn<T>['register']>[1];
}

export function FormInput<T extends FieldValues>({
  form,
  name,
  id,
  label,
  hint,
  options,
  type = 'text',
  ...input
}: ControlProps<T> & Omit<InputHTMLAttributes<HTMLInputElement>, 'form' | 'id' | 'name'>) {
  const error = fieldError(form, name);
  return (
    <Frame id={id} label={label} error={error} hint={hint}>
      <input
        className="input"
        id={id}
        type={type}
        {...input}
        {...form.register(name, options)}
        {...describedBy(id, error, hint)}
      />
    </Frame>
  );
}

export function FormTextarea<T extends FieldValues>({
  form,
  name,
  id,
  label,
  hint,
  ...textarea
}: ControlProps<T> & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'form' | 'id' | 'name'>) {
  const error = fieldError(form, name);
  return (
    <Frame id={id} label={label} error={error} hint={hint}>
      <textarea className="input" id={id} {...textarea} {...form.register(name)} {...describedBy(id, error, hint)} />
    </Frame>
  );
}

export function FormSelect<T extends FieldValues>({
  form,
  name,
  id,
  label,
  hint,
  placeholder,
  choices,
  ...select
}: ControlProps<T> & {
  placeholder: string;
  choices: readonly { value: string; label: string }[];
} & Omit<SelectHTMLAttributes<HTMLSelectElement>, 'form' | 'id' | 'name'>) {
  const error = fieldError(form, name);
  return (
    <Frame id={id} label={label} error={error} hint={hint}>
      <select className="input" id={id} {...select} {...form.register(name)} {...describedBy(id, error, hint)}>
        <option value="">{placeholder}</option>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </Frame>
  );
}

export function FormCheckbox<T extends FieldValues>({ form, name, id, label, hint }: ControlProps<T>) {
  const error = fieldError(form, name);
  return (
    <div className="admin-check">
      <input type="checkbox" id={id} {...form.register(name)} {...describedBy(id, error, hint)} />
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p id={`${id}-hint`} className="field-hint muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * What a move's failure does (an order's or a trade-in's): a 409 hands its message to
 * `onConflict` (the screen reloads what it shows); field issues go onto the form's fields; the
 * rest is `problem`, for the dialog to show.
 */
export function useMoveErrors<T extends FieldValues>(
  form: Pick<UseFormReturn<T>, 'getValues' | 'setError'>,
  onConflict: (message: string, code: string) => void,
  fallback: string,
) {
  const [problem, setProblem] = useState<string | null>(null);
  const fail = (error: unknown) => {
    if (error instanceof ApiRequestError && error.status === 409) {
      onConflict(error.message, error.code);
      return;
    }
    if (error instanceof ApiRequestError && error.status === 400 && error.issues.length) {
      const rest = showIssuesAtFields(form, error.issues);
      setProblem(rest.length ? rest.map((i) => i.message).join(' ') : null);
      return;
    }
    setProblem(adminErrorMessage(error, fallback));
  };
  return { problem, setProblem, fail };
}

/** A message for the whole form (a refusal that names no field, a conflict). */
export function FormProblem({ text }: { text: string | null }) {
  return (
    <div className="admin-problem" role="alert">
      {text && <p>{text}</p>}
    </div>
  );
}

// ── Order bits ───────────────────────────────────────────────────────────────────────────────

/** Each status in words: the badge says Processing for three of them, the admin needs to know which. */
export const STATUS_LABELS: Record<OrderStatus, string> = {
  awaiting_payment: 'Awaiting payment',
  payment_reported: 'Payment reported',
  paid: 'Paid',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
  expired: 'Expired',
};

/** A reported transfer nobody confirmed in time: said in words, not only by colour. */
export function OverdueMark() {
  return <span className="admin-overdue">Overdue</span>;
}
