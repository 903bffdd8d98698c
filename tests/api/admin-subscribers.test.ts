import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { subscriberListSchema } from '../../src/features/newsletter/admin/admin-subscriber-api.ts';
import type { Browser } from './account-helpers.ts';
import { send, signedInAdmin } from './admin-helpers.ts';
import { postJson, type ErrorJson } from './client.ts';

let admin: { browser: Browser; email: string; id: string };

beforeAll(async () => {
  admin = await signedInAdmin();
});

/**
 * Stores an address as D1 would hold it, also one the subscribe form would refuse; answers its id.
 * Confirmed when it signed up unless `pending`.
 */
async function insertSubscriber(email: string, createdAt?: number, { pending = false } = {}): Promise<number> {
  const row = await env.DB.prepare(
    `insert into newsletter_subscribers (email, created_at, confirmed_at)
     values (?1, coalesce(?2, unixepoch()), case when ?3 then null else coalesce(?2, unixepoch()) end) returning id`,
  )
    .bind(email, createdAt ?? null, pending ? 1 : 0)
    .first<{ id: number }>();
  return row!.id;
}

async function list(query = '') {
  const response = await admin.browser.get(`/admin/subscribers${query ? `?${query}` : ''}`);
  expect(response.status, await response.clone().text()).toBe(200);
  const json = await response.json();
  const parsed = subscriberListSchema.parse(json);
  expect(parsed).toEqual(json);
  return parsed;
}

describe('GET /api/admin/subscribers', () => {
  it('lists subscribers newest first, 50 a page, and finds them by part of the address', async () => {
    const tag = `page${crypto.randomUUID().slice(0, 6)}`;
    const base = 1_700_000_000;
    const ids: number[] = [];
    for (let i = 0; i < 55; i++) ids.push(await insertSubscriber(`${tag}-${i}@example.com`, base + i * 60));
    // One through the real form too: waiting for its confirmation.
    expect((await postJson('/subscribe', { email: `${tag}-Form@Example.com` })).status).toBe(202);

    const first = await list(`q=${tag.toUpperCase()}`);
    // 56 addresses, of which 55 confirmed: the form's one waits for its link.
    expect(first).toMatchObject({ page: 1, pageSize: 50, total: 56, confirmed: 55 });
    expect(first.subscribers[0]).toMatchObject({ email: `${tag}-form@example.com`, confirmedAt: null });
    expect(first.subscribers[1]).toEqual({
      id: ids[54],
      email: `${tag}-54@example.com`,
      createdAt: new Date((base + 54 * 60) * 1000).toISOString(),
      confirmedAt: new Date((base + 54 * 60) * 1000).toISOString(),
    });
    expect(first.subscribers.slice(1).map((s) => s.id)).toEqual([...ids].reverse().slice(0, 49));
    const second = await list(`q=${tag}&page=2`);
    expect(second.subscribers.map((s) => s.id)).toEqual([...ids].reverse().slice(49));

    expect((await list(`q=${tag}-17@`)).subscribers.map((s) => s.id)).toEqual([ids[17]]);
    expect((await list(`q=nobody-${crypto.randomUUID()}`)).total).toBe(0);
  });

  it('refuses a page below 1, naming `page`', async () => {
    const response = await admin.browser.get('/admin/subscribers?page=0');
    expect(response.status).toBe(400);
    expect((await response.json<ErrorJson>()).error.issues?.map((i) => i.field)).toEqual(['page']);
  });
});

