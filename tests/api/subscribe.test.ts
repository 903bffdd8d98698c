import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import worker, { api } from '../../functions/index.ts';
import { SUBSCRIBE_MESSAGE } from '../../src/features/newsletter/newsletter-answers.ts';
import { postJson, type ErrorJson } from './client.ts';

const ORIGIN = 'http://localhost:8787';

const subscribers = async () =>
  (await env.DB.prepare('select email from newsletter_subscribers order by id').all<{ email: string }>()).results.map(
    (r) => r.email,
  );

const newAddress = (label = 'reader') => `${label}-${crypto.randomUUID().slice(0, 8)}@example.com`;

/** The subscriber's row as D1 holds it (null: none). */
const rowOf = (email: string) =>
  env.DB.prepare(
    'select email, confirmed_at as confirmedAt, confirm_token_hash as tokenHash, confirm_expires_at as expiresAt from newsletter_subscribers where email = ?',
  )
    .bind(email)
    .first<{ email: string; confirmedAt: number | null; tokenHash: string | null; expiresAt: number | null }>();

/** The confirmation e-mails queued for `email`, newest first. */
const confirmationEmails = async (email: string) =>
  (
    await env.DB.prepare(
      "select text, html, subject from email_outbox where recipient = ? and kind = 'newsletter_confirm' order by id desc",
    )
      .bind(email)
      .all<{ text: string; html: string; subject: string }>()
  ).results;

const linkToken = (text: string, page: 'confirm' | 'unsubscribe') => {
  const match = new RegExp(`${ORIGIN}/newsletter/${page}\\?token=([A-Za-z0-9_.-]+)`).exec(text);
  if (!match) throw new Error(`No ${page} link in: ${text}`);
  return match[1]!;
};

/**
 * The Worker's API with some vars replaced and the client address a request comes from
 * (what the per-client limits count by), waiting for the work it left running (e-mail delivery).
 */
async function request(
  path: string,
  init: RequestInit = {},
  { vars = {}, ip }: { vars?: Record<string, string>; ip?: string } = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  if (ip) headers.set('cf-connecting-ip', ip);
  const ctx = createExecutionContext();
  const response = await api.fetch(
    new Request(`${ORIGIN}/api${path}`, { ...init, headers, redirect: 'manual' }),
    { ...env, ...vars } as Env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response;
}

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', origin: ORIGIN },
  body: JSON.stringify(body),
});

const signUp = (email: unknown, options?: Parameters<typeof request>[2]) => request('/subscribe', json({ email }), options);

/** Signs `email` up and answers the token of the confirmation link it was sent. */
async function pendingWithLink(email: string): Promise<{ confirm: string; unsubscribe: string }> {
  expect((await signUp(email)).status).toBe(202);
  const [mail] = await confirmationEmails(email);
  return { confirm: linkToken(mail!.text, 'confirm'), unsubscribe: linkToken(mail!.text, 'unsubscribe') };
}

async function confirmed(email: string): Promise<{ unsubscribe: string }> {
  const links = await pendingWithLink(email);
  expect((await request('/newsletter/confirm', json({ token: links.confirm }))).status).toBe(200);
  return links;
}

async function expectInvalidToken(response: Response) {
  expect(response.status).toBe(400);
  const { error } = await response.json<ErrorJson>();
  expect(error.code).toBe('invalid_token');
  expect(error.issues?.map((i) => i.field)).toEqual(['token']);
}

