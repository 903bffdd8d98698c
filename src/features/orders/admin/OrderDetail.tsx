import { DELIVERY_LABELS } from '../delivery.ts';
import { formatNaira, nairaToKobo, plainNaira, typedAmount } from '../../../lib/money.ts';
import { formatLagosTime } from '../../../lib/time.ts';
import { adminPaymentEvent, nextStatus, type OrderEvent, type OrderStatus, statusText } from '../order-status.ts';
import { OrderLines, OrderStatusBadge, PlacedOrderTotals } from '../OrderParts.tsx';
import {
  adminOrderApi,
  type AdminOrderDetail,
  cancelOrderSchema,
  confirmPaymentSchema,
  deliverOrderSchema,
  shipOrderSchema,
} from './admin-order-api.ts';
import type { AdminRoute } from '../../admin/admin-route.ts';
import { AuditTrail, StatusHistory } from '../../admin/History.tsx';
import { TextareaField, TextField } from '../../forms/Field.tsx';
import { DetailScreen } from '../../admin/DetailScreen.tsx';
import { defineMove, type Move, MoveActions, type MoveOutcome } from '../../admin/MoveDialog.tsx';
import { OverdueMark, STATUS_LABELS } from './order-labels.tsx';
import { OUTCOME_LABELS } from '../../payments/admin/payment-labels.ts';
import { adminCall } from '../../admin/use-admin.browser.ts';

/** One order as staff see it, with the moves its status allows. */
export function OrderDetail({ number, back }: { number: string; back: AdminRoute }) {
  return (
    <DetailScreen
      title={`Order ${number}`}
      what={`order ${number}`}
      back={back}
      backLabel="All orders"
      load={(signal) => adminCall(adminOrderApi.order, { params: { number }, signal })}
      loadKey={`order:${number}`}
    >
      {(detail, outcome) => <OrderView detail={detail} outcome={outcome} />}
    </DetailScreen>
  );
}

const ACTOR_LABELS = {
  customer: 'The shopper',
  admin: 'An admin',
  system: 'Automatic',
  provider: 'The payment provider',
} as const;

