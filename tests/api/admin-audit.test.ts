import { beforeAll, describe, expect, it } from 'vitest';
import { auditLogSchema } from '../../src/features/admin/admin-api.ts';
import { Browser, newEmail, signedInUser } from './account-helpers.ts';
import { signedInAdmin } from './admin-helpers.ts';
import type { ErrorJson } from './client.ts';

/**
 * GET /api/admin/audit: the store-wide audit log (the admin's Audit log tab), where what no
 * screen of its own shows is found too: a subscriber list exported, a picture uploaded.
 */
let admin: { browser: Browser; email: string; id: string };
beforeAll(async () => {
  admin = await signedInAdmin();
});

async function log(query = '') {
  const response = await admin.browser.get(`/admin/audit${query ? `?${query}` : ''}`);
  expect(response.status, await response.clone().text()).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  return auditLogSchema.parse(await response.json());
}

describe('GET /api/admin/audit', () => {
  it('lists every change newest first, an export with who took it and how many people it held', async () => {
    const exported = await admin.browser.get('/admin/subscribers/export');
    expect(exported.status).toBe(200);
    await exported.text();
    const [newest] = (await log()).entries;
    expect(newest).toMatchObject({ entity: 'subscriber', action: 'export', by: admin.email });
    expect(newest!.entityId).toMatch(/\.csv$/);
    expect(newest!.changes.people).toMatchObject({ from: null, to: expect.any(Number) });

    // Filtered to one kind, only that kind; the export is still first there.
    const subscribers = await log('entity=subscriber');
    expect(subscribers.entries.every((e) => e.entity === 'subscriber')).toBe(true);
    expect(subscribers.entries[0]).toEqual(newest);
    const all = await log();
    expect(all.total).toBeGreaterThanOrEqual(subscribers.total);
    expect(all.pageSize).toBe(50);
  });

  it('names a bad kind or page, and is the admins’ only', async () => {
    const bad = await admin.browser.get('/admin/audit?entity=users&page=0');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as ErrorJson).error.issues?.map((i) => i.field).sort()).toEqual(['entity', 'page']);
    expect((await new Browser().get('/admin/audit')).status).toBe(401);
    const customer = new Browser();
    await signedInUser(customer, newEmail('not-admin'));
    expect((await customer.get('/admin/audit')).status).toBe(403);
  });
});
