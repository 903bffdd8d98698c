import { and, eq, type SQL, sql } from 'drizzle-orm';
import { CLOSED_WITHOUT_SALE, PAID_FOR } from '../../src/features/orders/order-status.ts';
import {
  nextTradeInStatus,
  swapOrderRefusal,
  type TradeInActor,
  type TradeInMove,
} from '../../src/features/trade-ins/trade-in-status.ts';
import type { TradeInView } from '../../src/features/trade-ins/trade-in.ts';
import { formatNaira } from '../../src/lib/money.ts';
import { auditStatement, type Changes } from '../platform/audit.ts';
import type { Db } from '../platform/db.ts';
import { lostTheRace, unlessChanged } from '../platform/compare-and-set.ts';
import { CHECKS, orders, tradeInEvents, tradeIns, type TradeInRow, type UserRow } from '../platform/schema.ts';
import { queueEmail } from '../platform/outbox.ts';
import { tradeInStatusEmail } from './messages.ts';
import type { Config } from '../env.ts';
import { ApiError, transitionRefused } from '../platform/errors.ts';
import { findTradeIn } from './find.ts';
import { loadTradeInParts, toTradeInView } from './view.ts';

/**
 * A move of a trade-in request, by an admin (contact, offer, complete, close) or its shopper
 * (accept, decline): checked by the pure state machine (with a swap order's own rule,
 * swapOrderRefusal()), then written as one D1 batch (the
 * request, its history row, the shopper's e-mail and, for an admin, the audit row). The
 * request's UPDATE names the version it was read at; if anything moved it meanwhile the UPDATE
 * sets version 0, which its CHECK refuses, and so the whole batch is refused.
 */

export type Mover = { actor: 'admin'; admin: Pick<UserRow, 'id' | 'email'> } | { actor: 'customer'; userId: string | null };

export interface MoveOptions {
  /** The offer in kobo (move 'offer'). */
  offer?: number;
  /** The history's note: what was said, the offer's note, why it was closed. */
  note?: string | undefined;
  /** The shopper's answer names the offer they saw: another one (revised meanwhile) is refused. */
  seenOffer?: number;
}

export const tradeInChanged = () =>
  new ApiError(
    409,
    'trade_in_changed',
    'This request changed since you loaded it (someone else moved it). Reload it and try again.',
  );

export async function moveTradeIn(
  db: Db,
  config: Config,
  row: TradeInRow,
  move: TradeInMove,
  mover: Mover,
  options: MoveOptions = {},
  now = new Date(),
): Promise<TradeInView> {
  now = new Date(Math.floor(now.getTime() / 1000) * 1000);
  const actor: TradeInActor = mover.actor;
  const transition = nextTradeInStatus(row.status, move, actor);
  if (!transition.ok) throw transitionRefused(transition);
  if (options.seenOffer !== undefined && options.seenOffer !== row.offer) {
    throw new ApiError(409, 'offer_changed', 'The store changed its offer since you saw it. Please look at the new offer.');
  }

  const parts = (await loadTradeInParts(db, [row])).get(row.id)!;
  const offerSet = move === 'offer' && options.offer !== undefined;
  if (offerSet && row.wantKind === 'swap') checkSwapOffer(options.offer!, parts.price);

  const note = options.note?.trim() || null;
  const after: TradeInRow = {
    ...row,
    status: transition.to,
    version: row.version + 1,
    ...(offerSet ? { offer: options.offer!, offerNote: note ?? '', offeredAt: now } : {}),
    updatedAt: now,
  };
  const view = toTradeInView(after, {
    ...parts,
    events: [...parts.events, { toStatus: transition.to, createdAt: now, note }],
  });

  const changes: Changes = { status: { from: row.status, to: after.status } };
  if (offerSet) changes.offer = { from: row.offer, to: after.offer };
  if (note) changes.note = { from: null, to: note };

  try {
    await db.batch([
      db
        .update(tradeIns)
        .set({
          status: after.status,
          offer: after.offer,
          offerNote: after.offerNote,
          offeredAt: after.offeredAt,
          // The compare-and-set (functions/platform/compare-and-set.ts): 0 breaks trade_ins_version_positive, refusing the batch.
          // A swap's order is judged here, in the write: it may be paid, cancelled or expire at any moment.
          version: unlessChanged(
            and(eq(tradeIns.version, row.version), eq(tradeIns.status, row.status), swapOrderStill(move, row))!,
            after.version,
            0,
          ),
          updatedAt: now,
        })
        .where(eq(tradeIns.id, row.id)),
      db.insert(tradeInEvents).values({
        tradeInId: row.id,
        fromStatus: row.status,
        toStatus: after.status,
        actor,
        actorUserId: mover.actor === 'admin' ? mover.admin.id : mover.userId,
        note,
        createdAt: now,
      }),
      queueEmail(db, tradeInStatusEmail(view, note, config.SITE_URL)),
      ...(mover.actor === 'admin' ? [auditStatement(db, mover.admin, 'trade_in', row.reference, move, changes)] : []),
    ]);
  } catch (err) {
    if (lostTheRace(err, CHECKS.tradeInsVersionPositive)) throw await whyRefused(db, row, move);
    throw err;
  }
  return view;
}

