import { formatLagosTime } from '../../lib/time.ts';
import { LoadedView } from '../loaded/LoadedView.tsx';
import { useLoaded } from '../loaded/use-loaded.browser.ts';
import { adminAuditApi, type AuditLog } from './admin-api.ts';
import { AUDIT_ENTITIES, type AuditEntity } from './admin-contract.ts';
import { type AdminRoute, adminHref, listQuery } from './admin-route.ts';
import { AdminLink, ScreenHeading, useRouter } from './admin-router.tsx';
import { AuditChanges } from './History.tsx';
import { Pager, TableBox } from './ListControls.tsx';
import { adminCall, adminLoadFailed } from './use-admin.browser.ts';

/** What each kind of audited thing is called, in the filter and beside its id. */
const KIND_LABELS: Record<AuditEntity, string> = {
  order: 'Order',
  payment: 'Payment',
  product: 'Product',
  trade_in: 'Trade-in',
  subscriber: 'Subscriber list',
  image: 'Picture',
};

/** Where an entry's thing is shown in the admin, when it has a screen of its own. */
function screenOf(entity: AuditEntity, id: string): AdminRoute | undefined {
  if (entity === 'order') return { tab: 'orders', order: id };
  if (entity === 'product') return { tab: 'products', edit: id };
  if (entity === 'trade_in') return { tab: 'trade-ins', tradeIn: id };
  return undefined;
}

/**
 * The store-wide audit log: every admin's every change, newest first, including what no screen of
 * its own shows (a subscriber list exported, a picture uploaded, a payment dealt with), filtered
 * by kind. Each entry says who, when, what it was made to (a link where it has a screen) and each
 * field from → to.
 */
export function AuditScreen({ route }: { route: AdminRoute }) {
  const { go } = useRouter();
  const query = listQuery(route);
  const { loaded, reload } = useLoaded((signal) => adminCall(adminAuditApi.audit, { query, signal }), {
    key: adminHref(route),
    errorMessage: adminLoadFailed,
  });
  return (
    <section className="admin-screen" aria-labelledby="admin-screen-title">
      <div className="admin-screen__head">
        <ScreenHeading id="admin-screen-title">Audit log</ScreenHeading>
      </div>
      <div className="admin-toolbar">
        <div className="field">
          <label htmlFor="audit-kind">Show</label>
          <select
            id="audit-kind"
            className="input"
            value={route.auditEntity ?? ''}
            onChange={(e) => go({ tab: 'audit', auditEntity: AUDIT_ENTITIES.find((k) => k === e.target.value) })}
          >
            <option value="">Every change</option>
            {AUDIT_ENTITIES.map((kind) => (
              <option key={kind} value={kind}>
                {KIND_LABELS[kind]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <LoadedView loaded={loaded} what="the audit log" retry={reload} look="admin">
        {(log) =>
          log.entries.length === 0 ? (
            <p className="card admin-empty">No admin has changed anything yet.</p>
          ) : (
            <Entries log={log} route={route} />
          )
        }
      </LoadedView>
    </section>
  );
}

function Entries({ log, route }: { log: AuditLog; route: AdminRoute }) {
  return (
    <>
      <p className="muted">
        {log.total} {log.total === 1 ? 'change' : 'changes'}, newest first.
      </p>
      <TableBox caption="Admins' changes">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Admin</th>
            <th scope="col">Made to</th>
            <th scope="col">What changed</th>
          </tr>
        </thead>
        <tbody>
          {log.entries.map((entry, index) => {
            const screen = screenOf(entry.entity, entry.entityId);
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: a page's entries never reorder; two may share a time and an author
              <tr key={index}>
                <th scope="row">
                  <time dateTime={entry.at}>{formatLagosTime(entry.at)}</time>
                </th>
                <td className="admin-wrap">{entry.by}</td>
                <td className="admin-wrap">
                  {KIND_LABELS[entry.entity]}{' '}
                  {screen ? <AdminLink to={screen}>{entry.entityId}</AdminLink> : <code>{entry.entityId}</code>}
                </td>
                <td className="admin-wrap">
                  <strong>{entry.action}</strong>
                  <AuditChanges changes={entry.changes} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </TableBox>
      <Pager route={route} page={log.page} pageSize={log.pageSize} total={log.total} label="Audit log" />
    </>
  );
}
