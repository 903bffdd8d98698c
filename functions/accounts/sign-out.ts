import { and, eq, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv } from '../platform/app.ts';
import { ApiError } from '../platform/errors.ts';
import { trustDevice, trustedDeviceId } from './device.ts';
import { users, type UserRow } from '../platform/schema.ts';
import {
  clearSessionCookie,
  currentSession,
  endSession,
  endSessionsStatement,
  issueSessionCookie,
  type SignedInEnv,
} from './session.ts';

/** Signs this browser out: its session's row goes, so a copy of this cookie (another tab, a thief's) is dead too. */
export async function signOutHere(c: Context<AppEnv>): Promise<void> {
  const session = await currentSession(c);
  if (session) await endSession(c.var.db, session.user.id, session.sessionId);
  clearSessionCookie(c);
}

/**
 * Ends every other session of the signed-in user (their rows, and the version for any cookie
 * from before sessions were rows), applying `set` with the new version (a new password); this
 * browser keeps its session with a cookie at the new version. 401 when the user is gone, or
 * moved to another version since this request's session was checked (a reset, a claim).
 */
export async function endOtherSessions(c: Context<SignedInEnv>, set: Partial<typeof users.$inferInsert> = {}): Promise<UserRow> {
  const { db, user, sessionId } = c.var;
  const trustedHere = await trustedDeviceId(c, user);
  // Only at the version this request's session was checked at: a reset or a claim that landed
  // meanwhile (it ended this session too) must not be undone by it, its password least of all.
  const [row] = await db
    .update(users)
    .set({ ...set, sessionVersion: sql`${users.sessionVersion} + 1` })
    .where(and(eq(users.id, user.id), eq(users.sessionVersion, user.sessionVersion)))
    .returning();
  if (!row) throw new ApiError(401, 'unauthorized', 'Please sign in to continue.');
  // The other sessions' tokens died with the version; their rows go too.
  await endSessionsStatement(db, user.id, sessionId);
  await issueSessionCookie(c, row, sessionId);
  // The new version ends every browser's trust for the address (functions/accounts/device.ts);
  // this one keeps its own, or earns it with the password it just showed.
  if (trustedHere || set.passwordHash) await trustDevice(c, row);
  return row;
}

/** Ends every session of the signed-in user, this browser's too (its cookie cleared). */
export async function signOutEverywhere(c: Context<SignedInEnv>): Promise<void> {
  const { db, user } = c.var;
  await db.batch([
    db
      .update(users)
      .set({ sessionVersion: sql`${users.sessionVersion} + 1` })
      .where(eq(users.id, user.id)),
    endSessionsStatement(db, user.id),
  ]);
  clearSessionCookie(c);
}

/**
 * Ends one of the signed-in user's sessions (every copy of its cookie). Only the user's own
 * rows match: another user's id is the same 404 as an unknown one. Ending this browser's own
 * session clears its cookie too.
 */
export async function signOutDevice(c: Context<SignedInEnv>, id: string): Promise<void> {
  const { db, user, sessionId } = c.var;
  if (!(await endSession(db, user.id, id))) throw new ApiError(404, 'not_found', 'That session is not signed in any more.');
  if (id === sessionId) clearSessionCookie(c);
}
