import type { z } from 'zod';
import type { tradeInOrderSchema } from '../../src/features/trade-ins/trade-in-api.ts';
import type { Db } from '../platform/db.ts';
import type { TradeInRow } from '../platform/schema.ts';
import type { Config } from '../env.ts';
import { ApiError } from '../platform/errors.ts';
import { type PlacedOrderResult, placeOrder } from '../orders/place.ts';
import { loadTradeInParts } from './view.ts';

/**
 * An accepted swap becomes an order: one unit of the chosen product (and variant) at its price
 * in D1, the delivery the shopper chose, minus the agreed offer as a credit; then paid by bank
 * transfer like any order. placeOrder() writes it and, in the same batch, points the trade-in
 * at it, refused if the trade-in moved or got a live order meanwhile.
 */
export async function placeSwapOrder(
  db: Db,
  config: Config,
  row: TradeInRow,
  body: z.output<typeof tradeInOrderSchema>,
  userId: string | null,
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
  return placeOrder(
    db,
    config,
    { idempotencyKey: body.idempotencyKey, customer: body.customer, lines: [line] },
    undefined,
    userId,
    { tradeInId: row.id, reference: row.reference, amount: row.offer, version: row.version },
  );
}
