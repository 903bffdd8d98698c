import { formatNaira } from '../../../lib/money.ts';
import { formatLagosTime } from '../../../lib/time.ts';
import { type AdminRoute, adminHref } from '../../admin/admin-route.ts';
import { AdminLink, ScreenHeading } from '../../admin/admin-router.tsx';
import { Pager, TableBox } from '../../admin/ListControls.tsx';
import { defineMove, type Move, MoveActions } from '../../admin/MoveDialog.tsx';
import { adminCall, adminLoadFailed } from '../../admin/use-admin.browser.ts';
import { CheckboxField, TextareaField, TextField } from '../../forms/Field.tsx';
import { LoadedView } from '../../loaded/LoadedView.tsx';
import { useLoaded } from '../../loaded/use-loaded.browser.ts';
import { type AdminPayment, adminPaymentApi, attachPaymentSchema, resolvePaymentSchema } from './admin-payment-api.ts';
import { OUTCOME_LABELS } from './payment-labels.ts';

type PaymentMove = 'attach' | 'resolve';

const PAYMENT_MOVES: Record<PaymentMove, Move<AdminPayment>> = {
  attach: defineMove({
    label: () => 'Attach to order',
    title: (p) => `Attach ${formatNaira(p.amount)} to an order`,
    confirm: 'Attach',
    schema: attachPaymentSchema,
    defaults: () => ({ orderNumber: '', note: '' }),
    body: (form, p) => (
      <>
        <p>
          {formatNaira(p.amount)} arrived {p.accountNumber ? `in account ${p.accountNumber}` : 'with no account'}
          {p.reference ? ` (reference ${p.reference})` : ''}. Attach it to the order it was for: it counts toward that order and
          pays it if it covers the rest.
        </p>
        <TextField form={form} name="orderNumber" id="attach-order" label="Order number" placeholder="GTS-7K3M9Q2XWD" required />
        <TextareaField
          form={form}
          name="note"
          id="attach-note"
          label="How you know"
          hint="The shopper's receipt, a call…"
          required
        />
      </>
    ),
    send: (p, body) => adminCall(adminPaymentApi.attachPayment, { params: { id: p.id }, body }),
    done: (p) => `${formatNaira(p.amount)} attached to ${p.orderNumber ?? 'the order'}`,
  }),
  resolve: defineMove({
    label: () => 'Mark dealt with',
    title: (p) => `Mark the payment of ${formatNaira(p.amount)} as dealt with`,
    confirm: 'Mark dealt with',
    schema: resolvePaymentSchema,
    defaults: (p) => ({ note: '', refundSent: tellsShopper(p) }),
    body: (form, p) => (
      <>
        <p>
          {p.refund > 0
            ? `${formatNaira(p.refund)} of it is owed back to the shopper. Send the refund first, then say how.`
            : 'Say what you did about it.'}
        </p>
        <TextareaField
          form={form}
          name="note"
          id="resolve-note"
          label="What you did"
          hint="Refunded by transfer, reference … (for the store: the shopper does not see it)"
          required
        />
        {tellsShopper(p) && (
          <CheckboxField
            form={form}
            name="refundSent"
            id="resolve-refund-sent"
            label={`I sent the ${formatNaira(p.refund)} back`}
            hint={`The shopper of ${p.orderNumber} is e-mailed that it is on its way. Untick if nothing was sent (say why above).`}
          />
        )}
      </>
    ),
    send: (p, body) => adminCall(adminPaymentApi.resolvePayment, { params: { id: p.id }, body }),
    done: () => 'Payment marked as dealt with',
  }),
};

/** A payment whose refund, once sent, its order's shopper hears about (functions/payments/admin.ts). */
const tellsShopper = (p: AdminPayment) => p.refund > 0 && p.orderNumber !== null;

function allowed(p: AdminPayment): PaymentMove[] {
  if (!p.waiting) return [];
  return p.outcome === 'unmatched' ? ['attach', 'resolve'] : ['resolve'];
}

/**
 * The recorded payments, the provider's and shared-account transfers an admin confirmed (functions/payments/admin.ts): by default the payments that
 * wait for a person (no order claims them, money owed back, one left half-applied), each with
 * what can be done about it; or every payment, newest first.
 */
export function PaymentsScreen({ route }: { route: AdminRoute }) {
  const view = route.paymentsView ?? 'waiting';
  const query = new URLSearchParams({ view, ...(route.page && route.page > 1 ? { page: String(route.page) } : {}) });
  const { loaded, reload } = useLoaded((signal) => adminCall(adminPaymentApi.payments, { query, signal }), {
    key: adminHref(route),
    errorMessage: adminLoadFailed,
  });

  return (
    <section className="admin-screen" aria-labelledby="admin-screen-title">
      <div className="admin-screen__head">
        <ScreenHeading id="admin-screen-title">Payments</ScreenHeading>
      </div>
      <nav className="admin-toolbar" aria-label="Which payments">
        <AdminLink to={{ tab: 'payments' }} aria-current={view === 'waiting' ? 'page' : undefined}>
          Waiting for you
        </AdminLink>{' '}
        <AdminLink to={{ tab: 'payments', paymentsView: 'all' }} aria-current={view === 'all' ? 'page' : undefined}>
          All payments
        </AdminLink>
      </nav>
      <LoadedView loaded={loaded} what="payments" retry={reload} look="admin">
        {(list) =>
          list.items.length === 0 ? (
            <p className="card admin-empty">{view === 'waiting' ? 'No payment waits for you.' : 'No payment is recorded yet.'}</p>
          ) : (
            <>
              <p className="muted">
                {list.waiting} {list.waiting === 1 ? 'payment waits' : 'payments wait'} for you.
              </p>
              <TableBox caption={view === 'waiting' ? 'Payments waiting for you' : 'All payments'}>
                <thead>
                  <tr>
                    <th scope="col">Arrived</th>
                    <th scope="col">Amount</th>
                    <th scope="col">Order</th>
                    <th scope="col">What it did</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.items.map((p) => (
                    <tr key={p.id}>
                      <th scope="row">
                        <time dateTime={p.paidAt}>{formatLagosTime(p.paidAt)}</time>
                      </th>
                      <td>{formatNaira(p.amount)}</td>
                      <td>
                        {p.orderNumber ? (
                          <AdminLink to={{ tab: 'orders', order: p.orderNumber }}>{p.orderNumber}</AdminLink>
                        ) : (
                          <span className="muted">
                            {p.accountNumber ? `Account ${p.accountNumber}` : (p.reference ?? 'None')}
                          </span>
                        )}
                      </td>
                      <td id={`payment-${p.id}`} tabIndex={-1}>
                        {OUTCOME_LABELS[p.outcome]}
                        {p.via === 'admin' && <span className="muted"> · into the store's account, confirmed by an admin</span>}
                        {p.refund > 0 && <strong> · {formatNaira(p.refund)} to refund</strong>}
                        {p.resolution && <span className="muted"> · {p.resolution}</span>}
                      </td>
                      <td>
                        <MoveActions
                          detail={p}
                          allowed={allowed(p)}
                          moves={PAYMENT_MOVES}
                          none=""
                          statusId={`payment-${p.id}`}
                          failed="The payment could not be changed. Please try again."
                          onMoved={() => reload()}
                          onConflict={() => reload()}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </TableBox>
              <Pager route={route} page={list.page} pageSize={list.pageSize} total={list.total} label="Payments" />
            </>
          )
        }
      </LoadedView>
    </section>
  );
}
