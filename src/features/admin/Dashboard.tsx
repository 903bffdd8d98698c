import { useState } from 'react';
import { formatNaira } from '../../lib/money.ts';
import { formatLagosTime } from '../../lib/time.ts';
import { LoadedView } from '../loaded/LoadedView.tsx';
import { useLoaded } from '../loaded/use-loaded.browser.ts';
import { adminDashboardApi, type Dashboard as DashboardData } from './admin-api.ts';
import type { AdminOrderSummary } from '../orders/admin/admin-order-api.ts';
import { adminTradeInApi } from '../trade-ins/admin/admin-trade-in-api.ts';
import { timeAgo, timeUntil } from './admin-route.ts';
import { AdminLink, ScreenHeading, useRouter } from './admin-router.tsx';
import { OverdueMark, PartPaid } from '../orders/admin/order-labels.tsx';
import { RevenueChart } from './RevenueChart.tsx';
import { adminCall, adminLoadFailed } from './use-admin.browser.ts';

/** The dashboard: what needs doing now, and the last 30 days. */
export function Dashboard() {
  const { loaded, reload } = useLoaded((signal) => adminCall(adminDashboardApi.dashboard, { signal }), {
    key: 'dashboard',
    errorMessage: adminLoadFailed,
  });
  return (
    <section className="admin-screen" aria-labelledby="admin-screen-title">
      <ScreenHeading id="admin-screen-title">Dashboard</ScreenHeading>
      <LoadedView loaded={loaded} what="the dashboard" retry={reload} look="admin">
        {(data) => <DashboardView data={data} />}
      </LoadedView>
    </section>
  );
}

function DashboardView({ data }: { data: DashboardData }) {
  const now = Date.parse(data.generatedAt);
  return (
    <>
      <section className="admin-needs" aria-labelledby="needs-title">
        <h3 id="needs-title">Needs action</h3>
        <div className="admin-needs__grid">
          <ReportedPayments orders={data.reportedPayments} now={now} alertHours={data.alertHours} />
          <PaymentsWaiting count={data.paymentsWaiting ?? 0} />
          <ExpiringSoon orders={data.expiringSoon} now={now} />
          <LowStock items={data.lowStock} threshold={data.lowStockThreshold} />
          <NewTradeIns now={now} />
        </div>
      </section>
      <RevenueChart daily={data.daily} />
    </>
  );
}

/** Recorded payments that need a person: unmatched, owed back (src/features/payments/admin/). */
function PaymentsWaiting({ count }: { count: number }) {
  return (
    <section className="card admin-needs__box" aria-labelledby="needs-payments">
      <h4 id="needs-payments">
        Payments to sort out <span className="admin-count">({count})</span>
      </h4>
      {count === 0 ? (
        <p>Every payment found its order, and nothing is owed back.</p>
      ) : (
        <p>
          {count === 1 ? 'One payment needs' : `${count} payments need`} you: no order claims it, or money is owed back.{' '}
          <AdminLink to={{ tab: 'payments' }}>Sort them out</AdminLink>
        </p>
      )}
    </section>
  );
}

