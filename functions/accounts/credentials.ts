import { and, eq, gte, lt, or } from 'drizzle-orm';
import type { Context } from 'hono';
import { rateLimits, users, type UserRow } from '../platform/schema.ts';
import type { AppEnv } from '../platform/app.ts';
import { sha256Hex } from '../platform/crypto.ts';
import { ApiError } from '../platform/errors.ts';
import { clientCounters, clientKey, type CountedKey, countRequests, takeBackRequests, waitText } from '../platform/rate-limit.ts';
import { trustedDeviceId } from './device.ts';
import { hashPassword, needsRehash, verifyPassword } from './password.ts';

/**
 * Checks an e-mail and password, with the sign-in limits (docs/decisions/010 and 011). Every
 * attempt is counted first, in one atomic D1 batch, and refused past any limit before the
 * password is looked at, so parallel guesses cannot slip in between a read and a write:
 * - the (address, client) pair, RATE_LIMIT_SIGN_IN_PAIR;
 * - the client, RATE_LIMIT_SIGN_IN_CLIENT (an IPv6 client by its /64 and its /48);
 * - for a browser with no device cookie for this address, the address's unknown devices
 *   together, RATE_LIMIT_SIGN_IN_EMAIL; a browser that proved the address before is counted
 *   under its own device id instead (functions/accounts/device.ts), so strangers' failures never
 *   lock the owner out of their own devices.
 * The right password takes its attempt back, so only failures accumulate. The admin's
 * address is treated like any other. An unknown address costs the same PBKDF2 as a wrong password.
 */
type PasswordCheck =
  | { kind: 'ok'; user: UserRow }
  | { kind: 'invalid' }
  | { kind: 'rate_limited'; retryAfterSeconds: number; message: string };

export const INVALID_CREDENTIALS_MESSAGE = 'That e-mail address and password do not match an account. Check them and try again.';

const addressHash = (email: string) => sha256Hex(email.trim().toLowerCase());

/**
 * The counters one attempt for `email` (whose account is `account`, if it has one) from this
 * request counts under, and which of them belong to the address.
 */
async function attemptCounters<E extends AppEnv>(c: Context<E>, email: string, account: UserRow | undefined) {
  const { config } = c.var;
  const address = await addressHash(email);
  const ip = c.req.header('cf-connecting-ip');
  const deviceId = await trustedDeviceId(c, account);
  const forAddress: CountedKey[] = [
    { key: `signin.fail.pair:${address}:${clientKey(ip)}`, rule: config.RATE_LIMIT_SIGN_IN_PAIR },
    deviceId
      ? { key: `signin.fail.device:${address}:${deviceId}`, rule: config.RATE_LIMIT_SIGN_IN_PAIR }
      : { key: `signin.fail.email:${address}`, rule: config.RATE_LIMIT_SIGN_IN_EMAIL },
  ];
  return { forAddress, all: [...forAddress, ...clientCounters('signin.fail.client', ip, config.RATE_LIMIT_SIGN_IN_CLIENT)] };
}

function refusal(addressBlocked: boolean, retryAfterSeconds: number): PasswordCheck {
  const wait = waitText(retryAfterSeconds);
  return {
    kind: 'rate_limited',
    retryAfterSeconds,
    message: addressBlocked
      ? `Too many failed sign-in attempts for this address. Please wait ${wait} and try again, or reset your password with "Forgot password?": the link we e-mail you lets this browser sign in straight away.`
      : `Too many failed sign-in attempts from your network. Please wait ${wait} and try again.`,
  };
}

export async function checkPassword<E extends AppEnv>(
  c: Context<E>,
  email: string,
  password: string,
  now = new Date(),
): Promise<PasswordCheck> {
  const { db } = c.var;
  // Read first: a device's trust is bound to the account as it is now (functions/accounts/device.ts).
  const [user] = await db.select().from(users).where(eq(users.email, email));
  const counters = await attemptCounters(c, email, user);
  const counted = await countRequests(db, counters.all, now);
  const over = counted.filter((r) => !r.allowed);
  if (over.length) {
    const addressKeys = new Set(counters.forAddress.map((k) => k.key));
    return refusal(
      over.some((r) => addressKeys.has(r.key)),
      Math.max(...over.map((r) => r.retryAfterSeconds)),
    );
  }

  if (!(await verifyPassword(password, user?.passwordHash)) || !user) return { kind: 'invalid' };
  // The owner's typos from this client are forgiven with the right password; elsewhere the
  // attempt only takes back its own count, so other clients' failures still count.
  await takeBackRequests(db, counted);
  await db.delete(rateLimits).where(eq(rateLimits.key, counters.forAddress[0]!.key));
  if (user.passwordHash && needsRehash(user.passwordHash)) {
    // Only over the hash just checked: a reset landing meanwhile keeps its new password.
    await db
      .update(users)
      .set({ passwordHash: await hashPassword(password) })
      .where(and(eq(users.id, user.id), eq(users.passwordHash, user.passwordHash)));
  }
  return { kind: 'ok', user };
}

/**
 * A check the limits refused becomes 429 `rate_limited` with Retry-After: the answer of the
 * JSON routes that take a password (Auth.js's own form gets `code=rate_limited` instead).
 */
export function throwIfRateLimited<E extends AppEnv>(c: Context<E>, check: PasswordCheck): void {
  if (check.kind !== 'rate_limited') return;
  c.header('Retry-After', String(check.retryAfterSeconds));
  throw new ApiError(429, 'rate_limited', check.message);
}

/**
 * Proof that whoever asks knows `user`'s password, counted like a sign-in attempt, so a stolen
 * session or a stranger holding a verify link cannot guess on: past the limits 429 (above);
 * a wrong password, or another account's, throws `wrong()`, the caller's words for it.
 */
export async function confirmPassword<E extends AppEnv>(
  c: Context<E>,
  user: Pick<UserRow, 'id' | 'email'>,
  password: string,
  wrong: () => ApiError,
): Promise<void> {
  const check = await checkPassword(c, user.email, password);
  throwIfRateLimited(c, check);
  if (check.kind !== 'ok' || check.user.id !== user.id) throw wrong();
}

/** Keys that start with `prefix` (which ends in ':'): a range, since D1 refuses LIKE patterns over 50 bytes. */
const startsWith = (prefix: string) => and(gte(rateLimits.key, prefix), lt(rateLimits.key, `${prefix.slice(0, -1)};`));

/**
 * After the owner proved the address (a successful reset) or changed the password while signed
 * in: the address's failures so far no longer count, from any client or device.
 */
export async function clearSignInFailures<E extends AppEnv>(c: Context<E>, email: string): Promise<void> {
  const address = await addressHash(email);
  await c.var.db
    .delete(rateLimits)
    .where(
      or(
        eq(rateLimits.key, `signin.fail.email:${address}`),
        startsWith(`signin.fail.pair:${address}:`),
        startsWith(`signin.fail.device:${address}:`),
      ),
    );
}
