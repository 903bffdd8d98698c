import type { Context } from 'hono';
import { safeParse } from 'zod/mini';
import { deviceSchema, installApi } from '../../src/features/pwa/install-api.ts';
import { createRouter, type AppEnv } from '../platform/app.ts';
import { ApiError, invalidRequest } from '../platform/errors.ts';
import { rateLimit, type RateLimitRule } from '../platform/rate-limit.ts';
import { reply } from '../platform/reply.ts';
import { at } from '../platform/routing.ts';
import { recordDismissal, shouldShowPrompt } from './prompts.ts';

/**
 * The device, checked with the contract's zod/mini schema (the browser's side is a plain
 * script, so the contract is zod/mini and cannot go through `validate()`, which takes classic zod).
 */
function readDevice(input: unknown) {
  const parsed = safeParse(deviceSchema, input);
  if (!parsed.success) throw invalidRequest(parsed.error);
  return parsed.data.deviceId;
}

async function jsonBody(c: Context<AppEnv>): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw new ApiError(400, 'bad_request', 'The request body is not JSON.', [
      { field: '(body)', message: 'The request body is not JSON.' },
    ]);
  }
}

/** Where the check is mounted (functions/index.ts); its path is its contract's (src/features/pwa/install-api.ts). */
export const CHECK_INSTALL_PROMPT_BASE = '/api/check-install-prompt';

/** GET /api/check-install-prompt/:deviceId: show the offer unless this device dismissed it. */
export const checkInstallPrompt = createRouter().get(at(CHECK_INSTALL_PROMPT_BASE, installApi.check), async (c) => {
  const deviceId = readDevice({ deviceId: c.req.param('deviceId') });
  const shouldShow = await shouldShowPrompt(c.var.db, deviceId);
  return reply(c, installApi.check, { shouldShowPrompt: shouldShow }, 200, { 'Cache-Control': 'no-store' });
});

/**
 * Dismissals per client address (docs/decisions/010-rate-limits-in-d1.md): each new device id
 * adds a row, so a script sending random ids would grow the table without end. A shopper
 * dismisses once per device; 30 in 10 minutes leaves room for many phones behind one
 * carrier address (on average a row every 20 s per address at most). Fixed here, not a var:
 * the browser tests send 2 a run and the API tests stay under it (its own test has its own address).
 */
export const DISMISS_RATE_LIMIT: RateLimitRule = { limit: 30, windowSeconds: 600 };
const dismissLimit = rateLimit({ name: 'install.dismiss', ...DISMISS_RATE_LIMIT });

/** Where the dismissal is mounted (functions/index.ts); its path is its contract's. */
export const DISMISS_INSTALL_PROMPT_BASE = '/api/dismiss-install-prompt';

/** POST /api/dismiss-install-prompt {deviceId}: records the dismissal (Install counts too); a repeat counts up. */
export const dismissInstallPrompt = createRouter().post(
  at(DISMISS_INSTALL_PROMPT_BASE, installApi.dismiss),
  dismissLimit,
  async (c) => {
    await recordDismissal(c.var.db, readDevice(await jsonBody(c)));
    return reply(c, installApi.dismiss, { dismissed: true });
  },
);
