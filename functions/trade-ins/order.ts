import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { tradeInOrderSchema } from '../../src/features/trade-ins/trade-in-api.ts';
import { lostTheRace, unlessChanged } from '../platform/compare-and-set.ts';
import type { Db } from '../platform/db.ts';
import { CHECKS, orders, tradeIns, type TradeInRow } from '../platform/schema.ts';
import type { Config } from '../env.ts';
import { ApiError } from '../platform/errors.ts';
import { type OrderCredit, type OrderOwner, type PlacedOrderResult, placeOrder } from '../orders/place.ts';
import { loadTradeInParts } from './view.ts';
import { CLOSED_WITHOUT_SALE } from '../../src/features/orders/order-status.ts';

/**
 * An accepted swap becomes an order: one unit of the chosen product (and variant) at its price
 * in D1, the delivery the shopper chose, minus the agreed offer as a credit; then paid by bank
 * transfer like any order. placeOrder() writes it and, in the same batch, this request's own
 * statement points the trade-in at it, refused if the trade-in moved or got a live order meanwhile.
 */
export async function placeSwapOrder(
  db: Db,
  config: Config,
  row: TradeInRow,
  body: z.output<typeof tradeInOrderSchema>,
  owner: OrderOwner | null,
): Promise<PlacedOrderResult> {
  if (row.wantKind !== 'swap' || row.swapProductId === null) {
    throw new ApiError(409, 'not_a_swap', 'This request is for cash: there is nothing to order.');
  }
  if (row.status !== 'accepted' || row.offer === null) {
    throw new ApiError(409, 'illegal_transition', 'Only an accepted swap can be ordered.');
  }
  const { price } = (await loadTradeInParts(db, [row])).get(row.id)!;
  if (price === null) {
    throw new ApiError(409, 'swap_unavailable', 'The product you chose is no longer on sale. Please contact us.');
  }
  const line = { productId: row.swapProductId, variant: row.swapVariantId, quantity: 1, price: body.price ?? price };
  const request = { idempotencyKey: body.idempotencyKey, customer: body.customer, lines: [line] };
  return placeOrder(db, config, request, undefined, owner, swapCredit(db, row, row.offer));
}

/**
 * The swap's credit for placeOrder(): the agreed offer, and the statement that points the
 * trade-in at its new order only if it is still accepted at the version read and has no live
 * order (none, or one cancelled or expired). Otherwise the version becomes 0, which
 * trade_ins' CHECK refuses, and so does the order's whole batch (functions/platform/compare-and-set.ts).
 */
function swapCredit(db: Db, row: TradeInRow, amount: number): OrderCredit {
  const ended = sql.join(
    CLOSED_WITHOUT_SALE.map((s) => sql`${s}`),
    sql`, `,
  );
  return {
    reference: row.reference,
    amount,
    statements: (orderId) => [
      db
        .update(tradeIns)
        .set({
          orderId,
          version: unlessChanged(
            sql`${tradeIns.version} = ${row.version} AND ${tradeIns.status} = 'accepted'
                AND (${tradeIns.orderId} IS NULL OR EXISTS (SELECT 1 FROM ${orders} o
                     WHERE o.id = ${tradeIns.orderId} AND o.status IN (${ended})))`,
            row.version + 1,
            0,
          ),
        })
        .where(eq(tradeIns.id, row.id)),
    ],
    refusal: (err) =>
      lostTheRace(err, CHECKS.tradeInsVersionPositive)
        ? new ApiError(409, 'trade_in_changed', 'This trade-in changed or already has an order. Please reload it.')
        : undefined,
  };
}
