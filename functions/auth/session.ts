import { encode, getToken } from '@auth/core/jwt';
import { eq } from 'drizzle-orm';
import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import type { SessionUser } from '../../src/features/account/account-api.ts';
import type { Db } from '../db/client.ts';
import { users, type UserRow } from '../db/schema.ts';
import type { AppEnv } from '../lib/app.ts';
import { ApiError } from '../lib/errors.ts';

/**
 * Sessions are Auth.js JWT cookies (credentials sign-in only works with JWT sessions),
 * encrypted with AUTH_SECRET. Each carries the user's `session_version` (`sv`) from the
 * time it was issued; every authenticated call reads the user from D1 and refuses a
 * cookie whose version is behind, so raising the version (sign out everywhere, password
 * change or reset) ends every earlier session at once. See docs/decisions/011.
 */

/** How long a session lasts without a visit that renews it. */
export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

/** Auth.js's cookie names: `__Secure-` over https (and the Secure flag), plain over http (local runs). */
export function isSecureRequest(c: Context): boolean {
  return new URL(c.req.url).protocol === 'https:';
}

export function sessionCookieName(secure: boolean): string {
  return `${secure ? '__Secure-' : ''}authjs.session-token`;
}

/** The claims the store adds to Auth.js's token. */
export interface SessionClaims {
  sub?: string;
  /** The user's session version when the token was issued. */
  sv?: number;
}

/** True when the token's user exists and its version is current. */
export async function sessionIsCurrent(db: Db, claims: SessionClaims): Promise<UserRow | null> {
  if (typeof claims.sub !== 'string' || typeof claims.sv !== 'number') return null;
  const [user] = await db.select().from(users).where(eq(users.id, claims.sub));
  return user && user.sessionVersion === claims.sv ? user : null;
}

const cache = new WeakMap<Request, Promise<UserRow | null>>();

/** The signed-in user of this request (read once per request), or null for a guest or an ended session. */
export function sessionUser<E extends AppEnv>(c: Context<E>): Promise<UserRow | null> {
  let found = cache.get(c.req.raw);
  if (!found) {
    found = readSession(c);
    cache.set(c.req.raw, found);
  }
  return found;
}

async function readSession<E extends AppEnv>(c: Context<E>): Promise<UserRow | null> {
  const secret = c.var.config.AUTH_SECRET;
  if (!secret) return null;
  const secure = isSecureRequest(c);
  let claims: SessionClaims | null;
  try {
    claims = (await getToken({
      req: c.req.raw,
      secret,
      secureCookie: secure,
      salt: sessionCookieName(secure),
    })) as SessionClaims | null;
  } catch {
    claims = null; // A cookie from another secret, or tampered with: a guest.
  }
  return claims ? sessionIsCurrent(c.var.db, claims) : null;
}

/** The user as the islands see it (GET /api/session, sign-in). */
export function toSessionUser(user: UserRow): SessionUser {
  return { id: user.id, name: user.name, email: user.email, role: user.role, emailVerified: user.emailVerified !== null };
}

/**
 * Sets a fresh session cookie for `user` at its current session version, as Auth.js would:
 * used after a password change or "sign out other devices" raised the version, so this
 * browser stays signed in while every other session ends.
 */
export async function issueSessionCookie<E extends AppEnv>(c: Context<E>, user: UserRow): Promise<void> {
  const secret = c.var.config.AUTH_SECRET;
  if (!secret) throw new ApiError(500, 'auth_not_configured', 'Sign-in is not configured on this server.');
  const secure = isSecureRequest(c);
  const name = sessionCookieName(secure);
  const token: Record<string, unknown> = {
    name: user.name,
    email: user.email,
    picture: user.image,
    sub: user.id,
    sv: user.sessionVersion,
  };
  const value = await encode({ token, secret, salt: name, maxAge: SESSION_MAX_AGE_SECONDS });
  setCookie(c, name, value, { httpOnly: true, secure, sameSite: 'Lax', path: '/', maxAge: SESSION_MAX_AGE_SECONDS });
}

/** Ends this browser's session (the cookie; the token is useless without it). */
export function clearSessionCookie<E extends AppEnv>(c: Context<E>): void {
  const secure = isSecureRequest(c);
  deleteCookie(c, sessionCookieName(secure), { path: '/', secure, httpOnly: true, sameSite: 'Lax' });
}

export interface SignedInEnv extends AppEnv {
  Variables: AppEnv['Variables'] & { user: UserRow };
}

/** Guests get 401 (`unauthorized`); the signed-in user is `c.var.user`. Answers are never cached. */
export function requireUser(): MiddlewareHandler<SignedInEnv> {
  return async (c, next) => {
    c.header('cache-control', 'no-store');
    const user = await sessionUser(c);
    if (!user) throw new ApiError(401, 'unauthorized', 'Please sign in to continue.');
    c.set('user', user);
    await next();
  };
}

/** For the admin API: 401 for guests, 403 for signed-in users whose D1 role is not 'admin'. */
export function requireAdmin(): MiddlewareHandler<SignedInEnv> {
  return async (c, next) => {
    c.header('cache-control', 'no-store');
    const user = await sessionUser(c);
    if (!user) throw new ApiError(401, 'unauthorized', 'Please sign in to continue.');
    if (user.role !== 'admin')
      throw new ApiError(403, 'forbidden', 'Access Denied - You need admin privileges to access this page.');
    c.set('user', user);
    await next();
  };
}

/**
 * State-changing account routes take requests from the store's own pages only: a
 * cross-site Origin (or Sec-Fetch-Site: cross-site), or no Origin at all, is 403. The
 * app-wide csrf() already refuses cross-site form posts; this also covers JSON bodies and
 * body-less posts, whatever their content type.
 */
export function sameOriginOnly<E extends AppEnv = AppEnv>(): MiddlewareHandler<E> {
  return async (c, next) => {
    const origin = c.req.header('origin');
    const site = c.req.header('sec-fetch-site');
    const own = new URL(c.req.url).origin;
    if (site === 'cross-site' || site === 'same-site' || origin !== own) {
      throw new ApiError(403, 'forbidden', 'This request must come from the store’s own pages.');
    }
    await next();
  };
}
