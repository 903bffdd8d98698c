import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';

/**
 * Reads from the nearest replica, and a shopper's own writes always seen (D1's Sessions API;
 * docs/decisions/024-reads-from-the-nearest-replica.md). Each API request runs its queries in
 * one D1 session:
 * - it starts from the newest bookmark the browser brought (the `gts_d1` cookie, or the
 *   `x-d1-bookmark` header a script sends): a replica at least as new as what this browser last
 *   wrote or read, so an order just placed or paid never looks missing;
 * - without one, a read (GET) may start on any replica (`first-unconstrained`), a write, and
 *   everything an admin does, on the primary (`first-primary`);
 * - the answer carries the session's newest bookmark back in both.
 * Locally the same code runs on the embedded D1, which has no replicas (every session reads the primary).
 */
export const BOOKMARK_COOKIE = 'gts_d1';
export const BOOKMARK_HEADER = 'x-d1-bookmark';
/** Long enough for any replica to catch up (replica lag is seconds); after that a fresh read is as good. */
const BOOKMARK_MAX_AGE_SECONDS = 15 * 60;

/** What a query needs of D1: the binding itself (the cron, the build's pages) or a request's session. */
export type D1Queries = Pick<D1Database, 'prepare' | 'batch'>;

/** A D1 bookmark: four hex groups (lexicographically ordered, oldest first). Anything else is ignored. */
const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

/** The newest well-formed bookmark the request brought, if any. */
export function requestBookmark(c: Context): string | undefined {
  const brought = [c.req.header(BOOKMARK_HEADER), getCookie(c, BOOKMARK_COOKIE)].filter(
    (b): b is string => typeof b === 'string' && BOOKMARK.test(b),
  );
  return brought.sort().at(-1);
}

/** The session a request's queries run in (see above). */
export function openSession(d1: D1Database, c: Context, { primary }: { primary: boolean }): D1DatabaseSession {
  return d1.withSession(requestBookmark(c) ?? (primary ? 'first-primary' : 'first-unconstrained'));
}

/** Hands the browser the session's newest bookmark, for its next request to start from. */
export function carryBookmark(c: Context, session: D1DatabaseSession) {
  const bookmark = session.getBookmark();
  if (!bookmark || !BOOKMARK.test(bookmark)) return;
  c.header(BOOKMARK_HEADER, bookmark);
  const https = new URL(c.req.url).protocol === 'https:';
  setCookie(c, BOOKMARK_COOKIE, bookmark, {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: https,
    maxAge: BOOKMARK_MAX_AGE_SECONDS,
  });
}
