/**
 * The order life cycle: one pure state machine that every caller (checkout, the
 * tracking page, the admin, the expiry job) goes through. Nothing here touches the
 * database; the Worker applies an allowed move with a compare-and-set on the status.
 *
 *   awaiting_payment ──report_payment──▶ payment_reported ──confirm_payment──▶ paid ──ship──▶ shipped ──deliver──▶ delivered
 *          │  └────────────confirm_payment (transfer seen before the shopper reported it)────────▶ paid
 *          ├──expire (unpaid past its hold time)──▶ expired ◀──expire (report not confirmed within its hold)── payment_reported
 *          │                                          └──accept_late_payment (the provider saw the money; stock taken again)──▶ paid
 *          └──cancel (from any state before shipped)──▶ cancelled
 *
 * confirm_payment is an admin's (who read the statement) or the payment provider's (its signed
 * webhook says the full amount arrived in the order's own account: functions/payments/).
 */
export const ORDER_STATUSES = [
  'awaiting_payment',
  'payment_reported',
  'paid',
  'shipped',
  'delivered',
  'cancelled',
  'expired',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const ORDER_EVENTS = [
  'report_payment',
  'confirm_payment',
  'ship',
  'deliver',
  'cancel',
  'expire',
  'accept_late_payment',
] as const;
export type OrderEvent = (typeof ORDER_EVENTS)[number];

/**
 * Who asks for a move: the shopper holding the order, a store admin, the Worker itself (the
 * clock), or the payment provider (its signed webhook or the reconciliation job).
 */
export const ORDER_ACTORS = ['customer', 'admin', 'system', 'provider'] as const;
export type OrderActor = (typeof ORDER_ACTORS)[number];

interface Move {
  from: readonly OrderStatus[];
  to: OrderStatus;
  by: readonly OrderActor[];
}

const MOVES: Record<OrderEvent, Move> = {
  report_payment: { from: ['awaiting_payment'], to: 'payment_reported', by: ['customer'] },
  confirm_payment: { from: ['awaiting_payment', 'payment_reported'], to: 'paid', by: ['admin', 'provider'] },
  ship: { from: ['paid'], to: 'shipped', by: ['admin'] },
  deliver: { from: ['shipped'], to: 'delivered', by: ['admin'] },
  cancel: { from: ['awaiting_payment', 'payment_reported', 'paid'], to: 'cancelled', by: ['admin', 'customer'] },
  // An unpaid order expires after ORDER_HOLD_HOURS; a reported transfer nobody confirms within
  // PAYMENT_REPORT_HOLD_HOURS expires too, or a report with no money behind it would hold the
  // stock for good (docs/decisions/007-what-expires.md, amended).
  expire: { from: ['awaiting_payment', 'payment_reported'], to: 'expired', by: ['system'] },
  // The full amount arrived after the order expired: paid, if its stock can be taken again (the
  // move's batch takes it; functions/payments/apply.ts), else the money is flagged for a refund.
  // An admin makes it for a transfer found late on the shared account's statement.
  accept_late_payment: { from: ['expired'], to: 'paid', by: ['provider', 'admin'] },
};

/**
 * The event of an admin's "Confirm payment": the transfer found on the statement pays an order
 * waiting for it, or, after the order expired, revives it (its units taken again, if still there).
 */
export function adminPaymentEvent(status: OrderStatus): 'confirm_payment' | 'accept_late_payment' {
  return status === 'expired' ? 'accept_late_payment' : 'confirm_payment';
}

/** A customer may only cancel an order they have not yet reported paying for. */
const CUSTOMER_CANCELLABLE: readonly OrderStatus[] = ['awaiting_payment'];

export type Transition =
  | {
      ok: true;
      from: OrderStatus;
      to: OrderStatus;
      /** The order's units go back on sale (cancelled, expired). */
      releasesStock: boolean;
      /** The order's units are taken again (a late payment for an expired order). */
      takesStock: boolean;
    }
  | { ok: false; reason: 'not_allowed' | 'illegal'; message: string };

export function nextStatus(from: OrderStatus, event: OrderEvent, actor: OrderActor): Transition {
  const move = MOVES[event];
  if (!move.by.includes(actor) || (event === 'cancel' && actor === 'customer' && !CUSTOMER_CANCELLABLE.includes(from))) {
    return {
      ok: false,
      reason: 'not_allowed',
      message: `${actor === 'admin' ? 'An' : 'A'} ${actor} cannot ${VERB[event]} an order that is ${statusText(from)}.`,
    };
  }
  if (!move.from.includes(from)) {
    return { ok: false, reason: 'illegal', message: `An order that is ${statusText(from)} cannot be ${PAST[event]}.` };
  }
  return {
    ok: true,
    from,
    to: move.to,
    releasesStock: isClosedWithoutSale(move.to),
    takesStock: isClosedWithoutSale(from) && !isClosedWithoutSale(move.to),
  };
}

/** States in which the shopper still owes the transfer (bank details are shown). */
export function awaitsPayment(status: OrderStatus): boolean {
  return status === 'awaiting_payment';
}

/**
 * States in which the order shows where the money goes (bank, account, amount, reference):
 * while it is due, and after the shopper reported it, who may need to check what they sent.
 */
export function showsPaymentDetails(status: OrderStatus): boolean {
  return status === 'awaiting_payment' || status === 'payment_reported';
}

/** What a page watching an order's payment needs of it (an OrderView). */
interface WatchedOrder {
  status: OrderStatus;
  payment?: { ownAccount?: boolean; received?: number } | null;
}

/**
 * Whether a page showing `order` asks for it again by itself: a transfer into the order's own
 * account is confirmed by the payment provider in seconds (functions/payments/); one into the
 * shared account is confirmed by a person, in hours.
 */
export function watchesPayment(order: WatchedOrder | null | undefined): boolean {
  return Boolean(order?.payment?.ownAccount && showsPaymentDetails(order.status));
}

/**
 * How often a page showing an order's payment details asks whether the transfer into the order's
 * own account has landed (the checkout's payment step, /cart's finished order, a swap order's card).
 */
export const ORDER_WATCH_MS = 4000;

/** What a watch compares between two reads of an order: its status and what has arrived. */
export function paymentProgress(order: WatchedOrder): string {
  return `${order.status}:${order.payment?.received ?? 0}`;
}

/**
 * States in which an order holds stock without having been paid for: the clock ends them (the
 * order holds its units until `expiresAt`, then expires). The hoarding limits and the admin's
 * "held by unpaid orders" count these.
 */
export const HOLDING_UNPAID: readonly OrderStatus[] = MOVES.expire.from;

/** States the clock ends: the order holds stock until `expiresAt`, then expires. */
export function expiresByClock(status: OrderStatus): boolean {
  return HOLDING_UNPAID.includes(status);
}

/** States in which the stock held for the order is back on sale, and nothing was sold. */
export const CLOSED_WITHOUT_SALE: readonly OrderStatus[] = ['cancelled', 'expired'];

/** States in which the order is paid for: paid, and then on its way or delivered. */
export const PAID_FOR: readonly OrderStatus[] = ['paid', 'shipped', 'delivered'];

/** Stock held for the order is back on sale. */
export function isClosedWithoutSale(status: OrderStatus): boolean {
  return CLOSED_WITHOUT_SALE.includes(status);
}

export type StatusTone = 'green' | 'blue' | 'yellow' | 'red' | 'grey';

/**
 * The spec's labels and colours: Delivered green, Shipped blue, Processing yellow
 * (awaiting payment, payment reported, paid), Cancelled red, anything else grey.
 */
export function statusBadge(
  status: OrderStatus,
  { ownAccount = false } = {},
): { label: string; tone: StatusTone; detail: string } {
  switch (status) {
    case 'delivered':
      return { label: 'Delivered', tone: 'green', detail: 'Delivered' };
    case 'shipped':
      return { label: 'Shipped', tone: 'blue', detail: 'On its way to you' };
    case 'awaiting_payment':
    case 'payment_reported':
    case 'paid':
      return { label: 'Processing', tone: 'yellow', detail: statusText(status, { capital: true, ownAccount }) };
    case 'cancelled':
      return { label: 'Cancelled', tone: 'red', detail: 'Cancelled' };
    case 'expired':
      // The spec's "anything else": grey.
      return { label: 'Expired', tone: 'grey', detail: 'Expired unpaid; the items went back on sale' };
  }
}

const TEXT: Record<OrderStatus, string> = {
  awaiting_payment: 'awaiting payment',
  payment_reported: 'payment reported, waiting for us to confirm the transfer',
  paid: 'paid, being packed',
  shipped: 'shipped',
  delivered: 'delivered',
  cancelled: 'cancelled',
  expired: 'expired',
};

/**
 * An order paid into its own account (decision 023) confirms itself when the money lands: nobody
 * at the store checks a reported transfer, so its words do not say "us".
 */
const OWN_ACCOUNT_TEXT: Partial<Record<OrderStatus, string>> = {
  payment_reported: 'payment reported, waiting for the transfer to reach its account',
};

/** Whether an order's payment confirms itself (its own account), also once it is paid and shows no payment. */
export function ownAccount(order: { paidIntoOwnAccount?: boolean; payment?: { ownAccount?: boolean } | null }): boolean {
  return Boolean(order.paidIntoOwnAccount || order.payment?.ownAccount);
}

/** The status in words; `ownAccount` for an order with its own account (ownAccount() of it). */
export function statusText(status: OrderStatus, { capital = false, ownAccount = false } = {}): string {
  const text = (ownAccount ? OWN_ACCOUNT_TEXT[status] : undefined) ?? TEXT[status];
  return capital ? text[0]!.toUpperCase() + text.slice(1) : text;
}

const VERB: Record<OrderEvent, string> = {
  report_payment: 'report payment for',
  confirm_payment: 'confirm payment for',
  ship: 'ship',
  deliver: 'deliver',
  cancel: 'cancel',
  expire: 'expire',
  accept_late_payment: 'accept a late payment for',
};

const PAST: Record<OrderEvent, string> = {
  report_payment: 'reported as paid',
  confirm_payment: 'confirmed as paid',
  ship: 'shipped',
  deliver: 'delivered',
  cancel: 'cancelled',
  expire: 'expired',
  accept_late_payment: 'paid late',
};
