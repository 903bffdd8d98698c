/**
 * A trade-in request's life cycle: one pure state machine for the admin's moves and the
 * shopper's answers. The Worker applies an allowed move as one batch guarded by the
 * request's version (functions/trade-ins/move.ts).
 *
 *   new ──contact──▶ contacted ──offer──▶ offer_made ──accept (shopper)──▶ accepted ──complete──▶ completed
 *    └───────────offer──────────────────▶    │  ▲  └──decline (shopper)──▶ declined ──offer (a new one)──┘
 *                                            └──┘ offer (a revised one)
 *   close: from any state but completed and closed (the admin ends it, with a reason)
 *
 * A swap's order adds two rules (swapOrderRefusal()): no close while an order holding its credit
 * is open, and no complete before that order is paid.
 */
import { CLOSED_WITHOUT_SALE, type OrderStatus, PAID_FOR } from '../orders/order-status.ts';

export const TRADE_IN_STATUSES = ['new', 'contacted', 'offer_made', 'accepted', 'declined', 'completed', 'closed'] as const;
export type TradeInStatus = (typeof TRADE_IN_STATUSES)[number];

export const TRADE_IN_MOVES = ['contact', 'offer', 'accept', 'decline', 'complete', 'close'] as const;
export type TradeInMove = (typeof TRADE_IN_MOVES)[number];

/** The moves an admin makes (the shopper's are accept and decline). */
export const ADMIN_TRADE_IN_MOVES = ['contact', 'offer', 'complete', 'close'] as const;
export type AdminTradeInMove = (typeof ADMIN_TRADE_IN_MOVES)[number];

export type TradeInActor = 'customer' | 'admin';
export const TRADE_IN_ACTORS = ['customer', 'admin'] as const;

const MOVES: Record<TradeInMove, { from: readonly TradeInStatus[]; to: TradeInStatus; by: TradeInActor }> = {
  contact: { from: ['new'], to: 'contacted', by: 'admin' },
  offer: { from: ['new', 'contacted', 'offer_made', 'declined'], to: 'offer_made', by: 'admin' },
  accept: { from: ['offer_made'], to: 'accepted', by: 'customer' },
  decline: { from: ['offer_made'], to: 'declined', by: 'customer' },
  complete: { from: ['accepted'], to: 'completed', by: 'admin' },
  close: { from: ['new', 'contacted', 'offer_made', 'accepted', 'declined'], to: 'closed', by: 'admin' },
};

export type TradeInTransition =
  | { ok: true; from: TradeInStatus; to: TradeInStatus }
  | { ok: false; reason: 'not_allowed' | 'illegal'; message: string };

export function nextTradeInStatus(from: TradeInStatus, move: TradeInMove, actor: TradeInActor): TradeInTransition {
  const rule = MOVES[move];
  if (rule.by !== actor) {
    return {
      ok: false,
      reason: 'not_allowed',
      message:
        actor === 'customer' ? `Only the store can ${VERB[move]} a trade-in.` : `Only the shopper can ${VERB[move]} an offer.`,
    };
  }
  if (!rule.from.includes(from)) {
    return {
      ok: false,
      reason: 'illegal',
      message: `A trade-in that is ${tradeInStatusText(from)} cannot be ${PAST[move]}.`,
    };
  }
  return { ok: true, from, to: rule.to };
}

/** The moves `actor` may make from `from` (what the screens offer). */
export function movesFrom(from: TradeInStatus, actor: TradeInActor): TradeInMove[] {
  return TRADE_IN_MOVES.filter((move) => nextTradeInStatus(from, move, actor).ok);
}

/** A swap's order as the request sees it: its number and status (an OrderStatus). */
export interface SwapOrderRef {
  number: string;
  status: string;
}

const among = (statuses: readonly OrderStatus[], order: SwapOrderRef | null) =>
  order !== null && (statuses as readonly string[]).includes(order.status);

/**
 * What a swap's order forbids of the admin's moves, beyond the state machine: the credit lives on
 * the order, so the request cannot end while an order holding it is open (closing it would leave
 * a discount the shopper can still pay for without trading anything in), and a swap is complete
 * only once its order is paid (completed earlier, the order could still be cancelled or expire and
 * take the shopper's credit with it). Null when the move may go ahead. The Worker holds to it in
 * the move's own write, and answers with it when that write is refused (functions/trade-ins/move.ts);
 * the admin's screen hides the move and says why.
 */
export function swapOrderRefusal(
  move: TradeInMove,
  wantKind: 'cash' | 'swap',
  order: SwapOrderRef | null,
): { code: 'swap_order_open' | 'swap_order_unpaid'; message: string } | null {
  if (wantKind !== 'swap') return null;
  if (move === 'close' && order !== null && !among(CLOSED_WITHOUT_SALE, order)) {
    return {
      code: 'swap_order_open',
      message: `The swap's order ${order.number} is still open and holds the credit: cancel that order first, then close the request.`,
    };
  }
  if (move === 'complete' && !among(PAID_FOR, order)) {
    return {
      code: 'swap_order_unpaid',
      message: !order
        ? 'The shopper has not ordered this swap yet: complete it once its order is paid.'
        : among(CLOSED_WITHOUT_SALE, order)
          ? `The swap's order ${order.number} is ${order.status}: complete the swap once a new order of it is paid.`
          : `The swap's order ${order.number} is not paid yet: complete the swap once it is.`,
    };
  }
  return null;
}

/** Nothing more happens to it. */
export function isFinal(status: TradeInStatus): boolean {
  return status === 'completed' || status === 'closed';
}

const VERB: Record<TradeInMove, string> = {
  contact: 'mark as contacted',
  offer: 'make an offer on',
  accept: 'accept',
  decline: 'decline',
  complete: 'complete',
  close: 'close',
};

const PAST: Record<TradeInMove, string> = {
  contact: 'marked as contacted',
  offer: 'given an offer',
  accept: 'accepted',
  decline: 'declined',
  complete: 'completed',
  close: 'closed',
};

const TEXT: Record<TradeInStatus, string> = {
  new: 'received',
  contacted: 'being looked at (we contacted you)',
  offer_made: 'waiting for your answer to our offer',
  accepted: 'accepted',
  declined: 'declined',
  completed: 'completed',
  closed: 'closed',
};

export function tradeInStatusText(status: TradeInStatus, { capital = false } = {}): string {
  const text = TEXT[status];
  return capital ? text[0]!.toUpperCase() + text.slice(1) : text;
}

/** Short labels for badges and filters. */
export const TRADE_IN_STATUS_LABELS: Record<TradeInStatus, string> = {
  new: 'New',
  contacted: 'Contacted',
  offer_made: 'Offer made',
  accepted: 'Accepted',
  declined: 'Declined',
  completed: 'Completed',
  closed: 'Closed',
};
