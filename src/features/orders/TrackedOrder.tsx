import { STORE } from '../../lib/site.ts';
import { formatLagosTime } from '../../lib/time.ts';
import { PICKUP_POINT } from './delivery.ts';
import { formatNigerianPhone } from './nigeria.ts';
import { ownAccount, statusText } from './order-status.ts';
import type { OrderView } from './order-view.ts';
import { CancelReason, OrderLines, OrderPaymentInfo, OrderStatusBadge, PlacedOrderTotals } from './OrderParts.tsx';

/** What a shopper can do about an order that ended without a sale: the e-mail's words, where they look it up. */
const ENDED_WITHOUT_SALE = {
  expired: `We did not receive a transfer in time, so this order expired and its items went back on sale. If you did send the money, call us on ${STORE.phone} with your transfer receipt and we will refund it or restore your order.`,
  cancelled: 'This order is cancelled. If you paid for it, we refund the transfer to the account it came from.',
} as const;

/**
 * An order found on /track: its status, payment due (if any), lines, delivery and history. Rendered
 * by the Worker (TrackPage.astro), not hydrated: its Copy buttons work through track.browser.ts.
 */
export default function TrackedOrder({ order }: { order: OrderView }) {
  return (
    <section className="track__order card" aria-labelledby="track-order-title" tabIndex={-1}>
      <header className="track__order-head">
        <h2 id="track-order-title">Order {order.number}</h2>
        <OrderStatusBadge status={order.status} />
      </header>
      <p className="muted">
        Placed {formatLagosTime(order.createdAt)} · {statusText(order.status, { capital: true, ownAccount: ownAccount(order) })}
      </p>
      {order.status in ENDED_WITHOUT_SALE && (
        <p className="track__next">{ENDED_WITHOUT_SALE[order.status as keyof typeof ENDED_WITHOUT_SALE]}</p>
      )}
      <CancelReason order={order} className="track__reason" />
      <OrderPaymentInfo order={order} className="track__payment" />
      <h3>Items</h3>
      <OrderLines lines={order.lines} />
      <PlacedOrderTotals order={order} />
      <h3>{order.deliveryMethod === 'pickup' ? 'Pick-up' : 'Delivery'}</h3>
      <p>
        {order.customer.name} · {formatNigerianPhone(order.customer.phone)}
        <br />
        {order.deliveryMethod === 'pickup' ? (
          <>
            To collect at the {PICKUP_POINT.name}, {PICKUP_POINT.address}
          </>
        ) : (
          <>
            {order.customer.address}, {order.customer.city}, {order.customer.state}
          </>
        )}
      </p>
      {order.shipment ? (
        <p className="track__shipment">
          {order.shipment.carrier ? <>Carrier: {order.shipment.carrier}</> : null}
          {order.shipment.carrier && order.shipment.trackingNote ? <br /> : null}
          {order.shipment.trackingNote ? <>Tracking: {order.shipment.trackingNote}</> : null}
        </p>
      ) : null}
      <h3>History</h3>
      <ol className="track__history">
        {order.history.map((h) => (
          <li key={`${h.status}-${h.at}`}>
            <span>{statusText(h.status, { capital: true, ownAccount: ownAccount(order) })}</span>{' '}
            <span className="muted">{formatLagosTime(h.at)}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
