import { eq, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { safeParse } from 'zod/mini';
import { installPromptDismissals } from '../platform/schema.ts';
import { createRouter, type AppEnv } from '../platform/app.ts';
import { ApiError, invalidRequest } from '../platform/errors.ts';
import { rateLimit, type RateLimitRule } from '../platform/rate-limit.ts';
import { reply } from '../platform/reply.ts';
import { deviceSchema, installApi } from '../../src/features/pwa/install-api.ts';

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

/** GET /api/check-install-prompt/:deviceId: show the offer unless this device dismissed it. */
export const checkInstallPrompt = createRouter().get('/:deviceId', async (c) => {
  const deviceId = readDevice({ deviceId: c.req.param('deviceId') });
  const [dismissed] = await c.var.db
    .select({ deviceId: installPromptDismissals.deviceId })
    .from(installPromptDismissals)
    .where(eq(installPromptDismissals.deviceId, deviceId))
    .limit(1);
  return reply(c, installApi.check, { shouldShowPrompt: !dismissed }, 200, { 'Cache-Control': 'no-store' });
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

/** POST /api/dismiss-install-prompt {deviceId}: records the dismissal (Install counts too); a repeat counts up. */
export const dismissInstallPrompt = createRouter().post('/', dismissLimit, async (c) => {
  const deviceId = readDevice(await jsonBody(c));
  await c.var.db
    .insert(installPromptDismissals)
    .values({ deviceId })
    .onConflictDoUpdate({
      target: installPromptDismissals.deviceId,
      set: { dismissals: sql`${installPromptDismissals.dismissals} + 1` },
    });
  return reply(c, installApi.dismiss, { dismissed: true });
});