function ReportedPayments({ orders, now, alertHours }: { orders: AdminOrderSummary[]; now: number; alertHours: number }) {
  const { go } = useRouter();
  return (
    <section className="card admin-needs__box" aria-labelledby="needs-reported">
      <h4 id="needs-reported">
        Payments reported <span className="admin-count">({orders.length})</span>
      </h4>
      <p className="muted">Oldest first. Overdue: reported more than {alertHours} h ago and still not confirmed.</p>
      {orders.length === 0 ? (
        <p>No transfers waiting to be confirmed.</p>
      ) : (
        <ul className="admin-needs__list">
          {orders.map((order) => (
            <li
              key={order.number}
              className={order.overdue ? 'admin-needs__item admin-needs__item--overdue' : 'admin-needs__item'}
            >
              <div>
                <AdminLink to={{ tab: 'orders', order: order.number }}>{order.number}</AdminLink> · {order.customerName} ·{' '}
                <strong>{formatNaira(order.total)}</strong>
                <br />
                <span className="muted">
                  Reported{' '}
                  {order.reportedAt ? (
                    <time dateTime={order.reportedAt} title={formatLagosTime(order.reportedAt)}>
                      {timeAgo(order.reportedAt, now)}
                    </time>
                  ) : (
                    'earlier'
                  )}
                </span>
                {order.overdue && <OverdueMark />}
                <PartPaid order={order} />
              </div>
              <button
                type="button"
                className="btn btn-primary btn-small"
                onClick={() => go({ tab: 'orders', order: order.number })}
              >
                Confirm<span className="visually-hidden"> payment for {order.number}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ExpiringSoon({ orders, now }: { orders: AdminOrderSummary[]; now: number }) {
  return (
    <section className="card admin-needs__box" aria-labelledby="needs-expiring">
      <h4 id="needs-expiring">
        Unpaid, expiring soon <span className="admin-count">({orders.length})</span>
      </h4>
      <p className="muted">Holds that end within 12 hours, soonest first.</p>
      {orders.length === 0 ? (
        <p>No unpaid order is about to expire.</p>
      ) : (
        <ul className="admin-needs__list">
          {orders.map((order) => (
            <li key={order.number} className="admin-needs__item">
              <div>
                <AdminLink to={{ tab: 'orders', order: order.number }}>{order.number}</AdminLink> · {order.customerName} ·{' '}
                <strong>{formatNaira(order.total)}</strong>
                <br />
                <span className="muted">
                  Expires{' '}
                  {order.expiresAt ? (
                    <time dateTime={order.expiresAt} title={formatLagosTime(order.expiresAt)}>
                      {timeUntil(order.expiresAt, now)}
                    </time>
                  ) : (
                    'soon'
                  )}
                </span>
                <PartPaid order={order} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** How many new trade-in requests the dashboard names before "See all". */
const NEW_TRADE_INS_SHOWN = 5;

/**
 * Trade-in requests nobody has answered yet (one more call, the list's first page filtered to
 * new): shown once it answers, and left out if it fails, so the dashboard never waits on it.
 */
function NewTradeIns({ now }: { now: number }) {
  const { loaded } = useLoaded(
    (signal) => adminCall(adminTradeInApi.tradeIns, { query: new URLSearchParams({ status: 'new' }), signal }),
    { key: 'dashboard:trade-ins', errorMessage: adminLoadFailed },
  );
  if (loaded.state !== 'ready') return null;
  const list = loaded.data;
  return (
    <section className="card admin-needs__box" aria-labelledby="needs-trade-ins">
      <h4 id="needs-trade-ins">
        New trade-in requests <span className="admin-count">({list.total})</span>
      </h4>
      <p className="muted">Sell or swap requests nobody has contacted yet, newest first.</p>
      {list.tradeIns.length === 0 ? (
        <p>No new requests.</p>
      ) : (
        <>
          <ul className="admin-needs__list">
            {list.tradeIns.slice(0, NEW_TRADE_INS_SHOWN).map((t) => (
              <li key={t.reference} className="admin-needs__item">
                <div>
                  <AdminLink to={{ tab: 'trade-ins', tradeIn: t.reference }}>{t.reference}</AdminLink> · {t.name} · {t.device}
                  <br />
                  <span className="muted">
                    {t.want === 'cash' ? 'Cash' : `Swap for ${t.swapFor ?? 'a product'}`}, received{' '}
                    <time dateTime={t.createdAt} title={formatLagosTime(t.createdAt)}>
                      {timeAgo(t.createdAt, now)}
                    </time>
                  </span>
                </div>
              </li>
            ))}
          </ul>
          <AdminLink className="admin-needs__more" to={{ tab: 'trade-ins', tradeInStatus: 'new' }}>
            All new trade-in requests
          </AdminLink>
        </>
      )}
    </section>
  );
}

/** How many low-stock lines show before "Show all". */
const LOW_STOCK_SHOWN = 8;

function LowStock({ items, threshold }: { items: DashboardData['lowStock']; threshold: number }) {
  const [all, setAll] = useState(false);
  const shown = all ? items : items.slice(0, LOW_STOCK_SHOWN);
  return (
    <section className="card admin-needs__box" aria-labelledby="needs-stock">
      <h4 id="needs-stock">
        Low stock <span className="admin-count">({items.length})</span>
      </h4>
      <p className="muted">On sale with {threshold} or fewer left, fewest first.</p>
      {items.length === 0 ? (
        <p>Nothing is running low.</p>
      ) : (
        <ul className="admin-needs__list">
          {shown.map((item) => (
            <li key={`${item.productId}/${item.variantId}`} className="admin-needs__item">
              <div>
                <AdminLink to={{ tab: 'products', edit: item.productId }}>
                  {item.name}
                  {item.variant && ` · ${item.variant}`}
                </AdminLink>
                <br />
                <span className={item.stock === 0 ? 'admin-stock admin-stock--out' : 'admin-stock'}>
                  {item.stock === 0 ? 'Sold out' : `${item.stock} left`}
                </span>
              </div>
            </li>
          ))}
        </ul>
      )}
      {items.length > LOW_STOCK_SHOWN && (
        <button
          type="button"
          className="btn btn-outline btn-small admin-needs__more"
          aria-expanded={all}
          onClick={() => setAll(!all)}
        >
          {all ? 'Show fewer' : `Show all ${items.length}`}
        </button>
      )}
    </section>
  );
}
