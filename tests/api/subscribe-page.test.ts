import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { SUBSCRIBE_MESSAGE } from '../../src/features/newsletter/newsletter-answers.ts';
import { type SubscribeOutcome, subscribeFromPage } from '../../src/features/newsletter/subscribe.server.ts';
import { type ErrorJson, pageFormPost } from './client.ts';
import { callWith, envWith } from './with-env.ts';

/**
 * POST /newsletter/subscribe as the Worker answers it (src/features/newsletter/subscribe.server.ts,
 * which src/pages/newsletter/subscribe.astro renders): the footer sign-up pressed before its
 * script runs, or without JavaScript. The same double opt-in, messages and per-client budget as
 * the API's sign-up (POST /api/subscribe), and nothing stored for a refused form.
 */

const SITE = 'http://localhost:8787';

/** A post of the page's form from client address `ip` (by default this file's own). */
const subscribeRequest = (
  fields: Record<string, string>,
  { ip = '192.0.2.30', headers = {} }: { ip?: string; headers?: Record<string, string> } = {},
) => pageFormPost('/newsletter/subscribe', fields, { ip, headers });

/** The page's answer, with the work it left running (the e-mail's delivery) finished. */
async function subscribe(request: Request, bindings: Env = env): Promise<SubscribeOutcome> {
  const ctx = createExecutionContext();
  const outcome = await subscribeFromPage(request, ctx, bindings);
  await waitOnExecutionContext(ctx);
  return outcome;
}

const refused = (outcome: SubscribeOutcome) => {
  if (outcome.ok) throw new Error(`expected a refusal, got: ${outcome.message}`);
  return outcome;
};

const newAddress = () => `page-reader-${crypto.randomUUID().slice(0, 8)}@example.com`;

const subscriberRow = (email: string) =>
  env.DB.prepare('select confirmed_at as confirmedAt from newsletter_subscribers where email = ?')
    .bind(email)
    .first<{ confirmedAt: number | null }>();

const confirmations = async (email: string) =>
  (
    await env.DB.prepare("select status from email_outbox where recipient = ? and kind = 'newsletter_confirm'")
      .bind(email)
      .all<{ status: string }>()
  ).results;

describe('/newsletter/subscribe as the Worker renders it', () => {
  it('asks the address to confirm, as the API does, and sends the e-mail after the answer', async () => {
    const email = newAddress();
    // Typed loosely: spaces and capitals, stored as the API stores them.
    const outcome = await subscribe(subscribeRequest({ email: `  ${email.toUpperCase()} ` }));
    expect(outcome).toEqual({ ok: true, message: SUBSCRIBE_MESSAGE });
    expect(await subscriberRow(email)).toEqual({ confirmedAt: null });
    // Queued and handed to delivery in the request's waitUntil (no provider here: held, not pending).
    const queued = await confirmations(email);
    expect(queued).toHaveLength(1);
    expect(queued[0]!.status).not.toBe('pending');

    // The API's answer for the same address is the same words.
    const viaApi = await callWith({}, '/subscribe', { body: { email } });
    expect(viaApi.status).toBe(202);
    expect(await viaApi.json()).toEqual({ message: outcome.message });
  });

  it('names the field to correct with the API’s message, keeps what was typed and stores nothing', async () => {
    for (const typed of ['not-an-email', '', `${'a'.repeat(250)}@example.com`]) {
      const outcome = refused(await subscribe(subscribeRequest({ email: typed })));
      expect(outcome.status).toBe(400);
      expect(outcome.field).toBe('email');
      expect(outcome.email).toBe(typed);
      const viaApi = await callWith({}, '/subscribe', { body: { email: typed } });
      expect(viaApi.status).toBe(400);
      const { error } = await viaApi.json<ErrorJson>();
      expect(outcome.message).toBe(error.issues?.find((i) => i.field === 'email')?.message);
    }
    const none = refused(await subscribe(subscribeRequest({})));
    expect(none).toMatchObject({ status: 400, field: 'email', email: '', message: 'Please enter your email address' });
    expect(await subscriberRow('not-an-email')).toBeNull();
  });

  it('refuses a form sent from another site, and subscribes no one', async () => {
    const email = newAddress();
    const crossSite: Record<string, string>[] = [{ 'sec-fetch-site': 'cross-site' }, { origin: 'https://evil.example' }];
    for (const headers of crossSite) {
      const outcome = refused(await subscribe(subscribeRequest({ email }, { headers })));
      expect(outcome.status).toBe(403);
      expect(outcome.email).toBe('');
    }
    expect(await subscriberRow(email)).toBeNull();
    expect(await confirmations(email)).toEqual([]);
  });

  it('refuses a body that is not a small form', async () => {
    const email = newAddress();
    const json = new Request(`${SITE}/newsletter/subscribe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: SITE },
      body: JSON.stringify({ email }),
    });
    expect(refused(await subscribe(json)).status).toBe(400);
    const oversized = refused(await subscribe(subscribeRequest({ email, padding: 'x'.repeat(5_000) })));
    expect(oversized.status).toBe(400);
    expect(oversized.message).toMatch(/could not read the form/);
    expect(await subscriberRow(email)).toBeNull();
  });

  it('shares one sign-up budget with the API: a client over it is refused both ways, from either side', async () => {
    const vars = { RATE_LIMIT_NEWSLETTER: '3/600' };
    const bindings = envWith(vars);
    const viaPage = (ip: string) => subscribe(subscribeRequest({ email: newAddress() }, { ip }), bindings);
    const viaApi = (ip: string) => callWith(vars, '/subscribe', { ip, body: { email: newAddress() } });

    // Page first, then the API.
    const first = '198.51.100.81';
    for (let i = 0; i < 2; i++) expect((await viaPage(first)).ok).toBe(true);
    expect((await viaApi(first)).status).toBe(202);
    expect((await viaApi(first)).status).toBe(429);
    const limited = refused(await viaPage(first));
    expect(limited.status).toBe(429);
    expect(limited.retryAfterSeconds).toBeGreaterThan(0);
    expect(limited.message).toMatch(/^Too many requests\. Please wait .+ and try again\.$/);

    // The API first, then the page; a malformed form counts too, as a malformed API body does.
    const second = '198.51.100.82';
    for (let i = 0; i < 2; i++) expect((await viaApi(second)).status).toBe(202);
    expect(refused(await subscribe(subscribeRequest({ email: 'nope' }, { ip: second }), bindings)).status).toBe(400);
    expect(refused(await viaPage(second)).status).toBe(429);
    expect((await viaApi(second)).status).toBe(429);

    // Another client is not affected.
    expect((await viaPage('198.51.100.83')).ok).toBe(true);
  });
});