/**
 * Why the move's compare-and-set refused it: the request moved meanwhile (409 trade_in_changed),
 * or, unmoved, its swap's order does not allow the move (swapOrderRefusal(): 409 naming the order).
 * The batch decides; this read only explains, so an order that moves between the two cannot let
 * a refused move through.
 */
async function whyRefused(db: Db, row: TradeInRow, move: TradeInMove): Promise<ApiError> {
  const now = await findTradeIn(db, row.reference);
  if (!now || now.version !== row.version || now.status !== row.status) return tradeInChanged();
  const parts = (await loadTradeInParts(db, [now])).get(now.id)!;
  const refusal = swapOrderRefusal(move, now.wantKind, parts.order);
  return refusal ? new ApiError(409, refusal.code, refusal.message) : tradeInChanged();
}

/**
 * swapOrderRefusal()'s rule as SQL, for the move's compare-and-set: closing a swap needs its
 * order (if any) ended, completing it needs that order paid. Undefined for other moves and cash.
 */
function swapOrderStill(move: TradeInMove, row: TradeInRow): SQL | undefined {
  if (row.wantKind !== 'swap') return undefined;
  const orderIn = (statuses: readonly string[]) =>
    sql`EXISTS (SELECT 1 FROM ${orders} o WHERE o.id = ${tradeIns.orderId} AND o.status IN (${sql.join(
      statuses.map((s) => sql`${s}`),
      sql`, `,
    )}))`;
  if (move === 'close') return sql`(${tradeIns.orderId} IS NULL OR ${orderIn(CLOSED_WITHOUT_SALE)})`;
  if (move === 'complete') return orderIn(PAID_FOR);
  return undefined;
}

/**
 * A swap's offer is part of the product's price: below it (for more, the store offers cash),
 * and the product must still be on sale.
 */
function checkSwapOffer(offer: number, price: number | null) {
  if (price === null) {
    throw new ApiError(
      409,
      'swap_unavailable',
      'The product to swap for is no longer on sale: offer cash, or close the request.',
    );
  }
  if (offer >= price) {
    throw new ApiError(400, 'invalid_request', `A swap's offer must be below the product's price (${formatNaira(price)}).`, [
      {
        field: 'offerNaira',
        message: `Must be below the product's price, ${formatNaira(price)} (for more, offer cash instead)`,
      },
    ]);
  }
}

/** Reads the request again (after a lost race). */
export async function reloadTradeIn(db: Db, row: TradeInRow): Promise<TradeInRow> {
  return (await findTradeIn(db, row.reference)) ?? row;
}
