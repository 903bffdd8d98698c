import { eq, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import type { Config } from '../env.ts';
import type { AppEnv } from '../platform/app.ts';
import type { Db } from '../platform/db.ts';
import { allowEmailTo } from '../platform/rate-limit.ts';
import { accounts, users } from '../platform/schema.ts';
import { clearSignInFailures } from './credentials.ts';
import { trustDevice } from './device.ts';
import { consumeLink, firstProofStatements, invalidToken, peekLink, resetLinkStatements } from './links.ts';
import { passwordResetEmail } from './messages.ts';
import { hashPassword } from './password.ts';
import { clearSessionCookie, endSessionsStatement } from './session.ts';

/**
 * 'Forgot password?': a reset link for the address's account, the same statements whether or
 * not it has one (INSERT … SELECT), so nothing tells. Past the per-recipient limit nothing is
 * written: the last link sent keeps working, and the inbox is not flooded from many clients
 * (issue 20, finding 7).
 */
export async function sendPasswordReset(db: Db, config: Config, email: string): Promise<void> {
  if (!(await allowEmailTo(db, config, email, 'account'))) return;
  await db.batch(
    await resetLinkStatements(db, config.SITE_URL, eq(users.email, email), (link) => passwordResetEmail(email, null, link)),
  );
}

/** Whether a reset link still works, without using it (the page asks as it opens): 400 `invalid_token` when not. */
export async function checkResetLink(db: Db, token: string): Promise<void> {
  if (!(await peekLink(db, 'reset', token))) throw invalidToken();
}

/**
 * The reset link, used with a new password (400 `invalid_token` for a link unknown, used or
 * expired). The link proved the address: every session and Google link ends (a thief's too), this browser's
 * cookie is cleared, and the address's sign-in failures are forgiven. If it is the address's
 * first proof, so does everything else set up before it (a Google link), and the owner hears.
 */
export async function resetPassword(c: Context<AppEnv>, token: string, password: string): Promise<void> {
  const { db, config } = c.var;
  const userId = await consumeLink(db, 'reset', token);
  const [user] = userId ? await db.select().from(users).where(eq(users.id, userId)) : [];
  if (!user) throw invalidToken();
  const passwordHash = await hashPassword(password);
  if (user.emailVerified === null) {
    await db.batch(firstProofStatements(db, user, config.SITE_URL, { passwordHash }));
  } else {
    await db.batch([
      db
        .update(users)
        .set({ passwordHash, sessionVersion: sql`${users.sessionVersion} + 1` })
        .where(eq(users.id, user.id)),
      endSessionsStatement(db, user.id),
      // And every Google link: one a thief made while in would outlive their sessions. The
      // owner's own Google sign-in links again by its address (Google vouching for it).
      db.delete(accounts).where(eq(accounts.userId, user.id)),
    ]);
  }
  await clearSignInFailures(c, user.email);
  // Trusted at the session version the reset just raised: the browsers trusted before are not.
  const [reset] = await db.select().from(users).where(eq(users.id, user.id));
  if (reset) await trustDevice(c, reset);
  clearSessionCookie(c);
}
