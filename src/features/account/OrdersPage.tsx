import { callApi } from '../../lib/api-client.browser.ts';
import { formatLagosTime } from '../../lib/time.ts';
import { ownAccount, statusText } from '../orders/order-status.ts';
import type { OrderView } from '../orders/order-view.ts';
import { OrderLines, OrderPaymentInfo, OrderStatusBadge, PlacedOrderTotals } from '../orders/OrderParts.tsx';
import { accountApi } from './account-api.ts';
import { LoadedView } from '../loaded/LoadedView.tsx';
import { useLoaded } from '../loaded/use-loaded.browser.ts';
import { AccountShell } from './AccountShell.tsx';
import { accountLoadFailed } from './use-account.browser.ts';
import { useOrderWatch } from '../orders/use-order-watch.browser.ts';

/** /orders: the signed-in user's orders, newest first. */
export default function OrdersPage() {
  return (
    <AccountShell current="/orders" purpose="see your orders">
      {() => <Orders />}
    </AccountShell>
  );
}

/** How often /orders asks again while an order waits for a transfer into its own account. */
const ORDERS_WATCH_MS = 15_000;

function Orders() {
  const { loaded, reload, update } = useLoaded((signal) => callApi(accountApi.orders, { signal }).then((r) => r.orders), {
    errorMessage: accountLoadFailed,
  });
  // An order paying into its own account turns paid here by itself when the money lands.
  const waiting = loaded.state === 'ready' ? loaded.data.find((o) => o.payment?.ownAccount && o.payment.due) : undefined;
  useOrderWatch(
    waiting,
    async () => {
      const { orders } = await callApi(accountApi.orders, {});
      const fresh = orders.find((o) => o.number === waiting?.number);
      if (!fresh) throw new Error('order gone from the list');
      return fresh;
    },
    (order) => update((orders) => orders.map((o) => (o.number === order.number ? order : o))),
    ORDERS_WATCH_MS,
  );
  return (
    <LoadedView loaded={loaded} what="your orders" retry={reload} look="account">
      {(orders) =>
        orders.length === 0 ? (
          <div className="card account__empty">
            <h2>No orders yet</h2>
            <p className="muted">Orders you place while signed in appear here, with their status and payment details.</p>
            <a className="btn btn-primary" href="/products">
              Start shopping
            </a>
          </div>
        ) : (
          <ul className="account-orders">
            {orders.map((order) => (
              <li key={order.number}>
                <OrderCard order={order} />
              </li>
            ))}
          </ul>
        )
      }
    </LoadedView>
  );
}

function OrderCard({ order }: { order: OrderView }) {
  const titleId = `order-${order.number}`;
  return (
    <article className="card account-order" aria-labelledby={titleId}>
      <header className="account-order__head">
        <h2 id={titleId}>Order {order.number}</h2>
        <OrderStatusBadge status={order.status} />
      </header>
      <p className="muted">
        Placed {formatLagosTime(order.createdAt)} · {statusText(order.status, { capital: true, ownAccount: ownAccount(order) })}
      </p>
      <OrderPaymentInfo order={order} className="account-order__payment" />
      <h3>Items</h3>
      <OrderLines lines={order.lines} />
      <PlacedOrderTotals order={order} />
      <p>
        <a href={`/track?order=${encodeURIComponent(order.number)}`}>
          Track order<span className="visually-hidden"> {order.number}</span>
        </a>
      </p>
    </article>
  );
}
