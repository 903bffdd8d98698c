import { and, eq, lt, sql } from 'drizzle-orm';
import type { Context, MiddlewareHandler } from 'hono';
import type { Db } from '../db/client.ts';
import { rateLimits } from '../db/schema.ts';
import { MAX_RATE_LIMIT_WINDOW_SECONDS, type Config } from '../env.ts';
import type { AppEnv } from './app.ts';
import { sha256Hex } from './crypto.ts';
import { errorBody } from './errors.ts';

/**
 * Per-client request limits kept in D1 (docs/decisions/010-rate-limits-in-d1.md): a
 * fixed-window counter per key (what is limited, and for which client) and window,
 * counted up by one atomic upsert. Works the same in production, under `wrangler dev`
 * and in the API tests; the counters can be read (and are, by the tests), and the
 * accounts work can reuse countRequest() for failed sign-ins per e-mail address.
 */

export interface RateLimitRule {
  /** Requests allowed per window. */
  limit: number;
  windowSeconds: number;
}

export interface RateLimitResult {
  allowed: boolean;
  /** Requests counted in this window, this one included. */
  count: number;
  /** Seconds until the window ends (at least 1). */
  retryAfterSeconds: number;
}

/** Counts one request for `key` in the window `now` falls in, and says whether it is within the limit. */
export async function countRequest(db: Db, key: string, rule: RateLimitRule, now = new Date()): Promise<RateLimitResult> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const windowStart = nowSeconds - (nowSeconds % rule.windowSeconds);
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart, count: 1 })
    .onConflictDoUpdate({ target: [rateLimits.key, rateLimits.windowStart], set: { count: sql`${rateLimits.count} + 1` } })
    .returning({ count: rateLimits.count });
  const count = row?.count ?? 1;
  return { allowed: count <= rule.limit, count, retryAfterSeconds: Math.max(1, windowStart + rule.windowSeconds - nowSeconds) };
}

/**
 * Reads `key`'s count in the current window without counting: for limits on failures
 * (sign-in), where only a failed attempt counts but every attempt is checked first.
 */
export async function peekCount(db: Db, key: string, rule: RateLimitRule, now = new Date()): Promise<RateLimitResult> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const windowStart = nowSeconds - (nowSeconds % rule.windowSeconds);
  const [row] = await db
    .select({ count: rateLimits.count })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, key), eq(rateLimits.windowStart, windowStart)));
  const count = row?.count ?? 0;
  return { allowed: count < rule.limit, count, retryAfterSeconds: Math.max(1, windowStart + rule.windowSeconds - nowSeconds) };
}

/** Deletes counters of windows that ended long ago (every window is at most a day long). Run by the cron. */
export async function pruneRateLimits(db: Db, now = new Date()): Promise<number> {
  const before = Math.floor(now.getTime() / 1000) - MAX_RATE_LIMIT_WINDOW_SECONDS;
  const deleted = await db.delete(rateLimits).where(lt(rateLimits.windowStart, before)).returning({ key: rateLimits.key });
  return deleted.length;
}

/**
 * The client a request is counted for: Cloudflare's `cf-connecting-ip` (127.0.0.1 under
 * `wrangler dev`). An IPv6 client is known by its /64, the block one subscriber gets, or
 * it could take a fresh address for every request. No address (a test calling the app
 * directly): one shared 'unknown' client.
 */
export function clientKey(ip: string | undefined | null): string {
  const address = ip?.trim().toLowerCase();
  if (!address) return 'unknown';
  if (!address.includes(':')) return address;
  const [head = '', tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = address.includes('::') && tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

export function waitText(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? 'a minute' : `${minutes} minutes`;
}

/**
 * A Hono middleware that refuses a client's request past `limit` in a window: 429 with
 * `Retry-After` and the API's error shape (code `rate_limited`). The rule is fixed, or read
 * from the config (vars like RATE_LIMIT_PLACE_ORDER = "10/600"), so tests and local servers
 * can set their own. Every request counts, also one that is refused later as malformed.
 */
export function rateLimit(
  options: { name: string } & (RateLimitRule | { rule: (config: Config) => RateLimitRule }),
): MiddlewareHandler<AppEnv> {
  return async (c: Context<AppEnv>, next) => {
    const rule = 'rule' in options ? options.rule(c.var.config) : options;
    const key = `${options.name}:${clientKey(c.req.header('cf-connecting-ip'))}`;
    const result = await countRequest(c.var.db, key, rule);
    if (!result.allowed) {
      const message = `Too many requests. Please wait ${waitText(result.retryAfterSeconds)} and try again.`;
      return c.json(errorBody('rate_limited', message), 429, {
        'Retry-After': String(result.retryAfterSeconds),
        'cache-control': 'no-store',
      });
    }
    await next();
  };
}

/** The kinds of e-mail a stranger can trigger, each limited per recipient on its own (RATE_LIMIT_EMAIL_RECIPIENT). */
export type StrangerEmailKind = 'account' | 'newsletter' | 'trade_in' | 'order';

/**
 * Whether one more e-mail of `kind` may go to `email` in this window, whoever asks: e-mail
 * bombing from many client addresses is stopped at the recipient (issue 20, finding 7). Counted
 * per address (by its SHA-256, never the address itself) and kind. Callers answer as usual when
 * it says no and only leave the e-mail out, so the answer tells nothing either.
 */
export async function allowEmailTo(
  db: Db,
  config: Config,
  email: string,
  kind: StrangerEmailKind,
  now = new Date(),
): Promise<boolean> {
  const key = `email.to.${kind}:${await sha256Hex(email.trim().toLowerCase())}`;
  return (await countRequest(db, key, config.RATE_LIMIT_EMAIL_RECIPIENT, now)).allowed;
}
