import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Context, MiddlewareHandler } from 'hono';
import type { Db } from './db.ts';
import { rateLimits } from './schema.ts';
import { MAX_RATE_LIMIT_WINDOW_SECONDS, type Config } from '../env.ts';
import type { AppEnv } from './app.ts';
import { sha256Hex } from './crypto.ts';
import { errorBody } from './errors.ts';
import { mailboxKey } from './mailbox.ts';

/**
 * Per-client request limits kept in D1 (docs/decisions/010-rate-limits-in-d1.md): a counter
 * per key (what is limited, and for which client) and window, counted up by one atomic upsert,
 * and judged as a sliding window: the previous window's count still weighs, fading as the
 * current window goes by, so no window boundary lets a client in with twice the limit.
 * Works the same in production, under `wrangler dev` and in the API tests; the counters can be
 * read (and are, by the tests), and sign-in counts its attempts per address, client and device
 * with the same countRequests().
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
  /** Requests counted in the window before this one (they still weigh: see withinLimit). */
  previousCount: number;
  /**
   * Seconds until one more request would be allowed, if none is sent before (at least 1): when
   * the previous window has faded enough, or, if this window is full, part of the next one.
   */
  retryAfterSeconds: number;
}

/** One counter to count a request under, with the rule it is held to. */
export interface CountedKey {
  key: string;
  rule: RateLimitRule;
}

/** A counted request's result for one key, with the window it was counted in (to take it back). */
export interface CountedResult extends RateLimitResult, CountedKey {
  windowStart: number;
}

/** The window `now` falls in (its start, in seconds), its length and how far into it `now` is, in ms. */
function windowOf(rule: RateLimitRule, now: Date) {
  const windowMs = rule.windowSeconds * 1000;
  const windowStart = Math.floor(now.getTime() / windowMs) * rule.windowSeconds;
  return { windowStart, windowMs, elapsedMs: now.getTime() - windowStart * 1000 };
}

/**
 * Whether `count` requests in this window and `previousCount` in the one before are within
 * `limit`, `elapsedMs` into this window: the previous window weighs in the share of it that
 * still lies within one window length of now (the approximation Cloudflare's own rate limiting
 * makes, assuming the previous window's requests came evenly), so a burst at the end of one
 * window still counts at the start of the next. In whole milliseconds, so no rounding decides.
 */
function withinLimit(limit: number, count: number, previousCount: number, windowMs: number, elapsedMs: number): boolean {
  return count * windowMs + previousCount * (windowMs - elapsedMs) <= limit * windowMs;
}

/**
 * Milliseconds until a next request would be allowed: while this window has room, once the
 * previous window has faded enough; when this one is full, in the next window, once this one has
 * faded enough. Up to two windows, for a limit of 1.
 */
function msUntilAllowed(limit: number, count: number, previousCount: number, windowMs: number, elapsedMs: number): number {
  const room = limit - count - 1;
  if (room >= 0) {
    if (previousCount === 0) return 0;
    return Math.max(0, Math.ceil((windowMs * (previousCount - room)) / previousCount) - elapsedMs);
  }
  return windowMs - elapsedMs + Math.ceil((windowMs * (count - limit + 1)) / count);
}

function upsertCount(db: Db, key: string, windowStart: number) {
  return db
    .insert(rateLimits)
    .values({ key, windowStart, count: 1 })
    .onConflictDoUpdate({ target: [rateLimits.key, rateLimits.windowStart], set: { count: sql`${rateLimits.count} + 1` } })
    .returning({ count: rateLimits.count });
}

function previousCount(db: Db, key: string, windowStart: number) {
  return db
    .select({ count: rateLimits.count })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, key), eq(rateLimits.windowStart, windowStart)));
}

/**
 * Counts one request under every key in one D1 batch (one transaction), each upsert answering
 * the count it left, read with the previous window's count. Every request sees a count no other
 * request saw, so however many arrive at once, no more than `limit` of them are within it: the
 * decision is taken on the count, never on a read made before it (issue 20, finding 2).
 */
export async function countRequests(db: Db, keys: readonly CountedKey[], now = new Date()): Promise<CountedResult[]> {
  if (!keys.length) return [];
  const windows = keys.map(({ rule }) => windowOf(rule, now));
  const [first, ...rest] = keys.flatMap(({ key, rule }, i) => [
    upsertCount(db, key, windows[i]!.windowStart),
    previousCount(db, key, windows[i]!.windowStart - rule.windowSeconds),
  ]);
  const rows = await db.batch([first!, ...rest]);
  return keys.map(({ key, rule }, i) => {
    const count = rows[2 * i]?.[0]?.count ?? 1;
    const previous = rows[2 * i + 1]?.[0]?.count ?? 0;
    const { windowStart, windowMs, elapsedMs } = windows[i]!;
    return {
      key,
      rule,
      windowStart,
      count,
      previousCount: previous,
      allowed: withinLimit(rule.limit, count, previous, windowMs, elapsedMs),
      retryAfterSeconds: Math.max(1, Math.ceil(msUntilAllowed(rule.limit, count, previous, windowMs, elapsedMs) / 1000)),
    };
  });
}

