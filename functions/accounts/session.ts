import { encode, getToken } from '@auth/core/jwt';
import { and, desc, eq, gt, lt, lte, ne, sql } from 'drizzle-orm';
import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import type { SessionUser, SignedInSession } from '../../src/features/account/account-api.ts';
import { deviceLabel } from '../../src/features/account/device-label.ts';
import type { Db } from '../platform/db.ts';
import { sessions, users, type UserRow } from '../platform/schema.ts';
import type { AppEnv } from '../platform/app.ts';
import { ApiError } from '../platform/errors.ts';

/**
 * Sessions are Auth.js JWT cookies (credentials sign-in only works with JWT sessions),
 * encrypted with AUTH_SECRET, each naming a row of `sessions` in D1 (`sid`) and carrying the
 * user's `session_version` (`sv`) from the time it was issued. Every authenticated call reads
 * the row and the user from D1 and refuses a cookie whose row is gone or expired or whose
 * version is behind: deleting the row ends one session for every copy of its cookie (sign-out),
 * deleting the user's rows and raising the version ends them all (sign out everywhere, password
 * change or reset, the address's first proof). See docs/decisions/011.
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
  /** The id of the session's row in `sessions`. */
  sid?: string;
}

/** A session that is still current: its user and its row's id. */
export interface CurrentSession {
  user: UserRow;
  sessionId: string;
}

/** `last_seen_at` is rewritten at most this often: a D1 write per visit, not per request. */
export const LAST_SEEN_REFRESH_SECONDS = 5 * 60;

const secondsFromNow = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000);

/**
 * Starts a session of `userId` at the user's session `version` (a row; its id goes into the
 * cookie as `sid`), written only while the user is still at that version: a sign-in whose
 * password was checked before a reset, a claim or a sign-out-everywhere bumped it gets no row,
 * and its token is not current (sessionIsCurrent). The label is a coarse "Browser on OS" from the
 * User-Agent, for the account's list of where it is signed in.
 */
export async function startSession(
  db: Db,
  userId: string,
  version: number,
  userAgent: string | undefined,
  now = new Date(),
): Promise<string> {
  const id = crypto.randomUUID();
  await db.insert(sessions).select(
    db
      .select({
        id: sql<string>`${id}`.as('id'),
        userId: users.id,
        label: sql<string>`${deviceLabel(userAgent)}`.as('label'),
        createdAt: sql<number>`${Math.floor(now.getTime() / 1000)}`.as('created_at'),
        lastSeenAt: sql<number>`${Math.floor(now.getTime() / 1000)}`.as('last_seen_at'),
        expiresAt: sql<number>`${Math.floor(secondsFromNow(now, SESSION_MAX_AGE_SECONDS).getTime() / 1000)}`.as('expires_at'),
      })
      .from(users)
      .where(and(eq(users.id, userId), eq(users.sessionVersion, version))),
  );
  return id;
}

/** The token's session when its row exists for its user, has not expired, and the user's version is the token's. */
export async function sessionIsCurrent(db: Db, claims: SessionClaims, now = new Date()): Promise<CurrentSession | null> {
  if (typeof claims.sub !== 'string' || typeof claims.sv !== 'number' || typeof claims.sid !== 'string') return null;
  const [row] = await db
    .select({ user: users, session: sessions })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, claims.sid), eq(sessions.userId, claims.sub)));
  if (!row || row.user.sessionVersion !== claims.sv || row.session.expiresAt.getTime() <= now.getTime()) return null;
  const stale = secondsFromNow(now, -LAST_SEEN_REFRESH_SECONDS);
  if (row.session.lastSeenAt.getTime() <= stale.getTime()) {
    // Conditional, so concurrent requests of one session write it once; a visit keeps the session alive.
    await db
      .update(sessions)
      .set({ lastSeenAt: now, expiresAt: secondsFromNow(now, SESSION_MAX_AGE_SECONDS) })
      .where(and(eq(sessions.id, claims.sid), lte(sessions.lastSeenAt, stale)));
  }
  return { user: row.user, sessionId: claims.sid };
}

/** Ends one session of the user (every copy of its cookie); answers whether there was one. */
export async function endSession(db: Db, userId: string, sessionId: string): Promise<boolean> {
  const ended = await db
    .delete(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
    .returning({ id: sessions.id });
  return ended.length > 0;
}

/** The statement that ends every session of the user but `keep` (for a batch). */
export function endSessionsStatement(db: Db, userId: string, keep?: string) {
  return db.delete(sessions).where(keep ? and(eq(sessions.userId, userId), ne(sessions.id, keep)) : eq(sessions.userId, userId));
}

/** Where the user is signed in (their own rows only), most recently seen first; `currentId` marks this browser's. */
export async function listSessions(db: Db, userId: string, currentId: string, now = new Date()): Promise<SignedInSession[]> {
  const rows = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now)))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
  return rows.map((row) => ({
    id: row.id,
    label: row.label,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    current: row.id === currentId,
  }));
}

/** The cron: deletes sessions past their expiry. */
export async function pruneExpiredSessions(db: Db, now = new Date()): Promise<number> {
  const pruned = await db.delete(sessions).where(lt(sessions.expiresAt, now)).returning({ id: sessions.id });
  return pruned.length;
}

const cache = new WeakMap<Request, Promise<CurrentSession | null>>();

/** This request's session (read once per request), or null for a guest or an ended session. */
export function currentSession<E extends AppEnv>(c: Context<E>): Promise<CurrentSession | null> {
  let found = cache.get(c.req.raw);
  if (!found) {
    found = readSession(c);
    cache.set(c.req.raw, found);
  }
  return found;
}

/** The signed-in user of this request, or null for a guest or an ended session. */
export async function sessionUser<E extends AppEnv>(c: Context<E>): Promise<UserRow | null> {
  return (await currentSession(c))?.user ?? null;
}

async function readSession<E extends AppEnv>(c: Context<E>): Promise<CurrentSession | null> {
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
 * used after a password change or "sign out other devices" raised the version (keeping this
 * browser's session, `sessionId`), so this browser stays signed in while every other session
 * ends; and after the address's first proof, which starts a new session for this browser.
 */
export async function issueSessionCookie<E extends AppEnv>(c: Context<E>, user: UserRow, sessionId?: string): Promise<void> {
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
    sid: sessionId ?? (await startSession(c.var.db, user.id, user.sessionVersion, c.req.header('user-agent'))),
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
  Variables: AppEnv['Variables'] & { user: UserRow; sessionId: string };
}

/** Guests get 401 (`unauthorized`); the signed-in user is `c.var.user`. Answers are never cached. */
export function requireUser(): MiddlewareHandler<SignedInEnv> {
  return async (c, next) => {
    c.header('cache-control', 'no-store');
    const session = await currentSession(c);
    if (!session) throw new ApiError(401, 'unauthorized', 'Please sign in to continue.');
    c.set('user', session.user);
    c.set('sessionId', session.sessionId);
    await next();
  };
}

/** For the admin API: 401 for guests, 403 for signed-in users whose D1 role is not 'admin'. */
export function requireAdmin(): MiddlewareHandler<SignedInEnv> {
  return async (c, next) => {
    c.header('cache-control', 'no-store');
    const session = await currentSession(c);
    if (!session) throw new ApiError(401, 'unauthorized', 'Please sign in to continue.');
    if (session.user.role !== 'admin')
      throw new ApiError(403, 'forbidden', 'Access Denied - You need admin privileges to access this page.');
    c.set('user', session.user);
    c.set('sessionId', session.sessionId);
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
