import { z } from 'zod';

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

const configSchema = z.object({
  SITE_URL: z.url().default('http://localhost:8787'),
  /** The account shoppers pay into by bank transfer. */
  BANK_NAME: z.string().trim().min(1).default('First Bank'),
  BANK_ACCOUNT_NAME: z.string().trim().min(1).default('GTS Electronics Ltd'),
  BANK_ACCOUNT_NUMBER: z
    .string()
    .trim()
    .regex(/^\d{10}$/, 'a NUBAN account number is 10 digits')
    .default('3081726354'),
  /** How long an unpaid order holds its stock before it expires. */
  ORDER_HOLD_HOURS: z.coerce.number().positive().max(24 * 30).default(48),
  /** HTTP e-mail API (Resend-compatible: POST JSON {from,to,subject,text,html} with a Bearer key). Unset: e-mails stay in the outbox and are logged. */
  EMAIL_API_URL: z.url().optional().or(z.literal('').transform(() => undefined)),
  EMAIL_API_KEY: optional,
  EMAIL_FROM: z.string().trim().min(3).default('GTS Electronics <orders@gts.ng>'),
});

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