/** Counts one request for `key` in the window `now` falls in, and says whether it is within the limit. */
export async function countRequest(db: Db, key: string, rule: RateLimitRule, now = new Date()): Promise<RateLimitResult> {
  const [result] = await countRequests(db, [{ key, rule }], now);
  const { allowed, count, previousCount, retryAfterSeconds } = result!;
  return { allowed, count, previousCount, retryAfterSeconds };
}

/**
 * Takes back requests counted by countRequests (a sign-in that succeeded: only failures are
 * to accumulate). Each counter goes down by one in the window it was counted in, never below 0.
 */
export async function takeBackRequests(db: Db, counted: readonly CountedResult[]): Promise<void> {
  const [first, ...rest] = counted.map(({ key, windowStart }) =>
    db
      .update(rateLimits)
      .set({ count: sql`${rateLimits.count} - 1` })
      .where(and(eq(rateLimits.key, key), eq(rateLimits.windowStart, windowStart), gt(rateLimits.count, 0))),
  );
  if (first) await db.batch([first, ...rest]);
}

/**
 * Deletes counters no limit reads any more: every window is at most a day long, and a window
 * still weighs through the next one, so two days back is over. Run by the cron.
 */
export async function pruneRateLimits(db: Db, now = new Date()): Promise<number> {
  const before = Math.floor(now.getTime() / 1000) - 2 * MAX_RATE_LIMIT_WINDOW_SECONDS;
  const deleted = await db.delete(rateLimits).where(lt(rateLimits.windowStart, before)).returning({ key: rateLimits.key });
  return deleted.length;
}