describe('GET /api/admin/subscribers/export', () => {
  it('answers every confirmed subscriber as RFC 4180 CSV, quoting what needs it and defusing formulas', async () => {
    const at = 1_750_000_000;
    const iso = new Date(at * 1000).toISOString();
    const nasty = [
      ['plain@example.com', 'plain@example.com'],
      ['comma,in@example.com', '"comma,in@example.com"'],
      ['quote"d@example.com', '"quote""d@example.com"'],
      ['=HYPERLINK("http://evil")@example.com', `"'=HYPERLINK(""http://evil"")@example.com"`],
      ['+1+2@example.com', "'+1+2@example.com"],
      ['-2+3@example.com', "'-2+3@example.com"],
      ['@sum@example.com', "'@sum@example.com"],
      ['\ttab@example.com', "'\ttab@example.com"],
      ['\rcr@example.com', `"'\rcr@example.com"`],
      ['line\nbreak@example.com', '"line\nbreak@example.com"'],
      ['mid=dle@example.com', 'mid=dle@example.com'],
    ] as const;
    for (const [email] of nasty) await insertSubscriber(email, at);

    const response = await admin.browser.get('/admin/subscribers/export');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="subscribers-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lagosToday = new Date(Date.now() + 3_600_000).toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() + 3_600_000 - 86_400_000).toISOString().slice(0, 10);
    const fileDay = /filename="subscribers-(.+)\.csv"/.exec(response.headers.get('content-disposition')!)![1];
    expect([lagosToday, yesterday]).toContain(fileDay);

    const csv = await response.text();
    expect(csv.startsWith('email,subscribed_at,unsubscribe_url\r\n')).toBe(true);
    expect(csv.endsWith('\r\n')).toBe(true);
    for (const [, field] of nasty) expect(csv).toContain(`\r\n${field},${iso},`);
    // Each row, read back with an RFC 4180 parser, is the stored address (with the guard's quote) and the time.
    const rows = parseCsv(csv);
    expect(rows[0]).toEqual(['email', 'subscribed_at', 'unsubscribe_url']);
    const count = await env.DB.prepare('select count(*) as n from newsletter_subscribers where confirmed_at is not null').first<{
      n: number;
    }>();
    expect(rows).toHaveLength(count!.n + 1);
    // Personal data leaving the store: the export is in the audit trail, with who and how many.
    const audit = await env.DB.prepare(
      "select entity_id as file, actor_email as by, changes from admin_audit where entity = 'subscriber' and action = 'export' order by id desc limit 1",
    ).first<{ file: string; by: string; changes: string }>();
    expect(audit).toMatchObject({ file: `subscribers-${fileDay}.csv`, by: admin.email });
    expect(JSON.parse(audit!.changes)).toEqual({ people: { from: null, to: count!.n } });
    for (const [email] of nasty) {
      const guarded = /^[=+\-@\t\r]/.test(email) ? `'${email}` : email;
      expect(rows).toContainEqual([
        guarded,
        iso,
        expect.stringMatching(/^http:\/\/localhost:8787\/newsletter\/unsubscribe\?token=/),
      ]);
    }
  });

  it('leaves out addresses that have not confirmed, and gives each subscriber a working unsubscribe link of their own', async () => {
    const tag = `consent${crypto.randomUUID().slice(0, 6)}`;
    const waiting = `${tag}-waiting@example.com`;
    const viaForm = `${tag}-form@example.com`;
    const leaving = `${tag}-leaving@example.com`;
    const staying = `${tag}-staying@example.com`;
    await insertSubscriber(waiting, undefined, { pending: true });
    expect((await postJson('/subscribe', { email: viaForm })).status).toBe(202);
    await insertSubscriber(leaving);
    await insertSubscriber(staying);

    const response = await admin.browser.get('/admin/subscribers/export');
    const rows = parseCsv(await response.text()).filter((r) => r[0]?.startsWith(tag));
    expect(rows.map((r) => r[0])).toEqual([leaving, staying]);
    const link = new URL(rows[0]![2]!);
    expect(link.pathname).toBe('/newsletter/unsubscribe');

    const unsubscribe = await postJson('/newsletter/unsubscribe', { token: link.searchParams.get('token') });
    expect(unsubscribe.status).toBe(200);
    const left = await env.DB.prepare('select email from newsletter_subscribers where email like ? order by id')
      .bind(`${tag}-%`)
      .all<{ email: string }>();
    expect(left.results.map((r) => r.email)).toEqual([waiting, viaForm, staying]);
  });
});

describe('DELETE /api/admin/subscribers/:id', () => {
  it('removes the subscriber and records who did in the audit trail', async () => {
    const email = `leaving-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const id = await insertSubscriber(email);
    const response = await send(admin.browser, 'DELETE', `/admin/subscribers/${id}`);
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await response.json()).toEqual({ removed: true });
    expect(await env.DB.prepare('select id from newsletter_subscribers where id = ?').bind(id).first()).toBeNull();
    const { results } = await env.DB.prepare(
      "select action, actor_user_id as actorUserId, actor_email as actorEmail, changes from admin_audit where entity = 'subscriber' and entity_id = ?",
    )
      .bind(String(id))
      .all<{ action: string; actorUserId: string; actorEmail: string; changes: string }>();
    expect(results.map((r) => ({ ...r, changes: JSON.parse(r.changes) as unknown }))).toEqual([
      { action: 'remove', actorUserId: admin.id, actorEmail: admin.email, changes: { email: { from: email, to: null } } },
    ]);

    // Gone: a second removal is a 404, and writes no second audit row.
    const again = await send(admin.browser, 'DELETE', `/admin/subscribers/${id}`);
    expect(again.status).toBe(404);
    expect((await again.json<ErrorJson>()).error.code).toBe('not_found');
    const audits = await env.DB.prepare("select count(*) as n from admin_audit where entity = 'subscriber' and entity_id = ?")
      .bind(String(id))
      .first<{ n: number }>();
    expect(audits!.n).toBe(1);
  });

  it('answers an id that is not a whole number with 400 naming `id`', async () => {
    for (const id of ['abc', '1.5', '-3', '0']) {
      const response = await send(admin.browser, 'DELETE', `/admin/subscribers/${id}`);
      expect(response.status, id).toBe(400);
      const { error } = await response.json<ErrorJson>();
      expect(error.code).toBe('invalid_request');
      expect(error.issues?.map((i) => i.field)).toEqual(['id']);
    }
  });
});

/** A small RFC 4180 reader (quoted fields with doubled quotes and line breaks; CRLF between records). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  return rows;
}
