import { z } from 'zod';
import { UNPAID_SHARE_PER_PRODUCT } from '../src/features/cart/cart.ts';
import { MAX_ORDER_LINES, MAX_UNITS_PER_PRODUCT } from '../src/features/orders/checkout.ts';

/**
 * Configuration read from the Worker's vars and secrets (wrangler.toml [vars],
 * .dev.vars locally, `wrangler secret put` in production), parsed once per isolate.
 * Bindings (DB, ASSETS) are typed by worker-configuration.d.ts (`wrangler types`).
 */
const optional = z
  .string()
  .trim()
  .transform((v) => v || undefined)
  .optional();

/** The longest rate-limit window: the cron prunes counters older than this. */
export const MAX_RATE_LIMIT_WINDOW_SECONDS = 86_400;

/** "10/600": at most 10 requests per client in each 600-second window (windows of at most a day). */
const rateLimitRule = z
  .string()
  .trim()
  .regex(/^\d+\/\d+$/, 'a rate limit is "<requests>/<seconds>", e.g. "10/600"')
  .transform((rule) => {
    const [limit, windowSeconds] = rule.split('/').map(Number) as [number, number];
    return { limit, windowSeconds };
  })
  .refine((r) => r.limit >= 1 && r.windowSeconds >= 1 && r.windowSeconds <= MAX_RATE_LIMIT_WINDOW_SECONDS, {
    message: `a rate limit allows at least 1 request, in a window of 1 to ${MAX_RATE_LIMIT_WINDOW_SECONDS} seconds`,
  });

