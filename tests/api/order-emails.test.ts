import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../../functions/platform/db.ts';
import { deliverPendingEmails, MAX_EMAIL_ATTEMPTS, type Fetcher } from '../../functions/platform/outbox.ts';
import { readConfig, type Config } from '../../functions/env.ts';
import { placeOrder } from '../../functions/orders/place.ts';
import { placeOrderSchema } from '../../src/features/orders/checkout.ts';
import { customer, emailsOf, orderRequest, PS5, setStock } from './orders-helpers.ts';

// Orders here are placed with the server's own placeOrder (not over HTTP), so no
// delivery started by a request runs in the background while a test delivers.
const db = openDb(env.DB);
const config = readConfig(env);
const withProvider: Config = { ...config, EMAIL_API_URL: 'https://email.example/v1/send', EMAIL_API_KEY: 're_test_123' };

beforeAll(() => setStock(PS5.id, 500));

async function orderFor(email: string, overrides: Record<string, unknown> = {}) {
  const request = placeOrderSchema.parse(orderRequest({ customer: { ...customer, email }, ...overrides }));
  return (await placeOrder(db, config, request)).order;
}

/** The e-mail provider's HTTP endpoint, offline: records each request and answers with `status`. */
function provider(status = 200) {
  const requests: Request[] = [];
  const send: Fetcher = async (request) => {
    requests.push(request);
    return new Response(status < 400 ? '{"id":"em_1"}' : 'provider is down', { status });
  };
  return { send, requests };
}

