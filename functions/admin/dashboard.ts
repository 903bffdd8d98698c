import { and, asc, eq, gte, inArray, lte, notExists, sql } from 'drizzle-orm';
import { PAID_FOR } from '../../src/features/orders/order-status.ts';
import type { Dashboard } from '../../src/features/admin/admin-api.ts';
import type { Db } from '../platform/db.ts';
import { orders, products, productVariants } from '../platform/schema.ts';
import type { Config } from '../env.ts';
import { expireOverdueOrders } from '../orders/expire.ts';
import { expiringSoon, reportedPayments } from '../orders/admin.ts';
import { paymentsWaiting } from '../payments/admin.ts';

/**
 * The admin's dashboard: reported transfers to check (overdue ones flagged), unpaid orders
 * about to expire, what is running out, and the last 30 days of orders and revenue.
 */

/** Unpaid orders whose hold ends within this many hours are listed as expiring soon. */
export const EXPIRING_WITHIN_HOURS = 12;
/** Days in the daily series, today (Lagos time) included. */
export const DASHBOARD_DAYS = 30;
const LOW_STOCK_LIMIT = 50;
/** Lagos is UTC+1 all year (West Africa Time, no daylight saving). */
const LAGOS_OFFSET_SECONDS = 3600;
const DAY_SECONDS = 86_400;

/** The Lagos calendar day of an instant, as days since 1970-01-01. */
const lagosDayNumber = (date: Date) => Math.floor((date.getTime() / 1000 + LAGOS_OFFSET_SECONDS) / DAY_SECONDS);
const isoDay = (dayNumber: number) => new Date(dayNumber * DAY_SECONDS * 1000).toISOString().slice(0, 10);

export async function loadDashboard(db: Db, config: Config, now = new Date()): Promise<Dashboard> {
  // As every read of orders does: what ran out of time is expired (and its stock released) first.
  await expireOverdueOrders(db, config, now, 50);
  const today = lagosDayNumber(now);
  const firstDay = today - (DASHBOARD_DAYS - 1);
  // Lagos midnight of the first day, in unix seconds.
  const since = firstDay * DAY_SECONDS - LAGOS_OFFSET_SECONDS;
  // Constants written into the SQL, not bound: D1 binds a JS number as REAL, which would make this a fraction.
  const day =
    sql<number>`(${orders.createdAt} + ${sql.raw(String(LAGOS_OFFSET_SECONDS))}) / ${sql.raw(String(DAY_SECONDS))}`.mapWith(
      Number,
    );
  const threshold = config.LOW_STOCK_THRESHOLD;

  const [reported, expiring, perDay, productsLow, variantsLow, waiting] = await Promise.all([
    reportedPayments(db, config, now),
    expiringSoon(db, config, now, EXPIRING_WITHIN_HOURS),
    db
      .select({
        day,
        orders: sql<number>`count(*)`.mapWith(Number),
        // Revenue: the orders that brought money in (paid, shipped, delivered), by the day they were placed.
        revenue:
          sql<number>`coalesce(sum(CASE WHEN ${inArray(orders.status, [...PAID_FOR])} THEN ${orders.total} ELSE 0 END), 0)`.mapWith(
            Number,
          ),
      })
      .from(orders)
      .where(gte(orders.createdAt, new Date(since * 1000)))
      .groupBy(day),
    // Products sold without variants…
    db
      .select({ productId: products.id, name: products.name, stock: products.stock })
      .from(products)
      .where(
        and(
          eq(products.active, true),
          lte(products.stock, threshold),
          notExists(db.select({ one: sql`1` }).from(productVariants).where(eq(productVariants.productId, products.id))),
        ),
      )
      .orderBy(asc(products.stock), asc(products.name))
      .limit(LOW_STOCK_LIMIT),
    // …and each variant of a product on sale.
    db
      .select({
        productId: productVariants.productId,
        variantId: productVariants.id,
        name: products.name,
        variant: productVariants.label,
        stock: productVariants.stock,
      })
      .from(productVariants)
      .innerJoin(products, eq(products.id, productVariants.productId))
      .where(and(eq(products.active, true), lte(productVariants.stock, threshold)))
      .orderBy(asc(productVariants.stock), asc(products.name), asc(productVariants.position))
      .limit(LOW_STOCK_LIMIT),
    paymentsWaiting(db),
  ]);

  const lowStock = [
    ...productsLow.map((p) => ({ productId: p.productId, variantId: '', name: p.name, variant: '', stock: p.stock })),
    ...variantsLow,
  ]
    .sort((a, b) => a.stock - b.stock || a.name.localeCompare(b.name) || a.variant.localeCompare(b.variant))
    .slice(0, LOW_STOCK_LIMIT);

  const byDay = new Map(perDay.map((d) => [d.day, d]));
  const daily = Array.from({ length: DASHBOARD_DAYS }, (_, i) => {
    const n = firstDay + i;
    const found = byDay.get(n);
    return { day: isoDay(n), orders: found?.orders ?? 0, revenue: found?.revenue ?? 0 };
  });

  return {
    generatedAt: now.toISOString(),
    reportedPayments: reported,
    paymentsWaiting: waiting,
    expiringSoon: expiring,
    lowStock,
    lowStockThreshold: threshold,
    alertHours: config.PAYMENT_REPORT_ALERT_HOURS,
    daily,
  };
}