const configSchema = z
  .object({
    SITE_URL: z.url().default('http://localhost:8787'),
    /** The account shoppers pay into by bank transfer. */
    BANK_NAME: z.string().trim().min(1).default('First Bank'),
    BANK_ACCOUNT_NAME: z.string().trim().min(1).default('GTS Electronics Ltd'),
    BANK_ACCOUNT_NUMBER: z
      .string()
      .trim()
      .regex(/^\d{10}$/, 'a NUBAN account number is 10 digits')
      .default('3081726354'),
    /**
     * How long an unpaid order holds its stock before it expires: long enough to order late at night
     * and pay by instant transfer in the morning (docs/decisions/007-what-expires.md, amended for issue 20).
     */
    ORDER_HOLD_HOURS: z.coerce
      .number()
      .positive()
      .max(24 * 30)
      .default(12),
    /**
     * A payment report extends the hold once, to this many hours after the report (never shortening
     * it), for staff to find the transfer on the statement; then it expires unless an admin confirmed it.
     */
    PAYMENT_REPORT_HOLD_HOURS: z.coerce
      .number()
      .positive()
      .max(24 * 30)
      .default(24),
    /**
     * The admin's alert: a reported transfer nobody confirmed after this many hours is highlighted
     * on the dashboard and the orders list, so a false report cannot hold stock unnoticed until
     * PAYMENT_REPORT_HOLD_HOURS expires it.
     */
    PAYMENT_REPORT_ALERT_HOURS: z.coerce
      .number()
      .positive()
      .max(24 * 30)
      .default(12),
    /**
     * How long after an order expired a full transfer still revives it (functions/orders/late-payment.ts):
     * time for a transfer the banks delayed to land. Later, the payment is refunded.
     */
    LATE_PAYMENT_HOURS: z.coerce
      .number()
      .positive()
      .max(24 * 30)
      .default(72),
    /** Units at or below which a product (or variant) on sale is listed as low stock on the admin dashboard. */
    LOW_STOCK_THRESHOLD: z.coerce.number().int().min(0).max(1000).default(3),
    /**
     * Per-order limits. The shared schema (src/features/orders/checkout.ts) already refuses more
     * than its defaults (5 and 10), which the browser knows; these may only lower them.
     */
    MAX_UNITS_PER_PRODUCT: z.coerce.number().int().positive().default(MAX_UNITS_PER_PRODUCT),
    MAX_ORDER_LINES: z.coerce.number().int().positive().default(MAX_ORDER_LINES),
    /** Requests per client (cf-connecting-ip) and sliding window, as "<requests>/<seconds>" (functions/platform/rate-limit.ts). */
    RATE_LIMIT_PLACE_ORDER: rateLimitRule.default({ limit: 10, windowSeconds: 600 }),
    /**
     * Wrong e-mail addresses one order number may be looked up with, from all clients together
     * (functions/orders/find.ts): a known number is not tried against a list of addresses from
     * many client addresses. Past it, that number's lookups wait.
     */
    RATE_LIMIT_LOOKUP_ORDER: rateLimitRule.default({ limit: 10, windowSeconds: 3600 }),
    RATE_LIMIT_PAYMENT_REPORT: rateLimitRule.default({ limit: 10, windowSeconds: 600 }),
    RATE_LIMIT_LOOKUP: rateLimitRule.default({ limit: 20, windowSeconds: 600 }),
    RATE_LIMIT_QUOTE: rateLimitRule.default({ limit: 120, windowSeconds: 60 }),
    /** Trade-in requests sent (each may carry 8 MB of photos). */
    RATE_LIMIT_TRADE_IN: rateLimitRule.default({ limit: 10, windowSeconds: 3600 }),
    /**
     * Accounts (functions/accounts/). Failed sign-ins allowed per e-mail address and per client in a
     * window; past either, sign-in answers 429 without checking the password.
     */
    RATE_LIMIT_SIGN_IN_EMAIL: rateLimitRule.default({ limit: 10, windowSeconds: 900 }),
    RATE_LIMIT_SIGN_IN_CLIENT: rateLimitRule.default({ limit: 20, windowSeconds: 900 }),
    /** Sign-in attempts per pair (e-mail address, client). */
    RATE_LIMIT_SIGN_IN_PAIR: rateLimitRule.default({ limit: 5, windowSeconds: 900 }),
    /** Requests per client that send an e-mail (sign-up, forgot password, resend verification). */
    RATE_LIMIT_ACCOUNT_EMAIL: rateLimitRule.default({ limit: 10, windowSeconds: 3600 }),
    /**
     * E-mails a stranger can make the store send to one address (sign-up, reset, verification,
     * newsletter confirmation, trade-in and order confirmations), per recipient and kind, whoever asks
     * (functions/platform/rate-limit.ts allowEmailTo): past it the request is answered as usual and no e-mail is queued.
     */
    RATE_LIMIT_EMAIL_RECIPIENT: rateLimitRule.default({ limit: 3, windowSeconds: 3600 }),
    /** Newsletter sign-ups per client. */
    RATE_LIMIT_NEWSLETTER: rateLimitRule.default({ limit: 5, windowSeconds: 3600 }),
    /**
     * Hoarding limits (functions/orders/limits.ts): unpaid units one e-mail address, phone number or
     * delivery address may hold across its unpaid orders, and the share of a product's units that
     * all unpaid orders together may hold.
     */
    MAX_UNPAID_UNITS_PER_CONTACT: z.coerce.number().int().positive().default(10),
    MAX_UNPAID_SHARE_PER_PRODUCT: z.coerce.number().positive().max(1).default(UNPAID_SHARE_PER_PRODUCT),
    /**
     * Encrypts the session cookies (Auth.js). A secret in production (`wrangler secret put
     * AUTH_SECRET`, at least 32 random characters); local runs and tests pass a fixed dev value.
     * Unset: nobody can sign in (500 on sign-in) and every request is a guest's.
     */
    AUTH_SECRET: optional.pipe(z.string().min(16, 'AUTH_SECRET must be at least 16 characters').optional()),
    /** Google sign-in (OAuth client of type "Web application"); both unset: the button says Google is not available. */
    AUTH_GOOGLE_ID: optional,
    AUTH_GOOGLE_SECRET: optional,
    /**
     * Tests only: "true" points Google sign-in at an offline stand-in for Google's authorize,
     * token and userinfo endpoints (functions/accounts/google-standin.ts). Never set it in production.
     */
    AUTH_GOOGLE_STANDIN: z.union([z.boolean(), z.string()]).optional().transform(isOn),
    /** HTTP e-mail API (Resend-compatible: POST JSON {from,to,subject,text,html} with a Bearer key). Unset: e-mails stay in the outbox and are logged. */
    EMAIL_API_URL: z
      .url()
      .optional()
      .or(z.literal('').transform(() => undefined)),
    EMAIL_API_KEY: optional,
    EMAIL_FROM: z.string().trim().min(3).default('GTS Electronics <orders@gts.ng>'),
    /**
     * Paystack (functions/payments/, decision 023): the secret key (`wrangler secret put
     * PAYSTACK_SECRET_KEY`). Set, each order gets its own account and Paystack's signed webhook
     * confirms the transfer; unset, shoppers pay into the shared account above and an admin confirms.
     */
    PAYSTACK_SECRET_KEY: optional,
    PAYSTACK_API_URL: z.url().default('https://api.paystack.co'),
    /**
     * Local runs and tests only: "true" runs the same Paystack code against an offline stand-in of
     * its API (functions/payments/paystack-standin.ts) and serves POST /api/test/paystack/pay, which
     * "pays" an order's account by sending the signed webhook. Never set it in production.
     */
    PAYMENTS_STANDIN: z.union([z.boolean(), z.string()]).optional().transform(isOn),
    /**
     * Tests only: the stand-in hands out its account numbers from a pool of this many, in turn, as
     * Paystack recycles its temporary transfer accounts (an account number names an order only
     * while that order's account is open). Unset: a number of its own per reference.
     */
    PAYMENTS_STANDIN_ACCOUNT_POOL: z.coerce.number().int().positive().optional(),
    /**
     * Local development only: "true" prints each e-mail kept in the outbox (recipient, subject,
     * text) in the log, so verify and reset links can be read in the `npm start` output. Anything
     * else, or unset (the default, and production), logs only the outbox id, order number, kind
     * and status: logs never carry shoppers' addresses, names or e-mail bodies.
     */
    EMAIL_LOG_BODIES: z.union([z.boolean(), z.string()]).optional().transform(isOn),
  })
  .refine((c) => !c.PAYMENTS_STANDIN || isLocalSite(c.SITE_URL), {
    // The stand-in "pays" any order on request: a deployed store with it on would give goods away.
    path: ['PAYMENTS_STANDIN'],
    message: 'The payments stand-in is for local runs only: SITE_URL must be http://localhost or 127.0.0.1',
  })
  .refine((c) => !c.AUTH_GOOGLE_STANDIN || isLocalSite(c.SITE_URL), {
    // The stand-in "signs in with Google" as any address it is given, an admin's too.
    path: ['AUTH_GOOGLE_STANDIN'],
    message: 'The Google sign-in stand-in is for local runs only: SITE_URL must be http://localhost or 127.0.0.1',
  });

