import { and, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import { unlessChanged } from '../platform/compare-and-set.ts';
import { constraintViolation } from '../platform/constraint-errors.ts';
import type { Config } from '../env.ts';
import type { Db } from '../platform/db.ts';
import { CHECKS, orderLines, products, productVariants, tradeIns, type OrderRow } from '../platform/schema.ts';

/**
 * What a payment for an expired order must hold to revive it (the state machine's
 * accept_late_payment): it came soon enough, its lines still on sale as ordered and at the
 * price ordered, their units still in stock (the
 * move's batch takes them again, and a unit gone breaks its stock CHECK), and a swap's credit
 * still its own. The provider's late payments (functions/payments/apply.ts) and an admin's
 * confirmation of a late transfer into the shared account (functions/orders/admin-moves.ts)
 * both use these.
 */

/**
 * A swap order paid after it expired takes its trade-in's credit back only if that credit is still
 * its own: the trade-in still accepted and pointing at this order. Once the order expired the
 * shopper may have placed the swap again (functions/trade-ins/order.ts), and that order holds the
 * credit now; reviving this one too would spend one trade-in on two orders. The guard is a
 * statement in the move's own batch (the trade-in's version set to 0, which its CHECK refuses), so
 * a swap order placed at the same moment cannot slip between a read and the move; the payment is
 * then flagged for refund like one whose units are gone.
 */
export function creditStillThisOrders(db: Db, order: OrderRow, won: SQL) {
  if (order.tradeInReference === null) return [];
  return [
    db
      .update(tradeIns)
      .set({
        version: unlessChanged(
          sql`${tradeIns.orderId} = ${order.id} AND ${tradeIns.status} = 'accepted'`,
          sql`${tradeIns.version}`,
          0,
        ),
      })
      .where(and(eq(tradeIns.reference, order.tradeInReference), won)),
  ];
}

/** Why a late payment cannot revive its expired order, in the codes the admin's answer uses. */
export type LateRefusal = 'late_payment_too_late' | 'late_payment_unsellable' | 'late_payment_price_changed';

/**
 * Whether a full payment for an expired order may still revive it, read before the move (the
 * units and the swap's credit are checked by the move's own batch):
 * - it came within LATE_PAYMENT_HOURS of the order's expiry: a transfer delayed by the banks, not
 *   an order kept aside for weeks and paid when it suits;
 * - every line still names a product on sale (and its variant, when it had one);
 * - at the price it was ordered at: an order let expire before a price rise, then paid, would
 *   otherwise buy at the old price (and a lower price now is the shopper's to have by ordering again).
 * Null when it may; else the refusal, and the payment is refunded.
 */
export async function lateRevivalRefusal(db: Db, config: Config, order: OrderRow, now: Date): Promise<LateRefusal | null> {
  if (now.getTime() - order.expiresAt.getTime() > config.LATE_PAYMENT_HOURS * HOUR_MS) return 'late_payment_too_late';
  const lines = await db.select().from(orderLines).where(eq(orderLines.orderId, order.id));
  if (lines.length === 0) return 'late_payment_unsellable';
  const ids = [...new Set(lines.map((l) => l.productId))];
  const [found, variants] = await Promise.all([
    db
      .select({ id: products.id, active: products.active, price: products.price })
      .from(products)
      .where(inArray(products.id, ids)),
    db
      .select({ productId: productVariants.productId, id: productVariants.id, price: productVariants.price })
      .from(productVariants)
      .where(or(...ids.map((id) => eq(productVariants.productId, id)))),
  ]);
  let priceChanged = false;
  for (const line of lines) {
    const product = found.find((p) => p.id === line.productId);
    if (!product?.active) return 'late_payment_unsellable';
    const ofProduct = variants.filter((v) => v.productId === line.productId);
    const sold =
      line.variantId === '' ? (ofProduct.length === 0 ? product : undefined) : ofProduct.find((v) => v.id === line.variantId);
    if (!sold) return 'late_payment_unsellable';
    if (sold.price !== line.unitPrice) priceChanged = true;
  }
  return priceChanged ? 'late_payment_price_changed' : null;
}

const HOUR_MS = 3_600_000;

export function isStockShortage(err: unknown): boolean {
  const violation = constraintViolation(err);
  return (
    violation?.kind === 'check' &&
    (violation.name === CHECKS.productsStockNotNegative || violation.name === CHECKS.variantsStockNotNegative)
  );
}
