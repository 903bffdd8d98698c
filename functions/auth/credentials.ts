import { and, eq } from 'drizzle-orm';
import type { Context } from 'hono';
import { rateLimits, users, type UserRow } from '../db/schema.ts';
import type { AppEnv } from '../lib/app.ts';
import { sha256Hex } from '../lib/crypto.ts';
import { clientKey, countRequest, peekCount, waitText } from '../lib/rate-limit.ts';
import { hashPassword, needsRehash, verifyPassword } from './password.ts';

/**
 * Checks an e-mail and password, with the failed-attempt limits (docs/decisions/010 and
 * 011): failures are counted in D1 per address (by its hash) and per client; once either
 * is at its limit, attempts are refused with a wait time before the password is looked at.
 * An unknown address costs the same PBKDF2 as a wrong password.
 */
export type PasswordCheck =
  | { kind: 'ok'; user: UserRow }
  | { kind: 'invalid' }
  | { kind: 'rate_limited'; retryAfterSeconds: number; message: string };

export const INVALID_CREDENTIALS_MESSAGE = 'That e-mail address and password do not match an account. Check them and try again.';

async function failureKeys<E extends AppEnv>(c: Context<E>, email: string) {
  return {
    email: `signin.fail.email:${await sha256Hex(email)}`,
    client: `signin.fail.client:${clientKey(c.req.header('cf-connecting-ip'))}`,
  };
}

export async function checkPassword<E extends AppEnv>(c: Context<E>, email: string, password: string): Promise<PasswordCheck> {
  const { db, config } = c.var;
  const keys = await failureKeys(c, email);
  const [byEmail, byClient] = await Promise.all([
    peekCount(db, keys.email, config.RATE_LIMIT_SIGN_IN_EMAIL),
    peekCount(db, keys.client, config.RATE_LIMIT_SIGN_IN_CLIENT),
  ]);
  const blocked = [byEmail, byClient].filter((r) => !r.allowed);
  if (blocked.length) {
    const retryAfterSeconds = Math.max(...blocked.map((r) => r.retryAfterSeconds));
    return {
      kind: 'rate_limited',
      retryAfterSeconds,
      message: `Too many failed sign-in attempts. Please wait ${waitText(retryAfterSeconds)} and try again, or reset your password.`,
    };
  }

  const [user] = await db.select().from(users).where(eq(users.email, email));
  if (!(await verifyPassword(password, user?.passwordHash)) || !user) {
    await Promise.all([
      countRequest(db, keys.email, config.RATE_LIMIT_SIGN_IN_EMAIL),
      countRequest(db, keys.client, config.RATE_LIMIT_SIGN_IN_CLIENT),
    ]);
    return { kind: 'invalid' };
  }
  // The right password: the address's failures so far no longer count against its owner.
  await db.delete(rateLimits).where(and(eq(rateLimits.key, keys.email)));
  if (user.passwordHash && needsRehash(user.passwordHash)) {
    await db
      .update(users)
      .set({ passwordHash: await hashPassword(password) })
      .where(eq(users.id, user.id));
  }
  return { kind: 'ok', user };
}