describe('the e-mail outbox', () => {
  it('queues one confirmation e-mail with the bank transfer details when an order is placed', async () => {
    const order = await orderFor('confirm@example.com', {
      lines: [{ productId: PS5.id, variant: PS5.variant, quantity: 2, price: PS5.price }],
    });
    const emails = await emailsOf(order.number);
    expect(emails).toHaveLength(1);
    const [email] = emails;
    expect(email).toMatchObject({
      recipient: 'confirm@example.com',
      subject: `Your GTS order ${order.number}: transfer details`,
      status: 'pending',
      attempts: 0,
    });
    for (const detail of [
      'Please transfer ₦1,699,500 to:',
      'Bank: First Bank',
      'Account name: GTS Electronics Ltd',
      'Account number: 3081726354',
      `Reference: ${order.number}`,
    ]) {
      expect(email!.text).toContain(detail);
    }
    expect(email!.text).toContain(`2 × Sony PlayStation 5 Slim (Disc Edition): ₦1,698,000`);
    expect(email!.html).toContain('₦1,699,500');
    expect(email!.html).toContain(`http://localhost:8787/track?order=${order.number}`);
  });

  it("escapes the shopper's own text in the HTML body", async () => {
    const order = await orderFor('escape@example.com', {
      customer: { ...customer, email: 'escape@example.com', name: 'Ada <img src=x onerror=alert(1)>' },
    });
    const [email] = await emailsOf(order.number);
    // A "name" with markup is not repeated at all (functions/platform/email.ts greets by name only when it looks like one).
    expect(email!.text.startsWith('Hello,\n\n')).toBe(true);
    expect(email!.text).not.toContain('onerror');
    expect(email!.html).not.toContain('<img');
    expect(email!.html).not.toContain('onerror');
  });

  it('keeps e-mails as held, sending nothing, when no EMAIL_API_URL is set', async () => {
    const order = await orderFor('held@example.com');
    const pending = (await env.DB.prepare("select count(*) as n from email_outbox where status = 'pending'").first<{
      n: number;
    }>())!.n;
    expect(pending).toBeGreaterThanOrEqual(1);
    const { send, requests } = provider();
    const report = await deliverPendingEmails(db, config, send);
    expect(report).toEqual({ sent: 0, held: pending, retrying: 0, failed: 0 });
    expect(
      (await env.DB.prepare("select count(*) as n from email_outbox where status = 'pending'").first<{ n: number }>())!.n,
    ).toBe(0);
    expect(requests).toHaveLength(0);
    expect(await emailsOf(order.number)).toEqual([expect.objectContaining({ status: 'held', attempts: 0 })]);
  });

  it('posts each pending e-mail to the provider as JSON with the Bearer key, then marks it sent', async () => {
    // Rows the earlier tests left held would be sent too once a provider is configured: set them aside.
    await env.DB.prepare("update email_outbox set status = 'failed' where status = 'held'").run();
    const order = await orderFor('sent@example.com');
    const [queued] = await emailsOf(order.number);
    const { send, requests } = provider(200);

    const report = await deliverPendingEmails(db, withProvider, send);
    expect(report).toEqual({ sent: 1, held: 0, retrying: 0, failed: 0 });
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request!.url).toBe('https://email.example/v1/send');
    expect(request!.method).toBe('POST');
    expect(request!.headers.get('authorization')).toBe('Bearer re_test_123');
    expect(request!.headers.get('content-type')).toBe('application/json');
    expect(await request!.json()).toEqual({
      from: 'GTS Electronics <orders@gts.ng>',
      to: ['sent@example.com'],
      subject: queued!.subject,
      text: queued!.text,
      html: queued!.html,
    });
    expect(await emailsOf(order.number)).toEqual([expect.objectContaining({ status: 'sent', attempts: 1, lastError: null })]);

    // Sent once: the next run finds nothing to send.
    expect(await deliverPendingEmails(db, withProvider, send)).toEqual({ sent: 0, held: 0, retrying: 0, failed: 0 });
    expect(requests).toHaveLength(1);
  });

  it(`retries after a provider error and gives up as failed after ${MAX_EMAIL_ATTEMPTS} attempts`, async () => {
    const order = await orderFor('retry@example.com');
    const { send, requests } = provider(500);

    // Each retry waits longer (1 min, 5 min, 30 min, 2 h): a run before the wait is over sends nothing.
    let now = Math.floor(Date.now() / 1000) * 1000;
    for (let attempt = 1; attempt < MAX_EMAIL_ATTEMPTS; attempt++) {
      expect(await deliverPendingEmails(db, withProvider, send, { now: new Date(now) })).toMatchObject({
        sent: 0,
        retrying: 1,
        failed: 0,
      });
      const [email] = await emailsOf(order.number);
      expect(email).toMatchObject({ status: 'pending', attempts: attempt, lastError: 'HTTP 500: provider is down' });
      const wait = email!.nextAttemptAt! * 1000 - now;
      expect(wait).toBe([60, 300, 1800, 7200][attempt - 1]! * 1000);
      expect(await deliverPendingEmails(db, withProvider, send, { now: new Date(now + wait - 1000) })).toMatchObject({
        retrying: 0,
      });
      now += wait;
    }
    expect(await deliverPendingEmails(db, withProvider, send, { now: new Date(now) })).toMatchObject({ retrying: 0, failed: 1 });
    expect(await emailsOf(order.number)).toEqual([expect.objectContaining({ status: 'failed', attempts: MAX_EMAIL_ATTEMPTS })]);
    expect(requests).toHaveLength(MAX_EMAIL_ATTEMPTS);

    // A failed e-mail is left for a person: later runs do not send it again.
    await deliverPendingEmails(db, withProvider, send, { now: new Date(now + 86_400_000) });
    expect(requests).toHaveLength(MAX_EMAIL_ATTEMPTS);
  });

  it('keeps an e-mail pending with the error when the provider cannot be reached', async () => {
    const order = await orderFor('offline@example.com');
    const unreachable: Fetcher = async () => {
      throw new TypeError('Network connection lost.');
    };
    expect(await deliverPendingEmails(db, withProvider, unreachable)).toMatchObject({ retrying: 1 });
    expect(await emailsOf(order.number)).toEqual([
      expect.objectContaining({ status: 'pending', attempts: 1, lastError: 'Network connection lost.' }),
    ]);
    // The next run after the back-off delivers it.
    const { send } = provider(200);
    await deliverPendingEmails(db, withProvider, send, { now: new Date(Date.now() + 61_000) });
    expect(await emailsOf(order.number)).toEqual([expect.objectContaining({ status: 'sent', attempts: 2, lastError: null })]);
  });

  it('never sends one e-mail twice when two deliveries run at once', async () => {
    const orders = [
      await orderFor('twice-a@example.com'),
      await orderFor('twice-b@example.com'),
      await orderFor('twice-c@example.com'),
    ];
    const { send, requests } = provider(200);
    const reports = await Promise.all([
      deliverPendingEmails(db, withProvider, send),
      deliverPendingEmails(db, withProvider, send),
    ]);
    expect(reports[0]!.sent + reports[1]!.sent).toBe(3);
    const recipients = await Promise.all(requests.map(async (r) => (await r.clone().json<{ to: string[] }>()).to[0]));
    expect(recipients.sort()).toEqual(['twice-a@example.com', 'twice-b@example.com', 'twice-c@example.com']);
    for (const order of orders)
      expect(await emailsOf(order.number)).toEqual([expect.objectContaining({ status: 'sent', attempts: 1 })]);
  });

  it('hands an e-mail claimed by a delivery run that died to a later run once the claim runs out', async () => {
    const order = await orderFor('crashed@example.com');
    const [email] = await emailsOf(order.number);
    const now = Date.now();
    // A run claimed it and never finished.
    await env.DB.prepare("update email_outbox set status = 'sending', attempts = 1, next_attempt_at = ? where id = ?")
      .bind(Math.floor(now / 1000) + 300, email!.id)
      .run();
    const { send, requests } = provider(200);
    await deliverPendingEmails(db, withProvider, send, { now: new Date(now) });
    expect(requests).toHaveLength(0);
    await deliverPendingEmails(db, withProvider, send, { now: new Date(now + 301_000) });
    expect(requests).toHaveLength(1);
    expect(await emailsOf(order.number)).toEqual([expect.objectContaining({ status: 'sent', attempts: 2 })]);
  });
});