describe('POST /api/subscribe', () => {
  it('stores an address once, lower-cased, as waiting for its confirmation, and says to check the inbox', async () => {
    const first = await postJson('/subscribe', { email: '  Ada.Obi@Example.com ' }, { origin: ORIGIN });
    expect(first.status).toBe(202);
    expect(await first.json()).toEqual({ message: SUBSCRIBE_MESSAGE });

    const again = await postJson('/subscribe', { email: 'ada.obi@example.com' }, { origin: ORIGIN });
    expect(again.status).toBe(202);
    expect(await again.json()).toEqual({ message: SUBSCRIBE_MESSAGE });

    expect(await subscribers()).toEqual(['ada.obi@example.com']);
    expect(await rowOf('ada.obi@example.com')).toMatchObject({ confirmedAt: null });
  });

  it('answers a new, a waiting and a subscribed address byte for byte the same', async () => {
    const waiting = newAddress('waiting');
    await signUp(waiting);
    const subscribed = newAddress('subscribed');
    await confirmed(subscribed);

    const answers = [];
    for (const email of [newAddress('new'), waiting, subscribed]) {
      const response = await signUp(email);
      answers.push({
        status: response.status,
        contentType: response.headers.get('content-type'),
        cacheControl: response.headers.get('cache-control'),
        body: await response.text(),
      });
    }
    expect(answers[0]).toMatchObject({ status: 202 });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });

  it('limits sign-ups per client before reading the body: 150 in a row get 429 past the limit, storing nothing more', async () => {
    const vars = { RATE_LIMIT_NEWSLETTER: '5/3600' };
    const ip = '203.0.113.150';
    const tag = `flood${crypto.randomUUID().slice(0, 6)}`;
    const statuses: number[] = [];
    for (let i = 0; i < 150; i++) statuses.push((await signUp(`${tag}-${i}@example.com`, { vars, ip })).status);
    expect(statuses.slice(0, 5)).toEqual([202, 202, 202, 202, 202]);
    expect(statuses.slice(5).every((s) => s === 429)).toBe(true);

    const limited = await signUp('not-an-address', { vars, ip });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await limited.json<ErrorJson>()).error.code).toBe('rate_limited');
    const stored = await env.DB.prepare('select count(*) as n from newsletter_subscribers where email like ?')
      .bind(`${tag}-%`)
      .first<{ n: number }>();
    expect(stored!.n).toBe(5);

    // Another client is not held back by this one.
    expect((await signUp(newAddress(), { vars, ip: '198.51.100.7' })).status).toBe(202);
  });

  it('sends an address at most RATE_LIMIT_EMAIL_RECIPIENT confirmations, however many clients ask, answering the same', async () => {
    const victim = newAddress('bombed');
    const vars = { RATE_LIMIT_EMAIL_RECIPIENT: '3/3600' };
    const bodies = new Set<string>();
    for (let i = 0; i < 30; i++) {
      const response = await signUp(victim, { vars, ip: `192.0.2.${i + 1}` });
      expect(response.status).toBe(202);
      bodies.add(await response.text());
    }
    expect(bodies.size).toBe(1);
    expect(await confirmationEmails(victim)).toHaveLength(3);
    // The last link sent still works: sign-ups past the limit do not replace it with one nobody received.
    const [newest] = await confirmationEmails(victim);
    expect((await request('/newsletter/confirm', json({ token: linkToken(newest!.text, 'confirm') }))).status).toBe(200);
  });

  it('e-mails a link that confirms on POST and says how to unsubscribe; a subscribed address gets no second e-mail', async () => {
    const email = newAddress();
    const links = await pendingWithLink(email);
    const [mail] = await confirmationEmails(email);
    expect(mail!.subject).toMatch(/confirm/i);
    expect(mail!.text).toMatch(/unsubscribe/i);
    expect(mail!.html).toContain(`${ORIGIN}/newsletter/unsubscribe?token=${links.unsubscribe}`);

    const response = await request('/newsletter/confirm', json({ token: links.confirm }));
    expect(response.status).toBe(200);
    expect((await response.json<{ message: string }>()).message).toMatch(/subscribed/i);
    const row = await rowOf(email);
    expect(row?.confirmedAt).toEqual(expect.any(Number));
    expect(row).toMatchObject({ tokenHash: null, expiresAt: null });

    expect((await signUp(email)).status).toBe(202);
    expect(await confirmationEmails(email)).toHaveLength(1);
    expect((await rowOf(email))?.confirmedAt).toBe(row?.confirmedAt);
  });

  it.each([
    [{ email: '' }, 'Please enter your email address'],
    [{}, 'Please enter your email address'],
    [{ email: 'not-an-address' }, 'Please enter a valid email address'],
    [{ email: 42 }, 'Please enter your email address'],
  ])('rejects %j with a 400 naming the email field, storing nothing', async (body, message) => {
    const before = await subscribers();
    const response = await postJson('/subscribe', body);
    expect(response.status).toBe(400);
    const json = await response.json<ErrorJson>();
    expect(json.error.issues).toContainEqual({ field: 'email', message });
    expect(await subscribers()).toEqual(before);
  });

  it('answers malformed JSON with a 400, not a 500', async () => {
    const response = await postJson('/subscribe', '{"email": ');
    expect(response.status).toBe(400);
    expect((await response.json<ErrorJson>()).error.code).toBe('bad_request');
  });

  it('refuses a body over 64 KB with 413', async () => {
    const response = await postJson('/subscribe', { email: `${'a'.repeat(70_000)}@example.com` });
    expect(response.status).toBe(413);
    expect((await response.json<ErrorJson>()).error.code).toBe('payload_too_large');
  });
});

