import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { api } from '../../functions/index.ts';

/**
 * The test Worker's env with some vars replaced (wrangler.toml [vars] as a test would set
 * them): readConfig() parses each env object once, so every override gets its own config.
 */
export function envWith(vars: Record<string, string>): Env {
  return { ...env, ...vars } as Env;
}

/**
 * Calls the API with `vars` set, from the client address `ip` (Cloudflare's cf-connecting-ip): a
 * POST of `body` as JSON, or a GET.
 */
export async function callWith(
  vars: Record<string, string>,
  path: string,
  {
    body,
    ip,
    headers = {},
    method = 'POST',
  }: { body?: unknown; ip?: string; headers?: Record<string, string>; method?: 'GET' | 'POST' } = {},
) {
  const ctx = createExecutionContext();
  const response = await api.fetch(
    new Request(`http://localhost:8787/api${path}`, {
      method,
      headers: {
        ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
        origin: 'http://localhost:8787',
        ...(ip ? { 'cf-connecting-ip': ip } : {}),
        ...headers,
      },
      body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
    }),
    envWith(vars),
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response;
}
