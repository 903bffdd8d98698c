import { z } from 'zod';

/**
 * Configuration read from the Worker's vars and secrets (wrangler.toml [vars],
 * .dev.vars locally, `wrangler secret put` in production), parsed once per isolate.
 * Bindings (DB, ASSETS) are typed by worker-configuration.d.ts (`wrangler types`).
 */
const configSchema = z.object({
  SITE_URL: z.url().default('http://localhost:8787'),
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