/** A flag var is on when it is `true` or the text "true" (wrangler passes vars as text); anything else is off. */
export function isOn(value: unknown): boolean {
  return value === true || (typeof value === 'string' && value.trim() === 'true');
}

/** A store served on this machine (npm start, the tests), never a deployed one (scripts/deploy-checks.ts). */
export function isLocalSite(siteUrl: string): boolean {
  return ['localhost', '127.0.0.1'].includes(new URL(siteUrl).hostname);
}

export type Config = z.infer<typeof configSchema>;

const cache = new WeakMap<object, Config>();

export function readConfig(env: Env): Config {
  let config = cache.get(env);
  if (!config) {
    const parsed = configSchema.safeParse(env);
    if (!parsed.success) {
      // A deployment mistake, not a client's: fail loudly with what is wrong.
      throw new Error(`Invalid Worker configuration: ${z.prettifyError(parsed.error)}`);
    }
    config = parsed.data;
    cache.set(env, config);
  }
  return config;
}

/** The store's bank account as shoppers see it on the payment step, the tracking page and e-mails. */
export function bankAccount(config: Config) {
  return { bankName: config.BANK_NAME, accountName: config.BANK_ACCOUNT_NAME, accountNumber: config.BANK_ACCOUNT_NUMBER };
}
export type BankAccount = ReturnType<typeof bankAccount>;
