import { type SQL, sql } from 'drizzle-orm';
import { constraintViolation, isCheckViolation } from './constraint-errors.ts';
import type { CheckName } from './schema.ts';

/**
 * The store's one compare-and-set for a change written as a D1 batch of several statements:
 * the batch's first statement on the record sets one of its columns to `next` only if the
 * record is still as it was read (`unchanged`), and otherwise to `refused`, a value that
 * column's CHECK forbids. D1 runs a batch as one transaction, so a record that moved
 * meanwhile refuses the whole batch (history rows, e-mails, audit rows included), and
 * lostTheRace() tells that refusal from any other. Used for a trade-in's version (0 breaks
 * trade_ins_version_positive: functions/trade-ins/move.ts, functions/trade-ins/order.ts), a
 * product's fingerprint and the stock placeOrder reserves (-1 breaks the stock CHECKs:
 * functions/catalogue/admin-products.ts, functions/orders/place.ts).
 *
 * An order's move is the one that differs (functions/orders/move.ts): a guarded UPDATE …
 * WHERE status and last_transition_id are as read, which stamps a fresh transition id that
 * the batch's other statements are guarded by. Two reasons. Losing is routine there (the cron
 * and the expiry on every read race the shopper's and the admin's moves), and the loser is
 * judged again against the order's new state, not refused. And the orders table has no column
 * whose CHECK a sentinel could trip without a second meaning (its credit and total CHECKs are
 * placeOrder's unpaid-hold guard); adding one would mean rebuilding the table, which
 * order_lines, order_events and trade_ins reference, while the transition id must stay anyway
 * as the key the outbox queues the move's e-mail under (queueEmailIfTransition).
 */
export function unlessChanged(unchanged: SQL, next: SQL | number, refused: number): SQL {
  return sql`CASE WHEN ${unchanged} THEN ${next} ELSE ${refused} END`;
}

/** Whether a batch was refused by an unlessChanged() guard on the column `check` keeps: the record moved since it was read. */
export function lostTheRace(err: unknown, check: CheckName): boolean {
  return isCheckViolation(constraintViolation(err), check);
}
