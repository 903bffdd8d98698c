/**
 * A trade-in request's life cycle: one pure state machine for the admin's moves and the
 * shopper's answers. The Worker applies an allowed move as one batch guarded by the
 * request's version (functions/trade-ins/move.ts).
 *
 *   new ──contact──▶ contacted ──offer──▶ offer_made ──accept (shopper)──▶ accepted ──complete──▶ completed
 *    └───────────offer──────────────────▶    │  ▲  └──decline (shopper)──▶ declined ──offer (a new one)──┘
 *                                            └──┘ offer (a revised one)
 *   close: from any state but completed and closed (the admin ends it, with a reason)
 */
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
