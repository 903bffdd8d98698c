import { formatNaira } from '../../../lib/money.ts';
import { formatLagosTime } from '../../../lib/time.ts';
import { TRADE_IN_STATUSES, TRADE_IN_STATUS_LABELS } from '../trade-in-status.ts';
import { LoadedView } from '../../loaded/LoadedView.tsx';
import { useLoaded } from '../../loaded/use-loaded.browser.ts';
import { adminTradeInApi, type AdminTradeInSummary } from './admin-trade-in-api.ts';
import { type AdminRoute, adminHref, listQuery } from '../../admin/admin-route.ts';
import { AdminLink, ScreenHeading, useRouter } from '../../admin/admin-router.tsx';
import { Pager, SearchForm, StatusFilter, TableBox } from '../../admin/ListControls.tsx';
import { TradeInDetail } from './TradeInDetail.tsx';
import { TradeInStatusBadge } from './TradeInParts.tsx';
import { adminCall, adminLoadFailed } from '../../admin/use-admin.browser.ts';

/** Trade-ins: the filtered, searched list of sell-or-swap requests (newest first), or one request when the route names it. */
export function TradeInsScreen({ route }: { route: AdminRoute }) {
  if (route.tradeIn)
    return <TradeInDetail key={route.tradeIn} reference={route.tradeIn} back={{ ...route, tradeIn: undefined }} />;
  return <TradeInList route={route} />;
}

function TradeInList({ route }: { route: AdminRoute }) {
  const { go } = useRouter();
  const query = listQuery(route);
  const { loaded, reload } = useLoaded((signal) => adminCall(adminTradeInApi.tradeIns, { query, signal }), {
    key: adminHref(route),
    errorMessage: adminLoadFailed,
  });
  const counts = loaded.state === 'ready' ? loaded.data.counts : undefined;
  const status = route.tradeInStatus;

  return (
    <section className="admin-screen" aria-labelledby="admin-screen-title">
      <ScreenHeading id="admin-screen-title">Trade-ins</ScreenHeading>
      <div className="admin-toolbar">
        <StatusFilter
          id="trade-ins-status"
          statuses={TRADE_IN_STATUSES}
          labels={TRADE_IN_STATUS_LABELS}
          counts={counts}
          value={status}
          onChange={(next) => go({ ...route, tradeInStatus: next, page: undefined })}
        />
        <SearchForm id="trade-ins-q" label="Search trade-ins" placeholder="Reference, e-mail, phone, name or model" />
      </div>
      <LoadedView loaded={loaded} what="trade-in requests" retry={reload} look="admin">
        {(list) =>
          list.tradeIns.length === 0 ? (
            <p className="card admin-empty">
              No trade-in requests{status ? ` with the status “${TRADE_IN_STATUS_LABELS[status]}”` : ''}
              {route.q ? ` match “${route.q}”` : ''}.
            </p>
          ) : (
            <>
              <p className="muted" aria-live="polite">
                {list.total} {list.total === 1 ? 'request' : 'requests'}, newest first.
              </p>
              <TradeInTable tradeIns={list.tradeIns} route={route} />
              <Pager route={route} page={list.page} pageSize={list.pageSize} total={list.total} label="Trade-ins" />
            </>
          )
        }
      </LoadedView>
    </section>
  );
}

function TradeInTable({ tradeIns, route }: { tradeIns: AdminTradeInSummary[]; route: AdminRoute }) {
  return (
    <TableBox caption="Trade-in requests, newest first">
      <thead>
        <tr>
          <th scope="col">Reference</th>
          <th scope="col">Received</th>
          <th scope="col">Name</th>
          <th scope="col">Phone</th>
          <th scope="col">Device</th>
          <th scope="col">Wants</th>
          <th scope="col">Photos</th>
          <th scope="col">Offer</th>
          <th scope="col">Status</th>
        </tr>
      </thead>
      <tbody>
        {tradeIns.map((t) => (
          <tr key={t.reference}>
            <th scope="row">
              <AdminLink to={{ ...route, tradeIn: t.reference }}>{t.reference}</AdminLink>
            </th>
            <td>
              <time dateTime={t.createdAt}>{formatLagosTime(t.createdAt)}</time>
            </td>
            <td className="admin-wrap admin-wrap--narrow">
              {t.name}
              <br />
              <span className="muted">{t.email}</span>
            </td>
            <td>{t.phone}</td>
            <td className="admin-wrap admin-wrap--narrow">{t.device}</td>
            <td className="admin-wrap admin-wrap--narrow">
              {t.want === 'cash' ? 'Cash' : `Swap for ${t.swapFor ?? 'a product'}`}
            </td>
            <td className="admin-num">{t.photos}</td>
            <td className="admin-num">{t.offer === null ? '—' : formatNaira(t.offer)}</td>
            <td>
              <TradeInStatusBadge status={t.status} />
            </td>
          </tr>
        ))}
      </tbody>
    </TableBox>
  );
}
