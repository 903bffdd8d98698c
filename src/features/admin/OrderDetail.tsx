import { zodResolver } from '@hookform/resolvers/zod';
import { ArrowLeft } from 'lucide-react';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { formatNaira, plainNaira } from '../../lib/money.ts';
import { formatLagosTime } from '../../lib/time.ts';
import { DELIVERY_LABELS } from '../orders/delivery.ts';
import { nextStatus, type OrderEvent, statusText } from '../orders/order-status.ts';
import { OrderLines, OrderStatusBadge, PlacedOrderTotals } from '../orders/OrderParts.tsx';
import { notify } from '../toast/notify.browser.ts';
import {
  type AdminOrderDetail,
  adminApi,
  cancelOrderSchema,
  confirmPaymentSchema,
  deliverOrderSchema,
  shipOrderSchema,
} from './admin-api.ts';
import type { AdminRoute } from './admin-route.ts';
import { AdminLink, ScreenHeading } from './admin-router.tsx';
import { AuditTrail, StatusHistory } from './History.tsx';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { FormInput, FormProblem, FormTextarea, useMoveErrors } from './AdminFields.tsx';
import { LoadedView } from './AdminLoaded.tsx';
import { OverdueMark, STATUS_LABELS } from './order-labels.tsx';
import { adminCall, useAdminData } from './use-admin.browser.ts';

/** One order as staff see it, with the moves its status allows. */
export function OrderDetail({ number, back }: { number: string; back: AdminRoute }) {
  const { loaded, reload, set } = useAdminData(
    (signal) => adminCall(adminApi.order, { params: { number }, signal }),
    `order:${number}`,
  );
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <section className="admin-screen" aria-labelledby="admin-screen-title">
      <p>
        <AdminLink to={back} className="admin-back">
          <ArrowLeft size={18} aria-hidden="true" /> All orders
        </AdminLink>
      </p>
      <ScreenHeading id="admin-screen-title">Order {number}</ScreenHeading>
      <FormProblem text={problem} />
      <LoadedView loaded={loaded} what={`order ${number}`} retry={reload}>
        {(detail) => (
          <OrderView
            detail={detail}
            onMoved={(next, message) => {
              setProblem(null);
              set(next);
              notify('success', message);
              // The button that opened the move is gone with the old status: focus goes to the new one.
              requestAnimationFrame(() => document.getElementById('admin-order-status')?.focus());
            }}
            onConflict={(message) => {
              setProblem(message);
              reload();
            }}
          />
        )}
      </LoadedView>
    </section>
  );
}

interface MoveProps {
  detail: AdminOrderDetail;
  onMoved: (detail: AdminOrderDetail, message: string) => void;
  onConflict: (message: string) => void;
}

const ACTOR_LABELS = { customer: 'The shopper', admin: 'An admin', system: 'Automatic' } as const;

