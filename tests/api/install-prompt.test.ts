import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { DISMISS_RATE_LIMIT } from '../../functions/install-prompt/routes.ts';
import { installApi } from '../../src/features/pwa/install-api.ts';
import { api, postJson, type ErrorJson } from './client.ts';

const ORIGIN = { origin: 'http://localhost:8787' };
const check = (deviceId: string) => api(`/check-install-prompt/${encodeURIComponent(deviceId)}`);
const dismiss = (body: unknown) => postJson('/dismiss-install-prompt', body, ORIGIN);
/** A dismissal from the client address `ip` (Cloudflare's cf-connecting-ip). */
const dismissFrom = (ip: string, body: unknown) =>
  postJson('/dismiss-install-prompt', body, { ...ORIGIN, 'cf-connecting-ip': ip });
const dismissalsOf = async (deviceId: string) =>
  (
    await env.DB.prepare('select dismissals from install_prompt_dismissals where device_id = ?')
      .bind(deviceId)
      .first<{ dismissals: number }>()
  )?.dismissals ?? 0;

describe('GET /api/check-install-prompt/{deviceId} and POST /api/dismiss-install-prompt', () => {
  it('offers the prompt to a new device, and not after it dismissed it; other devices still get it', async () => {
    const device = crypto.randomUUID();
    const other = crypto.randomUUID();

    const before = await check(device);
    expect(before.status).toBe(200);
    expect(before.headers.get('cache-control')).toBe('no-store');
    expect(installApi.check.response.parse(await before.json())).toEqual({ shouldShowPrompt: true });

    const dismissed = await dismiss({ deviceId: device });
    expect(dismissed.status).toBe(200);
    expect(installApi.dismiss.response.parse(await dismissed.json())).toEqual({ dismissed: true });

    expect(await (await check(device)).json()).toEqual({ shouldShowPrompt: false });
    expect(await (await check(other)).json()).toEqual({ shouldShowPrompt: true });
  });

  it('records a repeated dismissal (Install, then Dismiss in another tab) without an error', async () => {
    const device = crypto.randomUUID();
    for (let i = 0; i < 3; i++) expect((await dismiss({ deviceId: device })).status).toBe(200);
    expect(await dismissalsOf(device)).toBe(3);
    expect(await (await check(device)).json()).toEqual({ shouldShowPrompt: false });
  });

  it('takes the device id in any letter case as the browser made it', async () => {
    const device = crypto.randomUUID().toUpperCase();
    expect((await dismiss({ deviceId: device })).status).toBe(200);
    expect(await (await check(device)).json()).toEqual({ shouldShowPrompt: false });
  });

  it.each([['not-a-uuid'], ['1234'], ["x' or 1=1 --"], [`${crypto.randomUUID()}x`]])(
    'refuses the device id %j in the path with a 400 naming deviceId',
    async (deviceId) => {
      const response = await check(deviceId);
      expect(response.status).toBe(400);
      const json = await response.json<ErrorJson>();
      expect(json.error.code).toBe('invalid_request');
      expect(json.error.issues?.map((i) => i.field)).toEqual(['deviceId']);
    },
  );

  it.each([[{}], [{ deviceId: '' }], [{ deviceId: 42 }], [{ deviceId: 'nope' }], [{ device: crypto.randomUUID() }]])(
    'refuses the dismissal body %j with a 400 naming deviceId, storing nothing',
    async (body) => {
      const count = async () =>
        (await env.DB.prepare('select count(*) as n from install_prompt_dismissals').first<{ n: number }>())?.n ?? 0;
      const rows = await count();
      const response = await dismiss(body);
      expect(response.status).toBe(400);
      const json = await response.json<ErrorJson>();
      expect(json.error.issues?.map((i) => i.field)).toContain('deviceId');
      expect(await count()).toBe(rows);
    },
  );

  it('refuses a body that is not an object with a 400 on the whole body', async () => {
    const response = await dismiss([]);
    expect(response.status).toBe(400);
    expect((await response.json<ErrorJson>()).error.issues?.map((i) => i.field)).toEqual(['(body)']);
  });

  it('answers a body that is not JSON with a 400, not a 500', async () => {
    const response = await dismiss('{"deviceId": ');
    expect(response.status).toBe(400);
    expect((await response.json<ErrorJson>()).error.code).toBe('bad_request');
  });

  it('limits dismissals per client address: past the limit 429 with Retry-After, nothing stored; other addresses go on', async () => {
    const { limit, windowSeconds } = DISMISS_RATE_LIMIT;
    // All of this test's requests must fall in one window: close to a window's end, wait for the next.
    const windowMs = windowSeconds * 1000;
    const left = windowMs - (Date.now() % windowMs);
    if (left < 5000) await new Promise((resolve) => setTimeout(resolve, left + 50));

    const ip = '203.0.113.9';
    // Malformed requests count too (decision 010): one of them here.
    expect((await dismissFrom(ip, { deviceId: 'nope' })).status).toBe(400);
    for (let i = 1; i < limit; i++) expect((await dismissFrom(ip, { deviceId: crypto.randomUUID() })).status).toBe(200);

    const device = crypto.randomUUID();
    const refused = await dismissFrom(ip, { deviceId: device });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    // The rest of this window and part of the next (a sliding window: decision 010).
    expect(retryAfter).toBeLessThanOrEqual(2 * windowSeconds);
    expect((await refused.json<ErrorJson>()).error.code).toBe('rate_limited');
    expect(await dismissalsOf(device)).toBe(0);
    expect(await (await check(device)).json()).toEqual({ shouldShowPrompt: true });

    // Another address is not held back by this one.
    expect((await dismissFrom('203.0.113.10', { deviceId: device })).status).toBe(200);
    expect(await dismissalsOf(device)).toBe(1);
  });
});