describe('POST /api/newsletter/confirm', () => {
  it('signed up twice while waiting: both e-mails carry the same link, which confirms once; after it ran out, a new one', async () => {
    const email = newAddress('twice');
    const first = await pendingWithLink(email);
    const second = await pendingWithLink(email);
    expect(await confirmationEmails(email)).toHaveLength(2);
    expect(second.confirm).toBe(first.confirm);
    expect((await request('/newsletter/confirm', json({ token: first.confirm }))).status).toBe(200);
    await expectInvalidToken(await request('/newsletter/confirm', json({ token: second.confirm })));

    // A link that ran out is not sent again: two days on, the next sign-up gets a new one, which works.
    const late = newAddress('late');
    const old = await pendingWithLink(late);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 49 * 3_600_000 });
    try {
      const fresh = await pendingWithLink(late);
      expect(fresh.confirm).not.toBe(old.confirm);
      await expectInvalidToken(await request('/newsletter/confirm', json({ token: old.confirm })));
      expect((await request('/newsletter/confirm', json({ token: fresh.confirm }))).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it('works once: the same link again is a 400 naming `token`', async () => {
    const email = newAddress();
    const { confirm } = await pendingWithLink(email);
    expect((await request('/newsletter/confirm', json({ token: confirm }))).status).toBe(200);
    await expectInvalidToken(await request('/newsletter/confirm', json({ token: confirm })));
  });

  it('refuses an expired link with a 400 naming `token`, leaving the address unconfirmed', async () => {
    const email = newAddress();
    const { confirm } = await pendingWithLink(email);
    await env.DB.prepare('update newsletter_subscribers set confirm_expires_at = unixepoch() - 1 where email = ?')
      .bind(email)
      .run();
    await expectInvalidToken(await request('/newsletter/confirm', json({ token: confirm })));
    expect((await rowOf(email))?.confirmedAt).toBeNull();
  });

  it('confirms nothing on GET (mail scanners open links) nor with a made-up or missing token', async () => {
    const email = newAddress();
    const { confirm } = await pendingWithLink(email);
    const get = await request(`/newsletter/confirm?token=${confirm}`);
    expect(get.status).toBeGreaterThanOrEqual(400);
    await expectInvalidToken(await request('/newsletter/confirm', json({ token: 'x'.repeat(43) })));
    const missing = await request('/newsletter/confirm', json({}));
    expect(missing.status).toBe(400);
    expect((await missing.json<ErrorJson>()).error.issues?.map((i) => i.field)).toEqual(['token']);
    expect((await rowOf(email))?.confirmedAt).toBeNull();
  });

  it("takes the page's plain form post and sends the browser back to the page with the outcome", async () => {
    const email = newAddress();
    const { confirm } = await pendingWithLink(email);
    const form = (token: string) =>
      request('/newsletter/confirm', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
        body: new URLSearchParams({ token }).toString(),
      });
    const done = await form(confirm);
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/newsletter/confirm?result=confirmed');
    expect((await rowOf(email))?.confirmedAt).toEqual(expect.any(Number));
    const again = await form(confirm);
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe('/newsletter/confirm?result=invalid');
  });

  it("still refuses another site's form post (csrf)", async () => {
    const email = newAddress();
    const { confirm } = await pendingWithLink(email);
    const response = await request('/newsletter/confirm', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      body: new URLSearchParams({ token: confirm }).toString(),
    });
    expect(response.status).toBe(403);
    expect((await rowOf(email))?.confirmedAt).toBeNull();
  });
});

