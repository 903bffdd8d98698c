import { and, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import { unlessChanged } from '../platform/compare-and-set.ts';
import { constraintViolation } from '../platform/constraint-errors.ts';
import type { Db } from '../platform/db.ts';
import { CHECKS, orderLines, products, productVariants, tradeIns, type OrderRow } from '../platform/schema.ts';

/**
 * What a payment for an expired order must hold to revive it (the state machine's
 * accept_late_payment): its lines still on sale as ordered, their units still in stock (the
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

/** Every line of the order still names a product on sale (and its variant, when it had one). */
export async function linesStillOnSale(db: Db, orderId: string): Promise<boolean> {
  const lines = await db.select().from(orderLines).where(eq(orderLines.orderId, orderId));
  if (lines.length === 0) return false;
  const ids = [...new Set(lines.map((l) => l.productId))];
  const [found, variants] = await Promise.all([
    db.select({ id: products.id, active: products.active }).from(products).where(inArray(products.id, ids)),
    db
      .select({ productId: productVariants.productId, id: productVariants.id })
      .from(productVariants)
      .where(or(...ids.map((id) => eq(productVariants.productId, id)))),
  ]);
  return lines.every((line) => {
    const product = found.find((p) => p.id === line.productId);
    if (!product?.active) return false;
    const productVariantIds = variants.filter((v) => v.productId === line.productId).map((v) => v.id);
    return line.variantId === '' ? productVariantIds.length === 0 : productVariantIds.includes(line.variantId);
  });
}

export function isStockShortage(err: unknown): boolean {
  const violation = constraintViolation(err);
  return (
    violation?.kind === 'check' &&
    (violation.name === CHECKS.productsStockNotNegative || violation.name === CHECKS.variantsStockNotNegative)
  );
}
