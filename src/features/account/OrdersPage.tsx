import { useEffect, useRef, useState } from 'react';
import { callApi } from '../../lib/api-client.browser.ts';
import { formatLagosTime } from '../../lib/time.ts';
import { nextStatus, ownAccount, statusText } from '../orders/order-status.ts';
import { orderApi } from '../orders/order-api.ts';
import type { OrderView } from '../orders/order-view.ts';
import { CancelReason, OrderLines, OrderPaymentInfo, OrderStatusBadge, PlacedOrderTotals } from '../orders/OrderParts.tsx';
import { accountApi } from './account-api.ts';
import { LoadedView } from '../loaded/LoadedView.tsx';
import { useLoaded } from '../loaded/use-loaded.browser.ts';
import { AccountShell } from './AccountShell.tsx';
import { accountErrorMessage, accountLoadFailed } from './use-account.browser.ts';
import { useOrderWatch } from '../orders/use-order-watch.browser.ts';
import { settleCartFor } from '../cart/settle-cart.browser.ts';

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
  // This browser's cart holds the lines of an order paid since (here, or seen turning paid):
  // settled as /cart would, so the header's count drops now, not when /cart is next opened.
  useEffect(() => {
    if (loaded.state === 'ready') for (const order of loaded.data) settleCartFor(order);
  }, [loaded]);
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
                <OrderCard
                  order={order}
                  onChanged={(changed) => update((all) => all.map((o) => (o.number === changed.number ? changed : o)))}
                />
              </li>
            ))}
          </ul>
        )
      }
    </LoadedView>
  );
}

function OrderCard({ order, onChanged }: { order: OrderView; onChanged: (order: OrderView) => void }) {
  const titleId = `order-${order.number}`;
  return (
    <article className="card account-order" aria-labelledby={titleId}>
      <header className="account-order__head">
        <h2 id={titleId} tabIndex={-1}>
          Order {order.number}
        </h2>
        <OrderStatusBadge status={order.status} />
      </header>
      <p className="muted">
        Placed {formatLagosTime(order.createdAt)} · {statusText(order.status, { capital: true, ownAccount: ownAccount(order) })}
      </p>
      <CancelReason order={order} className="account-order__reason" />
      <OrderPaymentInfo order={order} className="account-order__payment" />
      <h3>Items</h3>
      <OrderLines lines={order.lines} />
      <PlacedOrderTotals order={order} />
      <p>
        <a href={`/track?order=${encodeURIComponent(order.number)}`}>
          Track order<span className="visually-hidden"> {order.number}</span>
        </a>
      </p>
      {nextStatus(order.status, 'cancel', 'customer').ok && (
        <CancelOrder
          order={order}
          onCancelled={(cancelled) => {
            onChanged(cancelled);
            // The cancel buttons are gone with the move: focus goes to the order they belonged to.
            requestAnimationFrame(() => document.getElementById(titleId)?.focus());
          }}
        />
      )}
    </article>
  );
}

/**
 * Cancels an unpaid order from the account, on any device (the account owns it: no need for the
 * browser that placed it). Also how an order someone else placed in this shopper's name, joined
 * to the account with its address, is let go (functions/orders/limits.ts).
 */
function CancelOrder({ order, onCancelled }: { order: OrderView; onCancelled: (order: OrderView) => void }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const askRef = useRef<HTMLButtonElement>(null);
  const cancel = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const { order: cancelled } = await callApi(orderApi.cancel, { params: { number: order.number } });
      onCancelled(cancelled);
    } catch (error) {
      setProblem(accountErrorMessage(error, 'We could not cancel the order. Please try again.'));
      setBusy(false);
    }
  };
  if (!asking)
    return (
      <p>
        <button
          ref={askRef}
          type="button"
          className="btn btn-outline"
          onClick={() => {
            setAsking(true);
            requestAnimationFrame(() => confirmRef.current?.focus());
          }}
        >
          Cancel order<span className="visually-hidden"> {order.number}</span>
        </button>
      </p>
    );
  return (
    <fieldset className="account-order__cancel">
      <legend>Cancel order {order.number}?</legend>
      <p>Its items go back on sale; you can order again at any time.</p>
      <div className="account-order__cancel-actions">
        <button
          type="button"
          className="btn btn-outline"
          disabled={busy}
          onClick={() => {
            setAsking(false);
            setProblem(null);
            requestAnimationFrame(() => askRef.current?.focus());
          }}
        >
          Keep the order
        </button>
        <button ref={confirmRef} type="button" className="btn btn-danger" disabled={busy} onClick={() => void cancel()}>
          {busy ? 'Cancelling…' : 'Cancel the order'}
        </button>
      </div>
      {problem && (
        <p className="form-message" role="alert" data-kind="error">
          {problem}
        </p>
      )}
    </fieldset>
  );
}
