import { asc, eq, type SQL } from 'drizzle-orm';
import type { Db } from './db.ts';
import { type orderEvents, type tradeInEvents, users } from './schema.ts';

/** The tables that keep a state machine's moves, one row a move (order_events, trade_in_events): the same columns but their owner's. */
type HistoryTable = typeof orderEvents | typeof tradeInEvents;

/**
 * The status history of one order or trade-in as the admin's detail pages read it: every move
 * in the order it was made, with the e-mail of the signed-in user who made it (if any), for a
 * batch of the page's reads. `owner` picks the rows (the events' owner id).
 */
export function historyQuery<T extends HistoryTable>(db: Db, events: T, owner: SQL) {
  return db
    .select({
      fromStatus: events.fromStatus,
      toStatus: events.toStatus,
      actor: events.actor,
      note: events.note,
      createdAt: events.createdAt,
      email: users.email,
    })
    .from(events)
    .leftJoin(users, eq(users.id, events.actorUserId))
    .where(owner)
    .orderBy(asc(events.id));
}

/** A history row as historyQuery() reads it. */
interface HistoryRow<Status, Actor> {
  fromStatus: Status | null;
  toStatus: Status;
  actor: Actor;
  note: string | null;
  createdAt: Date;
  email: string | null;
}

/**
 * The rows as the admin contracts show them (src/features/<feature>/admin/admin-*-api.ts): `by` is the mover's
 * e-mail where `showsWho(actor)` (an order shows it for admins only, a trade-in for any
 * signed-in mover), null otherwise.
 */
export function historyEntries<Status, Actor>(rows: readonly HistoryRow<Status, Actor>[], showsWho: (actor: Actor) => boolean) {
  return rows.map((e) => ({
    from: e.fromStatus,
    to: e.toStatus,
    actor: e.actor,
    by: showsWho(e.actor) ? e.email : null,
    note: e.note,
    at: e.createdAt.toISOString(),
  }));
}