function OrderView({ detail, outcome }: { detail: AdminOrderDetail; outcome: MoveOutcome<AdminOrderDetail> }) {
  const { order } = detail;
  const c = order.customer;
  return (
    <div className="admin-order">
      <div className="admin-order__status" id="admin-order-status" tabIndex={-1}>
        <OrderStatusBadge status={order.status} />
        <span>{statusText(order.status, { capital: true })}</span>
        {detail.overdue && <OverdueMark />}
      </div>
      <p className="muted">
        Placed <time dateTime={order.createdAt}>{formatLagosTime(order.createdAt)}</time>
      </p>

      <MoveActions
        detail={detail}
        allowed={allowedMoves(order.status)}
        moves={ORDER_MOVES}
        none={`No further moves: the order is ${statusText(order.status)}.`}
        statusId="admin-order-status"
        failed="The order could not be changed. Please try again."
        {...outcome}
      />

      <div className="admin-order__grid">
        <section className="card admin-block" aria-labelledby="order-items">
          <h3 id="order-items">Items</h3>
          <OrderLines lines={order.lines} />
          <PlacedOrderTotals order={order} />
        </section>

        <section className="card admin-block" aria-labelledby="order-customer">
          <h3 id="order-customer">Customer</h3>
          <dl className="admin-facts">
            <dt>Name</dt>
            <dd>{c.name}</dd>
            <dt>E-mail</dt>
            <dd>
              <a href={`mailto:${c.email}`}>{c.email}</a>
            </dd>
            <dt>Phone</dt>
            <dd>
              <a href={`tel:${c.phone}`}>{c.phone}</a>
            </dd>
          </dl>
          <h3>Delivery</h3>
          <dl className="admin-facts">
            <dt>Method</dt>
            <dd>{order.deliveryMethod === 'pickup' ? DELIVERY_LABELS.pickup : "Delivery to the shopper's address"}</dd>
            {order.deliveryMethod === 'delivery' && (
              <>
                <dt>Address</dt>
                <dd>
                  {c.address}
                  <br />
                  {[c.city, c.state].filter(Boolean).join(', ')}
                </dd>
              </>
            )}
          </dl>
        </section>

        <section className="card admin-block" aria-labelledby="order-payment">
          <h3 id="order-payment">Payment</h3>
          {detail.payment ? (
            <dl className="admin-facts">
              <dt>Received</dt>
              <dd>{formatNaira(detail.payment.received)}</dd>
              <dt>Bank reference</dt>
              <dd>{detail.payment.reference}</dd>
              <dt>Confirmed by</dt>
              <dd>
                {detail.payment.confirmedBy},{' '}
                <time dateTime={detail.payment.confirmedAt}>{formatLagosTime(detail.payment.confirmedAt)}</time>
              </dd>
            </dl>
          ) : order.payment ? (
            <dl className="admin-facts">
              <dt>State</dt>
              <dd>
                {(order.payment.received ?? 0) > 0
                  ? `Part paid: ${formatNaira(order.payment.received ?? 0)} of ${formatNaira(order.total)} arrived`
                  : order.payment.due
                    ? 'Not paid yet'
                    : 'The shopper reported the transfer; not confirmed yet'}
              </dd>
              {(order.payment.received ?? 0) > 0 && (
                <>
                  <dt>Received so far</dt>
                  <dd>{formatNaira(order.payment.received ?? 0)}</dd>
                </>
              )}
              <dt>{(order.payment.received ?? 0) > 0 ? 'Still to pay' : 'Amount due'}</dt>
              <dd>{formatNaira(order.payment.amount)}</dd>
              <dt>Pays into</dt>
              <dd>
                {order.payment.bankName} {order.payment.accountNumber}
                {order.payment.ownAccount ? ' (its own account: confirmed when the money lands)' : ' (the shared account)'}
              </dd>
              <dt>Reference</dt>
              <dd>{order.payment.reference}</dd>
              <dt>Hold ends</dt>
              <dd>
                <time dateTime={order.expiresAt}>{formatLagosTime(order.expiresAt)}</time>
              </dd>
            </dl>
          ) : (
            <p>{detail.providerPayments?.length ? 'Not paid in full: what arrived is listed below.' : 'No payment recorded.'}</p>
          )}
          {detail.providerPayments && detail.providerPayments.length > 0 && (
            <>
              <h4>Payments recorded</h4>
              <ul className="admin-payments-list">
                {detail.providerPayments.map((p) => (
                  <li key={`${p.paidAt}-${p.amount}-${p.outcome}`}>
                    {formatNaira(p.amount)}, <time dateTime={p.paidAt}>{formatLagosTime(p.paidAt)}</time>:{' '}
                    {OUTCOME_LABELS[p.outcome]}
                    {p.refund > 0 && <strong> ({formatNaira(p.refund)} to refund)</strong>}
                  </li>
                ))}
              </ul>
            </>
          )}
        </section>

        <section className="card admin-block" aria-labelledby="order-shipment">
          <h3 id="order-shipment">Shipment</h3>
          {detail.shipment ? (
            <dl className="admin-facts">
              <dt>Carrier</dt>
              <dd>{detail.shipment.carrier || '—'}</dd>
              <dt>Tracking note</dt>
              <dd>{detail.shipment.trackingNote || '—'}</dd>
            </dl>
          ) : (
            <p>Not shipped yet.</p>
          )}
        </section>
      </div>

      <StatusHistory entries={detail.history} labels={STATUS_LABELS} first="Placed" actors={ACTOR_LABELS} />

      <AuditTrail entries={detail.audit} />
    </div>
  );
}

// ── The moves ────────────────────────────────────────────────────────────────────────────────

type OrderMove = 'confirm' | 'ship' | 'deliver' | 'cancel';

/** Each move's event in the order's state machine: a move is offered when the status allows its event. */
const EVENTS: Record<OrderMove, (status: OrderStatus) => OrderEvent> = {
  // After expiry, a transfer found late on the statement revives the order (if its units are still there).
  confirm: adminPaymentEvent,
  ship: () => 'ship',
  deliver: () => 'deliver',
  cancel: () => 'cancel',
};

/** What arrived for an unpaid order so far (a part payment), 0 when nothing did. */
const partPaid = (order: AdminOrderDetail['order']) => order.payment?.received ?? 0;

