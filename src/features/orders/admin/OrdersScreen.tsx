import { formatNaira } from '../../../lib/money.ts';
import { formatLagosTime } from '../../../lib/time.ts';
import { ORDER_STATUSES, statusBadge, statusText } from '../order-status.ts';
import { OrderStatusBadge } from '../OrderParts.tsx';
import { LoadedView } from '../../loaded/LoadedView.tsx';
import { useLoaded } from '../../loaded/use-loaded.browser.ts';
import { adminOrderApi, type AdminOrderSummary } from './admin-order-api.ts';
import { type AdminRoute, adminHref, listQuery } from '../../admin/admin-route.ts';
import { AdminLink, ScreenHeading, useRouter } from '../../admin/admin-router.tsx';
import { SearchForm, Pager, StatusFilter, TableBox } from '../../admin/ListControls.tsx';
import { OverdueMark, PartPaid, STATUS_LABELS } from './order-labels.tsx';
import { OrderDetail } from './OrderDetail.tsx';
import { adminCall, adminLoadFailed } from '../../admin/use-admin.browser.ts';

/** Orders: the filtered, searched list (newest first), or one order when the route names it. */
export function OrdersScreen({ route }: { route: AdminRoute }) {
  if (route.order) return <OrderDetail key={route.order} number={route.order} back={{ ...route, order: undefined }} />;
  return <OrderList route={route} />;
}

function OrderList({ route }: { route: AdminRoute }) {
  const { go } = useRouter();
  const query = listQuery(route);
  const { loaded, reload } = useLoaded((signal) => adminCall(adminOrderApi.orders, { query, signal }), {
    key: adminHref(route),
    errorMessage: adminLoadFailed,
  });
  const counts = loaded.state === 'ready' ? loaded.data.counts : undefined;

  return (
    <section className="admin-screen" aria-labelledby="admin-screen-title">
      <ScreenHeading id="admin-screen-title">Orders</ScreenHeading>
      <div className="admin-toolbar">
        <StatusFilter
          id="orders-status"
          statuses={ORDER_STATUSES}
          labels={STATUS_LABELS}
          counts={counts}
          value={route.status}
          onChange={(status) => go({ ...route, status, page: undefined })}
        />
        <SearchForm id="orders-q" label="Search orders" placeholder="Number, e-mail, phone or name" />
      </div>
      <LoadedView loaded={loaded} what="orders" retry={reload} look="admin">
        {(list) =>
          list.orders.length === 0 ? (
            <p className="card admin-empty">
              No orders{route.status ? ` ${statusText(route.status)}` : ''}
              {route.q ? ` match “${route.q}”` : ''}.
            </p>
          ) : (
            <>
              <p className="muted" aria-live="polite">
                {list.total} {list.total === 1 ? 'order' : 'orders'}, newest first.
              </p>
              <OrderTable orders={list.orders} route={route} />
              <Pager route={route} page={list.page} pageSize={list.pageSize} total={list.total} label="Orders" />
            </>
          )
        }
      </LoadedView>
    </section>
  );
}

function OrderTable({ orders, route }: { orders: AdminOrderSummary[]; route: AdminRoute }) {
  return (
    <TableBox caption="Orders, newest first">
      <thead>
        <tr>
          <th scope="col">Order</th>
          <th scope="col">Placed</th>
          <th scope="col">Customer</th>
          <th scope="col">Items</th>
          <th scope="col">Total</th>
          <th scope="col">Status</th>
        </tr>
      </thead>
      <tbody>
        {orders.map((order) => (
          <tr key={order.number} className={order.overdue ? 'admin-row--overdue' : undefined}>
            <th scope="row">
              <AdminLink to={{ ...route, order: order.number }}>{order.number}</AdminLink>
            </th>
            <td>
              <time dateTime={order.createdAt}>{formatLagosTime(order.createdAt)}</time>
            </td>
            <td>
              {order.customerName}
              <br />
              <span className="muted">{order.email}</span>
            </td>
            <td>{order.items}</td>
            <td className="admin-num">{formatNaira(order.total)}</td>
            <td>
              <span className="admin-status">
                <OrderStatusBadge status={order.status} />
                {/* The words only where the badge's differ (it says Processing for three states). */}
                {STATUS_LABELS[order.status] !== statusBadge(order.status).label && (
                  <span className="admin-status__text">{STATUS_LABELS[order.status]}</span>
                )}
                {order.overdue && <OverdueMark />}
                <PartPaid order={order} />
              </span>
            </td>
          </tr>
        ))}
      </tbody>
    </TableBox>
  );
}
