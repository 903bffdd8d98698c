import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { installApi } from '../../src/features/pwa/install-api.ts';
import { api, postJson, type ErrorJson } from './client.ts';

const ORIGIN = { origin: 'http://localhost:8787' };
const check = (deviceId: string) => api(`/check-install-prompt/${encodeURIComponent(deviceId)}`);
const dismiss = (body: unknown) => postJson('/dismiss-install-prompt', body, ORIGIN);
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
});