/** The admin's moves on an order, in the order their buttons show. */
const ORDER_MOVES: Record<OrderMove, Move<AdminOrderDetail>> = {
  confirm: defineMove({
    label: ({ order }) => (order.status === 'expired' ? 'Confirm late payment' : 'Confirm payment'),
    title: ({ order }) => `Confirm ${order.status === 'expired' ? 'late ' : ''}payment for ${order.number}`,
    confirm: 'Confirm payment',
    schema: confirmPaymentSchema,
    // Filled in with the total only while nothing arrived yet: with a part in, the admin types
    // what the statement shows, so the rest is not confirmed by pressing the button.
    defaults: ({ version, order }) => ({
      version,
      amountReceivedNaira: partPaid(order) > 0 ? undefined : Number(plainNaira(order.total)),
      bankReference: '',
    }),
    body: (form, { order }) => (
      <>
        {order.status === 'expired' && (
          <p>
            The order expired and its items went back on sale. Confirming pays it and takes its items again, if they are still in
            stock; if not, nothing changes and you refund the transfer.
          </p>
        )}
        <p>
          The order's total is <strong>{formatNaira(order.total)}</strong>. Enter what the bank statement shows arrived.
        </p>
        {partPaid(order) > 0 && (
          <p>
            <strong>{formatNaira(partPaid(order))}</strong> of it arrived already and{' '}
            <strong>{formatNaira(Math.max(0, order.total - partPaid(order)))}</strong> is still to pay. Confirm only once the rest
            has arrived, and enter all that arrived for this order, the {formatNaira(partPaid(order))} included.
          </p>
        )}
        <TextField
          form={form}
          name="amountReceivedNaira"
          id="confirm-amount"
          label="Amount received (₦, naira)"
          inputMode="decimal"
          options={{ setValueAs: typedAmount }}
          required
        />
        <OverTotal total={order.total} typed={form.watch('amountReceivedNaira')} />
        <TextField
          form={form}
          name="bankReference"
          id="confirm-reference"
          label="Bank reference"
          hint="The transfer's reference or session id on the statement."
          autoComplete="off"
          required
        />
      </>
    ),
    send: ({ version, order }, values) =>
      adminCall(adminOrderApi.confirmPayment, { params: { number: order.number }, body: { ...values, version } }),
    done: ({ order }) => `Payment for ${order.number} confirmed`,
  }),
  ship: defineMove({
    label: () => 'Mark shipped',
    title: ({ order }) => `Mark ${order.number} as shipped`,
    confirm: 'Mark shipped',
    schema: shipOrderSchema,
    defaults: ({ version }) => ({ version, carrier: '', trackingNote: '' }),
    body: (form) => (
      <>
        <TextField form={form} name="carrier" id="ship-carrier" label="Carrier (optional)" autoComplete="off" />
        <TextareaField
          form={form}
          name="trackingNote"
          id="ship-note"
          label="Tracking note (optional)"
          hint="What the shopper sees: a tracking number, or the rider's name and phone."
          rows={3}
        />
      </>
    ),
    send: ({ version, order }, values) =>
      adminCall(adminOrderApi.ship, {
        params: { number: order.number },
        body: { version, carrier: values.carrier || undefined, trackingNote: values.trackingNote || undefined },
      }),
    done: ({ order }) => `${order.number} marked as shipped`,
  }),
  deliver: defineMove({
    label: () => 'Mark delivered',
    title: ({ order }) => `Mark ${order.number} as delivered?`,
    confirm: 'Mark delivered',
    schema: deliverOrderSchema,
    defaults: ({ version }) => ({ version }),
    body: () => <p>The shopper gets an e-mail saying the order was delivered.</p>,
    send: ({ version, order }) => adminCall(adminOrderApi.deliver, { params: { number: order.number }, body: { version } }),
    done: ({ order }) => `${order.number} marked as delivered`,
  }),
  cancel: defineMove({
    label: () => 'Cancel order',
    title: ({ order }) => `Cancel order ${order.number}?`,
    confirm: 'Cancel the order',
    keep: 'Keep the order',
    danger: true,
    schema: cancelOrderSchema,
    defaults: ({ version }) => ({ version, reason: '' }),
    body: (form, { order }) => (
      <>
        <p>
          Its items go back on sale and the shopper gets an e-mail with your reason.
          {order.status === 'paid' &&
            ' The order is paid: refund the transfer to the shopper from the bank, then record it under Payments (“Mark dealt with”), which lists it.'}
          {(order.payment?.received ?? 0) > 0 &&
            ` ${formatNaira(order.payment?.received ?? 0)} of it has arrived: refund that to the shopper (Payments lists it).`}
        </p>
        <TextareaField form={form} name="reason" id="cancel-reason" label="Reason" rows={3} required />
      </>
    ),
    send: ({ version, order }, values) =>
      adminCall(adminOrderApi.cancel, { params: { number: order.number }, body: { ...values, version } }),
    done: ({ order }) => `${order.number} cancelled`,
  }),
};

/** The moves the order's status allows the admin now. */
function allowedMoves(status: AdminOrderDetail['order']['status']): OrderMove[] {
  return (Object.keys(EVENTS) as OrderMove[]).filter((move) => nextStatus(status, EVENTS[move](status), 'admin').ok);
}

/**
 * Said as the admin types an amount over the order's total: the extra is money the store owes
 * back (listed in Payments, functions/orders/admin-moves.ts), so a typo here becomes a refund to send.
 */
function OverTotal({ total, typed }: { total: number; typed: unknown }) {
  const received = typeof typed === 'number' && Number.isFinite(typed) && typed > 0 ? nairaToKobo(typed) : null;
  return (
    <p id="confirm-over-total" className="admin-note" aria-live="polite">
      {received !== null && received > total
        ? `That is ${formatNaira(received - total)} more than the total. Check the statement: what arrived over the total is owed back to the shopper, and Payments will list it.`
        : ''}
    </p>
  );
}
