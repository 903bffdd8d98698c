import { and, desc, eq, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../platform/db.ts';
import { tradeIns, type TradeInRow, type UserRow } from '../platform/schema.ts';
import { sameDigest, sha256Hex } from '../platform/crypto.ts';
import { ApiError, RetryLater } from '../platform/errors.ts';
import { limitWrongGuesses, waitText } from '../platform/rate-limit.ts';
import type { Config } from '../env.ts';

const NOT_FOUND = () =>
  new ApiError(404, 'trade_in_not_found', 'We could not find a trade-in request with that reference and e-mail address.');

/** See functions/orders/find.ts: an unknown reference and a wrong e-mail take the same steps. */
const STAND_IN_EMAIL = 'no-such-trade-in@invalid';

export async function findTradeIn(db: Db, reference: string): Promise<TradeInRow | undefined> {
  const [row] = await db.select().from(tradeIns).where(eq(tradeIns.reference, reference)).limit(1);
  return row;
}

type Account = Pick<UserRow, 'id' | 'email' | 'emailVerified'>;

/**
 * A signed-in user's requests: those sent while signed in, and those sent as a guest with the
 * account's address once it is verified (as with orders, functions/accounts/links.ts).
 */
const ownedBy = (user: Account) =>
  user.emailVerified
    ? or(eq(tradeIns.userId, user.id), and(isNull(tradeIns.userId), eq(tradeIns.email, user.email)))
    : eq(tradeIns.userId, user.id);

function owns(user: Account | null | undefined, row: TradeInRow): boolean {
  if (!user) return false;
  return row.userId === user.id || (row.userId === null && user.emailVerified !== null && row.email === user.email);
}

/**
 * The request, for its requester only: the signed-in user it belongs to, or whoever presents
 * its e-mail address (the lookup's proof). Anyone else gets the same 404 as for an unknown
 * reference, so an answer never tells whether a reference exists.
 */
export async function findForRequester(
  db: Db,
  config: Config,
  reference: string,
  who: { user?: Account | null; email?: string | undefined },
  now = new Date(),
): Promise<TradeInRow> {
  const row = await findTradeIn(db, reference);
  if (row && owns(who.user, row)) return row;
  // Wrong e-mails per reference, from all clients together, as for an order number
  // (RATE_LIMIT_LOOKUP_ORDER, functions/orders/find.ts): a reference seen on a screenshot is
  // not tried against a list of likely addresses from many client addresses.
  return limitWrongGuesses(
    db,
    { key: `trade_ins.lookup.reference:${reference}`, rule: config.RATE_LIMIT_LOOKUP_ORDER },
    async () => {
      const [expected, presented] = await Promise.all([sha256Hex(row?.email ?? STAND_IN_EMAIL), sha256Hex(who.email ?? '')]);
      if (!row || who.email === undefined || !sameDigest(expected, presented)) throw NOT_FOUND();
      return row;
    },
    (seconds) =>
      new RetryLater(
        seconds,
        `This reference was tried with a wrong e-mail address too many times. Please wait ${waitText(seconds)} and try again, or sign in to see it under Trade-ins.`,
      ),
    now,
  );
}

/** A signed-in shopper's requests, newest first. */
export function requestsOf(db: Db, user: Account, limit = 50) {
  return db.select().from(tradeIns).where(ownedBy(user)).orderBy(desc(tradeIns.createdAt), desc(sql`rowid`)).limit(limit);
}