/** An IPv6 address's eight groups, lower case and without leading zeros, or undefined for anything else. */
function ipv6Groups(address: string): string[] | undefined {
  // An IPv4 address, also written IPv4-mapped (::ffff:203.0.113.7), is one client of its own.
  if (!address.includes(':') || address.includes('.')) return undefined;
  const [head = '', tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = address.includes('::') && tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left;
  return groups.map((g) => g.replace(/^0+(?=.)/, ''));
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
  const groups = ipv6Groups(address);
  return groups ? `${groups.slice(0, 4).join(':')}::/64` : (address.split(':').at(-1) ?? address);
}

/**
 * How many times a per-client limit one IPv6 /48 may use across all its /64s. A carrier hands
 * each subscriber a /64, while a /48 is the usual allocation for one site (RFC 6177: an office,
 * a server host, a home on some ISPs), which has 65,536 /64s to rotate through. Counting the /48
 * too, at 8 times the limit, leaves room for the few subscribers or machines that share one and
 * stops one holder multiplying the limit by 65,536 (issue 20, finding 11).
 */
export const IPV6_SITE_SHARE = 8;

/** Every counter one request from `ip` counts under for a per-client limit `rule`: its /64 and its /48, or its IPv4 address. */
export function clientCounters(name: string, ip: string | undefined | null, rule: RateLimitRule): CountedKey[] {
  const client = clientKey(ip);
  const groups = ipv6Groups(ip?.trim().toLowerCase() ?? '');
  const counters: CountedKey[] = [{ key: `${name}:${client}`, rule }];
  if (groups) {
    counters.push({
      key: `${name}:${groups.slice(0, 3).join(':')}::/48`,
      rule: { limit: rule.limit * IPV6_SITE_SHARE, windowSeconds: rule.windowSeconds },
    });
  }
  return counters;
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
 * can set their own. Every request counts, also one that is refused later as malformed. An IPv6
 * client counts under its /64 and its /48 (clientCounters).
 */
export function rateLimit(
  options: { name: string } & (RateLimitRule | { rule: (config: Config) => RateLimitRule }),
): MiddlewareHandler<AppEnv> {
  return async (c: Context<AppEnv>, next) => {
    const rule = 'rule' in options ? options.rule(c.var.config) : options;
    const limited = await limitClient(c.var.db, options.name, c.req.header('cf-connecting-ip'), rule);
    if (!limited.allowed) return tooManyRequests(c, limited);
    await next();
  };
}

/** The API's answer to a request over a per-client limit: 429, `Retry-After`, code `rate_limited`. */
export function tooManyRequests(c: Context<AppEnv>, limited: Extract<ClientLimit, { allowed: false }>) {
  return c.json(errorBody('rate_limited', limited.message), 429, {
    'Retry-After': String(limited.retryAfterSeconds),
    'cache-control': 'no-store',
  });
}

/** A per-client limit's answer for one request: within it, or refused with how long to wait. */
export type ClientLimit = { allowed: true } | { allowed: false; retryAfterSeconds: number; message: string };

/**
 * Counts one request from `ip` under the per-client limit `name` (its /64 and /48, or its IPv4
 * address: clientCounters) and says whether it is within `rule`. The API's rateLimit() and a page
 * the Worker renders for the same action (/track's lookup) count under the same name, so a
 * client has one budget for it, whichever way it asks.
 */
export async function limitClient(
  db: Db,
  name: string,
  ip: string | undefined | null,
  rule: RateLimitRule,
  now = new Date(),
): Promise<ClientLimit> {
  const over = (await countRequests(db, clientCounters(name, ip, rule), now)).filter((r) => !r.allowed);
  if (!over.length) return { allowed: true };
  const retryAfterSeconds = Math.max(...over.map((r) => r.retryAfterSeconds));
  return {
    allowed: false,
    retryAfterSeconds,
    message: `Too many requests. Please wait ${waitText(retryAfterSeconds)} and try again.`,
  };
}

/**
 * The kinds of e-mail a stranger can trigger, each limited per recipient on its own
 * (RATE_LIMIT_EMAIL_RECIPIENT). `order_update` is what a shopper's own move on an order sends
 * (a cancel, a reported transfer): counted apart from `order`, the confirmations, so a shopper
 * who cancels never loses the next order's bank details to the limit, while an order placed in
 * someone else's name and cancelled, again and again, is still counted for each of its e-mails.
 */
export type StrangerEmailKind =
  | 'account'
  | 'newsletter'
  | 'trade_in'
  | 'order'
  | 'order_update'
  /** What a payment tells (a part arrived): only money sent fills it, so it never uses up an order's confirmation. */
  | 'payment'
  /** A security notice (the password changed): only the account's own session fills it, so strangers cannot silence it. */
  | 'security';

/**
 * Whether one more e-mail of `kind` may go to `email` in this window, whoever asks: e-mail
 * bombing from many client addresses is stopped at the recipient (issue 20, finding 7), and at
 * the mailbox, not the spelling (mailboxKey). Counted per mailbox (by its SHA-256, never the
 * address itself) and kind. Callers answer as usual when it says no and only leave the e-mail
 * out, so the answer tells nothing either.
 */
export async function allowEmailTo(
  db: Db,
  config: Config,
  email: string,
  kind: StrangerEmailKind,
  now = new Date(),
): Promise<boolean> {
  return (await countEmailTo(db, config, email, kind, now)).allowed;
}

/**
 * allowEmailTo() for a caller whose write may still fail after it asked (placing an order: its
 * batch can lose a race, and a lost race is tried again): `giveBack()` takes the count back when
 * no e-mail went, so a failed or repeated attempt does not spend the recipient's allowance.
 */
export async function countEmailTo(
  db: Db,
  config: Config,
  email: string,
  kind: StrangerEmailKind,
  now = new Date(),
): Promise<{ allowed: boolean; giveBack: () => Promise<void> }> {
  const key = `email.to.${kind}:${await sha256Hex(mailboxKey(email))}`;
  const counted = await countRequests(db, [{ key, rule: config.RATE_LIMIT_EMAIL_RECIPIENT }], now);
  return { allowed: counted[0]!.allowed, giveBack: () => takeBackRequests(db, counted) };
}

/**
 * A lookup proved by what the asker must know (the e-mail of an order number or a trade-in
 * reference someone may have seen on a parcel or a screenshot): every try of `key` is counted
 * under `rule`, from all clients together, and one that finds is taken back, so only wrong
 * guesses add up, the same steps whether the key exists or not. Past the rule the key's lookups
 * wait, the right one's too (`tooMany`, thrown): its owner still has it in their account. A try
 * refused so is taken back as well: it guessed nothing, and the wait it was told stays true.
 */
export async function limitWrongGuesses<T>(
  db: Db,
  { key, rule }: { key: string; rule: RateLimitRule },
  find: () => Promise<T>,
  tooMany: (retryAfterSeconds: number) => Error,
  now = new Date(),
): Promise<T> {
  const counted = await countRequests(db, [{ key, rule }], now);
  const [mine] = counted;
  if (mine && !mine.allowed) {
    await takeBackRequests(db, counted);
    throw tooMany(mine.retryAfterSeconds);
  }
  const found = await find();
  await takeBackRequests(db, counted);
  return found;
}