function OrderView({ detail, onMoved, onConflict }: MoveProps) {
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

      <OrderActions detail={detail} onMoved={onMoved} onConflict={onConflict} />

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
            <dd>{DELIVERY_LABELS[order.deliveryMethod]}</dd>
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
              <dd>{order.payment.due ? 'Not paid yet' : 'The shopper reported the transfer; not confirmed yet'}</dd>
              <dt>Amount due</dt>
              <dd>{formatNaira(order.payment.amount)}</dd>
              <dt>Reference</dt>
              <dd>{order.payment.reference}</dd>
              <dt>Hold ends</dt>
              <dd>
                <time dateTime={order.expiresAt}>{formatLagosTime(order.expiresAt)}</time>
              </dd>
            </dl>
          ) : (
            <p>No payment recorded.</p>
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

type Action = 'confirm' | 'ship' | 'deliver' | 'cancel';
const EVENTS: Record<Action, OrderEvent> = { confirm: 'confirm_payment', ship: 'ship', deliver: 'deliver', cancel: 'cancel' };

function OrderActions({ detail, onMoved, onConflict }: MoveProps) {
  const [open, setOpen] = useState<Action | null>(null);
  const status = detail.order.status;
  const allowed = (Object.keys(EVENTS) as Action[]).filter((a) => nextStatus(status, EVENTS[a], 'admin').ok);
  if (allowed.length === 0) return <p className="admin-note">No further moves: the order is {statusText(status)}.</p>;
  const props = {
    detail,
    onClose: () => setOpen(null),
    onMoved: (next: AdminOrderDetail, message: string) => {
      setOpen(null);
      onMoved(next, message);
    },
    onConflict: (message: string) => {
      setOpen(null);
      onConflict(message);
    },
  };
  return (
    <section className="admin-actions" aria-label="Actions">
      {allowed.includes('confirm') && (
        <button type="button" className="btn btn-primary" onClick={() => setOpen('confirm')}>
          Confirm payment
        </button>
      )}
      {allowed.includes('ship') && (
        <button type="button" className="btn btn-primary" onClick={() => setOpen('ship')}>
          Mark shipped
        </button>
      )}
      {allowed.includes('deliver') && (
        <button type="button" className="btn btn-primary" onClick={() => setOpen('deliver')}>
          Mark delivered
        </button>
      )}
      {allowed.includes('cancel') && (
        <button type="button" className="btn btn-danger-outline" onClick={() => setOpen('cancel')}>
          Cancel order
        </button>
      )}
      {open === 'confirm' && <ConfirmPaymentDialog {...props} />}
      {open === 'ship' && <ShipDialog {...props} />}
      {open === 'deliver' && <DeliverDialog {...props} />}
      {open === 'cancel' && <CancelDialog {...props} />}
    </section>
  );
}

interface DialogProps extends MoveProps {
  onClose: () => void;
}

const MOVE_FAILED = 'The order could not be changed. Please try again.';

type ConfirmInput = z.input<typeof confirmPaymentSchema>;
type ConfirmOutput = z.output<typeof confirmPaymentSchema>;

function ConfirmPaymentDialog({ detail, onClose, onMoved, onConflict }: DialogProps) {
  const number = detail.order.number;
  const formId = useId();
  const form = useForm<ConfirmInput, unknown, ConfirmOutput>({
    resolver: zodResolver(confirmPaymentSchema),
    defaultValues: { version: detail.version, amountReceivedNaira: Number(plainNaira(detail.order.total)), bankReference: '' },
  });
  const { problem, setProblem, fail } = useMoveErrors(form, onConflict, MOVE_FAILED);
  const submit = form.handleSubmit(async (values) => {
    setProblem(null);
    try {
      const next = await adminCall(adminApi.confirmPayment, { params: { number }, body: { ...values, version: detail.version } });
      onMoved(next, `Payment for ${number} confirmed`);
    } catch (error) {
      fail(error);
    }
  });
  return (
    <ConfirmDialog
      open
      title={`Confirm payment for ${number}`}
      confirmLabel="Confirm payment"
      formId={formId}
      busy={form.formState.isSubmitting}
      onClose={onClose}
    >
      <form id={formId} className="admin-form" onSubmit={submit} noValidate>
        <p>
          The order's total is <strong>{formatNaira(detail.order.total)}</strong>. Enter what the bank statement shows arrived.
        </p>
        <FormInput
          form={form}
          name="amountReceivedNaira"
          id="confirm-amount"
          label="Amount received (₦, naira)"
          type="number"
          step="0.01"
          min="0"
          inputMode="decimal"
          options={{ valueAsNumber: true }}
          required
        />
        <FormInput
          form={form}
          name="bankReference"
          id="confirm-reference"
          label="Bank reference"
          hint="The transfer's reference or session id on the statement."
          autoComplete="off"
          required
        />
        <FormProblem text={problem} />
      </form>
    </ConfirmDialog>
  );
}

type ShipInput = z.input<typeof shipOrderSchema>;
type ShipOutput = z.output<typeof shipOrderSchema>;

function ShipDialog({ detail, onClose, onMoved, onConflict }: DialogProps) {
  const number = detail.order.number;
  const formId = useId();
  const form = useForm<ShipInput, unknown, ShipOutput>({
    resolver: zodResolver(shipOrderSchema),
    defaultValues: { version: detail.version, carrier: '', trackingNote: '' },
  });
  const { problem, setProblem, fail } = useMoveErrors(form, onConflict, MOVE_FAILED);
  const submit = form.handleSubmit(async (values) => {
    setProblem(null);
    try {
      const next = await adminCall(adminApi.ship, {
        params: { number },
        body: { version: detail.version, carrier: values.carrier || undefined, trackingNote: values.trackingNote || undefined },
      });
      onMoved(next, `${number} marked as shipped`);
    } catch (error) {
      fail(error);
    }
  });
  return (
    <ConfirmDialog
      open
      title={`Mark ${number} as shipped`}
      confirmLabel="Mark shipped"
      formId={formId}
      busy={form.formState.isSubmitting}
      onClose={onClose}
    >
      <form id={formId} className="admin-form" onSubmit={submit} noValidate>
        <FormInput form={form} name="carrier" id="ship-carrier" label="Carrier (optional)" autoComplete="off" />
        <FormTextarea
          form={form}
          name="trackingNote"
          id="ship-note"
          label="Tracking note (optional)"
          hint="What the shopper sees: a tracking number, or the rider's name and phone."
          rows={3}
        />
        <FormProblem text={problem} />
      </form>
    </ConfirmDialog>
  );
}

function DeliverDialog({ detail, onClose, onMoved, onConflict }: DialogProps) {
  const number = detail.order.number;
  const formId = useId();
  const form = useForm<z.input<typeof deliverOrderSchema>, unknown, z.output<typeof deliverOrderSchema>>({
    resolver: zodResolver(deliverOrderSchema),
    defaultValues: { version: detail.version },
  });
  const { problem, setProblem, fail } = useMoveErrors(form, onConflict, MOVE_FAILED);
  const submit = form.handleSubmit(async () => {
    setProblem(null);
    try {
      const next = await adminCall(adminApi.deliver, { params: { number }, body: { version: detail.version } });
      onMoved(next, `${number} marked as delivered`);
    } catch (error) {
      fail(error);
    }
  });
  return (
    <ConfirmDialog
      open
      title={`Mark ${number} as delivered?`}
      confirmLabel="Mark delivered"
      formId={formId}
      busy={form.formState.isSubmitting}
      onClose={onClose}
    >
      <form id={formId} className="admin-form" onSubmit={submit} noValidate>
        <p>The shopper gets an e-mail saying the order was delivered.</p>
        <FormProblem text={problem} />
      </form>
    </ConfirmDialog>
  );
}

type CancelInput = z.input<typeof cancelOrderSchema>;
type CancelOutput = z.output<typeof cancelOrderSchema>;

function CancelDialog({ detail, onClose, onMoved, onConflict }: DialogProps) {
  const number = detail.order.number;
  const formId = useId();
  const form = useForm<CancelInput, unknown, CancelOutput>({
    resolver: zodResolver(cancelOrderSchema),
    defaultValues: { version: detail.version, reason: '' },
  });
  const { problem, setProblem, fail } = useMoveErrors(form, onConflict, MOVE_FAILED);
  const submit = form.handleSubmit(async (values) => {
    setProblem(null);
    try {
      const next = await adminCall(adminApi.cancel, { params: { number }, body: { ...values, version: detail.version } });
      onMoved(next, `${number} cancelled`);
    } catch (error) {
      fail(error);
    }
  });
  return (
    <ConfirmDialog
      open
      danger
      title={`Cancel order ${number}?`}
      confirmLabel="Cancel the order"
      formId={formId}
      busy={form.formState.isSubmitting}
      onClose={onClose}
    >
      <form id={formId} className="admin-form" onSubmit={submit} noValidate>
        <p>
          Its items go back on sale and the shopper gets an e-mail with your reason.
          {detail.order.status === 'paid' && ' The order is paid: refund the transfer yourself.'}
        </p>
        <FormTextarea form={form} name="reason" id="cancel-reason" label="Reason" rows={3} required />
        <FormProblem text={problem} />
      </form>
    </ConfirmDialog>
  );
}
