import { useId } from 'react';
import { formatNaira } from '../../lib/money.ts';
import { formatLagosTime } from '../../lib/time.ts';
import type { AuditEntry } from './admin-contract.ts';
import { TableBox } from './ListControls.tsx';

/** What a detail screen shows of its past: the status changes, and what admins changed (audit). */

/** One status change of an order or a trade-in, as its detail answers it. */
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

/** Each field an audit entry changed, from → to, with amounts as amounts; nothing when none. */
export function AuditChanges({ changes }: { changes: AuditEntry['changes'] }) {
  if (Object.keys(changes).length === 0) return null;
  return (
    <ul>
      {Object.entries(changes).map(([field, change]) => (
        <li key={field}>
          <code>{field}</code>: {shown(field, change.from)} → {shown(field, change.to)}
        </li>
      ))}
    </ul>
  );
}

/** Audit fields the Worker records in kobo (an order's payment, a trade-in's offer); a product's prices are recorded in naira, as typed (`…Naira`). */
const KOBO_FIELDS = new Set(['paymentReceived', 'offer']);

function shown(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'number' && KOBO_FIELDS.has(field)) return formatNaira(value);
  // A product's price as the form took it (`priceNaira`): whole naira, shown as every amount is.
  if (typeof value === 'number' && field.endsWith('Naira')) return formatNaira(Math.round(value * 100));
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** Every admin change to what the screen shows, newest first (as the Worker answers them): the action, who, when, and each field from → to. */
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
              <AuditChanges changes={entry.changes} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