describe('POST /api/newsletter/unsubscribe', () => {
  it('removes the address its link was made for, and only that one', async () => {
    const leaving = newAddress('leaving');
    const staying = newAddress('staying');
    const { unsubscribe } = await confirmed(leaving);
    await confirmed(staying);
    const response = await request('/newsletter/unsubscribe', json({ token: unsubscribe }));
    expect(response.status).toBe(200);
    expect((await response.json<{ message: string }>()).message).toMatch(/unsubscribed/i);
    expect(await rowOf(leaving)).toBeNull();
    expect(await rowOf(staying)).not.toBeNull();
    // A second press answers the same and changes nothing.
    expect((await request('/newsletter/unsubscribe', json({ token: unsubscribe }))).status).toBe(200);
  });

  it("refuses one address's token re-pointed at another, and forged tokens, with a 400 naming `token`", async () => {
    const attacker = newAddress('attacker');
    const victim = newAddress('victim');
    const { unsubscribe } = await confirmed(attacker);
    await confirmed(victim);
    const [, signature] = unsubscribe.split('.');
    const victimPart = btoa(victim).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
    for (const token of [
      `${victimPart}.${signature}`,
      `${victimPart}.${'A'.repeat(43)}`,
      victimPart,
      `${victimPart}.`,
      'not-a-token',
      `${unsubscribe}x`,
      '%%%.%%%',
    ]) {
      await expectInvalidToken(await request('/newsletter/unsubscribe', json({ token })));
    }
    expect(await rowOf(victim)).not.toBeNull();
    expect(await rowOf(attacker)).not.toBeNull();
  });

  it('takes a mailbox provider’s RFC 8058 one-click post from its own servers (no Origin, another site)', async () => {
    const providers: Record<string, string>[] = [{}, { origin: 'https://mail.google.com', 'sec-fetch-site': 'cross-site' }];
    for (const headers of providers) {
      const email = newAddress('one-click');
      const { unsubscribe } = await confirmed(email);
      const response = await request(`/newsletter/unsubscribe?token=${unsubscribe}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: 'List-Unsubscribe=One-Click',
      });
      expect(response.status, await response.clone().text()).toBe(200);
      expect(await rowOf(email)).toBeNull();
    }
  });

  it("takes the page's plain form post and sends the browser back to the page", async () => {
    const email = newAddress();
    const { unsubscribe } = await confirmed(email);
    const response = await request('/newsletter/unsubscribe', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
      body: new URLSearchParams({ token: unsubscribe }).toString(),
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/newsletter/unsubscribe?result=unsubscribed');
    expect(await rowOf(email)).toBeNull();
  });

  it('also withdraws an address still waiting for its confirmation (the link is in that e-mail)', async () => {
    const email = newAddress();
    const { unsubscribe, confirm } = await pendingWithLink(email);
    expect((await request('/newsletter/unsubscribe', json({ token: unsubscribe }))).status).toBe(200);
    expect(await rowOf(email)).toBeNull();
    await expectInvalidToken(await request('/newsletter/confirm', json({ token: confirm })));
  });
});

describe('the cron', () => {
  it('deletes addresses whose confirmation link ran out, never a subscriber', async () => {
    const stale = newAddress('stale');
    const fresh = newAddress('fresh');
    const subscribed = newAddress('kept');
    await pendingWithLink(stale);
    await pendingWithLink(fresh);
    await confirmed(subscribed);
    await env.DB.prepare('update newsletter_subscribers set confirm_expires_at = unixepoch() - 86400 where email = ?')
      .bind(stale)
      .run();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: '*/10 * * * *' }), env);
    expect(await rowOf(stale)).toBeNull();
    expect(await rowOf(fresh)).not.toBeNull();
    expect(await rowOf(subscribed)).not.toBeNull();
  });
});
