import { env, exports } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDb } from '../../functions/platform/db.ts';
import { deliverPendingEmails, MAX_EMAIL_ATTEMPTS, type Fetcher } from '../../functions/platform/outbox.ts';
import { readConfig, type Config } from '../../functions/env.ts';
import { placeOrder } from '../../functions/orders/place.ts';
import { placeOrderSchema } from '../../src/features/orders/checkout.ts';
import { customer, orderRequest, PS5, setStock } from './orders-helpers.ts';

// The outbox's delivery runs against e-mail providers that are slow, fail or never
// answer, and against each other. The provider is a stand-in at the HTTP boundary
// (the Fetcher); "slow" is simulated by moving the clock (only Date is faked, timers
// stay real), so a run that takes minutes runs in milliseconds.
const db = openDb(env.DB);
const config = readConfig(env);
const withProvider: Config = { ...config, EMAIL_API_URL: 'https://email.example/v1/send', EMAIL_API_KEY: 're_test_123' };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface OutboxRow {
  id: number;
  recipient: string;
  status: string;
  attempts: number;
  lastError: string | null;
  /** Unix seconds. */
  nextAttemptAt: number | null;
}

async function outboxRow(id: number) {
  const row = await env.DB.prepare(
    'select id, recipient, status, attempts, last_error as lastError, next_attempt_at as nextAttemptAt from email_outbox where id = ?',
  )
    .bind(id)
    .first<OutboxRow>();
  if (!row) throw new Error(`no e-mail #${id}`);
  return row;
}

/** Queues `count` e-mails to r1@example.com, r2@… straight into the outbox; returns their ids. */
async function queue(count: number, prefix = 'r'): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 1; i <= count; i++) {
    const row = await env.DB.prepare(
      "insert into email_outbox (recipient, subject, text, html) values (?, 'Test', 'Hello', '<p>Hello</p>') returning id",
    )
      .bind(`${prefix}${i}@example.com`)
      .first<{ id: number }>();
    ids.push(row!.id);
  }
  return ids;
}

/** The recipient of a request the outbox made to the provider. */
const recipientOf = async (request: Request) => (await request.clone().json<{ to: string[] }>()).to[0]!;

/** How many times the provider was asked to send to each recipient. */
async function callsPerRecipient(requests: Request[]) {
  const counts: Record<string, number> = {};
  for (const request of requests) {
    const to = await recipientOf(request);
    counts[to] = (counts[to] ?? 0) + 1;
  }
  return counts;
}

const ok = () => new Response('{"id":"em_1"}', { status: 200 });

beforeEach(async () => {
  // Each test starts with an empty outbox: another test's rows must not take part.
  await env.DB.prepare('delete from email_outbox').run();
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('delivering the outbox when the provider is slow', () => {
  // The provider takes 19 s per e-mail (inside the time limit on a provider call), so a run of
  // 17 e-mails takes over 5 minutes. Each e-mail's claim must be measured from when that
  // e-mail was claimed, not from when the run started.
  const SLOW_SECONDS = 19;
  const COUNT = 17;

  function slowProvider(onCall?: (request: Request, call: number) => Promise<void> | void) {
    const requests: Request[] = [];
    const send: Fetcher = async (request) => {
      requests.push(request);
      vi.setSystemTime(Date.now() + SLOW_SECONDS * 1000);
      await onCall?.(request, requests.length);
      await sleep(1);
      return ok();
    };
    return { send, requests };
  }

  it('holds each e-mail’s claim for as long as its provider call is in flight', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-20T09:00:00Z'));
    const ids = await queue(COUNT);
    const lapsed: string[] = [];
    const { send } = slowProvider(async (request) => {
      const id = ids[Number((await recipientOf(request)).match(/^r(\d+)@/)![1]) - 1]!;
      const row = await outboxRow(id);
      const now = Math.floor(Date.now() / 1000);
      if (row.status !== 'sending' || row.nextAttemptAt! <= now) {
        lapsed.push(`#${id}: ${row.status}, claim ends ${row.nextAttemptAt! - now} s from now`);
      }
    });

    expect(await deliverPendingEmails(db, withProvider, send)).toEqual({ sent: COUNT, held: 0, retrying: 0, failed: 0 });
    expect(lapsed).toEqual([]);
  });

  it('sends each e-mail exactly once when a second run starts while the first is still sending', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-20T09:00:00Z'));
    await queue(COUNT);
    let second: Promise<unknown> | undefined;
    const { send, requests } = slowProvider((_, call) => {
      // The cron fires (or an order's waitUntil starts a run) during the first run's last e-mail.
      if (call === COUNT && !second) second = deliverPendingEmails(db, withProvider, send);
    });

    await deliverPendingEmails(db, withProvider, send);
    await second;

    const counts = await callsPerRecipient(requests);
    expect(Object.values(counts).filter((n) => n !== 1)).toEqual([]);
    expect(Object.keys(counts)).toHaveLength(COUNT);
    expect(requests).toHaveLength(COUNT);
  });
});

describe('a run that lost its claim', () => {
  it('cannot overwrite `sent` when its own provider call fails afterwards', async () => {
    const [id] = await queue(1);
    const requests: Request[] = [];
    let answer!: () => void;
    const slowFailing: Fetcher = async (request) => {
      requests.push(request);
      await new Promise<void>((resolve) => (answer = resolve));
      return new Response('provider is down', { status: 500 });
    };
    const first = deliverPendingEmails(db, withProvider, slowFailing);
    while (requests.length === 0) await sleep(5);

    // The first run's claim runs out while its call is in flight; a later run claims the e-mail and sends it.
    await env.DB.prepare('update email_outbox set next_attempt_at = unixepoch() - 1 where id = ?').bind(id!).run();
    expect(await deliverPendingEmails(db, withProvider, async () => ok())).toMatchObject({ sent: 1 });
    expect(await outboxRow(id!)).toMatchObject({ status: 'sent', lastError: null });

    // Now the first run's provider answers with an error: it no longer holds the claim, so it records nothing.
    answer();
    const report = await first;
    expect(await outboxRow(id!)).toMatchObject({ status: 'sent', lastError: null, nextAttemptAt: null });
    expect(report).toMatchObject({ sent: 0, retrying: 0, failed: 0 });
  });
});

describe('a provider that never answers', () => {
  it('is cut off by the time limit on the call, and the e-mail is retried later', async () => {
    const [id] = await queue(1);
    let calls = 0;
    const hangs: Fetcher = () => {
      calls++;
      return new Promise<Response>(() => {});
    };
    const run = deliverPendingEmails(db, withProvider, hangs, { timeoutMs: 200 });
    const outcome = await Promise.race([run, sleep(3000).then(() => 'the run was still waiting for the provider after 3 s')]);

    expect(outcome).toEqual({ sent: 0, held: 0, retrying: 1, failed: 0 });
    expect(calls).toBe(1);
    const row = await outboxRow(id!);
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row.lastError).toMatch(/did not answer within 0\.2 s/);
  });
});

describe('attempts are counted when an e-mail is claimed', () => {
  it(`marks an e-mail failed, without sending it, when a run died holding its ${MAX_EMAIL_ATTEMPTS}th attempt`, async () => {
    const [id] = await queue(1);
    // The fifth attempt's run was killed mid-call (a Worker's time ran out): the row stayed 'sending'.
    await env.DB.prepare(
      "update email_outbox set status = 'sending', attempts = ?, next_attempt_at = unixepoch() - 1 where id = ?",
    )
      .bind(MAX_EMAIL_ATTEMPTS, id!)
      .run();
    const requests: Request[] = [];
    const send: Fetcher = async (request) => {
      requests.push(request);
      return ok();
    };

    expect(await deliverPendingEmails(db, withProvider, send)).toEqual({ sent: 0, held: 0, retrying: 0, failed: 1 });
    expect(requests).toHaveLength(0);
    expect(await outboxRow(id!)).toMatchObject({ status: 'failed', attempts: MAX_EMAIL_ATTEMPTS, nextAttemptAt: null });

    // Left for a person: later runs leave it alone.
    await deliverPendingEmails(db, withProvider, send, { now: new Date(Date.now() + 86_400_000) });
    expect(requests).toHaveLength(0);
  });
});

describe('e-mails held while no provider was configured', () => {
  it('are sent once a provider is configured', async () => {
    const [id] = await queue(1);
    expect(await deliverPendingEmails(db, config, async () => ok())).toMatchObject({ held: 1 });
    expect(await outboxRow(id!)).toMatchObject({ status: 'held', attempts: 0 });

    const requests: Request[] = [];
    const send: Fetcher = async (request) => {
      requests.push(request);
      return ok();
    };
    expect(await deliverPendingEmails(db, withProvider, send)).toEqual({ sent: 1, held: 0, retrying: 0, failed: 0 });
    expect(requests.map((r) => r.url)).toEqual(['https://email.example/v1/send']);
    expect(await outboxRow(id!)).toMatchObject({ status: 'sent', attempts: 1 });
  });
});

describe('the outbox log', () => {
  async function placedOrder(name: string, email: string) {
    await setStock(PS5.id, 100);
    const request = placeOrderSchema.parse(orderRequest({ customer: { ...customer, name, email } }));
    return (await placeOrder(db, config, request)).order;
  }

  function captureLogs() {
    const lines: string[] = [];
    const capture = (...args: unknown[]) => void lines.push(args.map(String).join(' '));
    for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) vi.spyOn(console, level).mockImplementation(capture);
    return lines;
  }

  it('says which e-mail was held, by outbox id, order number and kind, without its recipient, name or text', async () => {
    const order = await placedOrder('Chiamaka Eze', 'chiamaka.private@example.com');
    const { id } = (await env.DB.prepare('select id from email_outbox where order_id = (select id from orders where number = ?)')
      .bind(order.number)
      .first<{ id: number }>())!;
    const lines = captureLogs();

    expect(await deliverPendingEmails(db, config)).toMatchObject({ held: 1 });
    expect(lines).toEqual([
      `email #${id} order ${order.number} order_confirmation: held (no EMAIL_API_URL; EMAIL_LOG_BODIES=true logs bodies locally)`,
    ]);
    const log = lines.join('\n');
    for (const personal of ['chiamaka', 'Chiamaka Eze', 'Hello', customer.address, 'transfer'])
      expect(log).not.toContain(personal);
  });

  it('logs bodies only where EMAIL_LOG_BODIES is switched on (local runs)', async () => {
    const order = await placedOrder('Chiamaka Eze', 'chiamaka.local@example.com');
    const lines = captureLogs();

    await deliverPendingEmails(db, { ...config, EMAIL_LOG_BODIES: true });
    const log = lines.join('\n');
    expect(log).toContain(`order ${order.number} order_confirmation: held`);
    expect(log).toContain('To: chiamaka.local@example.com');
    expect(log).toContain('Hello Chiamaka Eze,');
    expect(log).toContain(`Reference: ${order.number}`);
  });

  it('reports a provider failure with its status and HTTP code, not the provider’s text or the recipient', async () => {
    const [id] = await queue(1, 'leaky');
    const lines = captureLogs();
    const echoes: Fetcher = async (request) => new Response(`invalid recipient ${await recipientOf(request)}`, { status: 422 });

    await deliverPendingEmails(db, withProvider, echoes);
    expect(lines).toEqual([
      `email #${id} order - unknown: pending, attempt 1 of ${MAX_EMAIL_ATTEMPTS} failed (HTTP 422), next try in 60 s`,
    ]);
  });
});

describe('newsletter e-mails carry the unsubscribe headers mailbox providers read', () => {
  it('List-Unsubscribe points at the one-click API for that address, with List-Unsubscribe-Post; other e-mails have none', async () => {
    const subscriber = 'list-header@example.com';
    const [newsletter, order] = await Promise.all([
      env.DB.prepare(
        "insert into email_outbox (recipient, subject, text, html, kind) values (?, 'Confirm', 'Hello', '<p>Hello</p>', 'newsletter_confirm') returning id",
      )
        .bind(subscriber)
        .first<{ id: number }>(),
      env.DB.prepare(
        "insert into email_outbox (recipient, subject, text, html, kind) values ('buyer@example.com', 'Order', 'Hi', '<p>Hi</p>', 'order_confirmation') returning id",
      ).first<{ id: number }>(),
    ]);
    await env.DB.prepare('insert into newsletter_subscribers (email, confirmed_at) values (?, unixepoch())')
      .bind(subscriber)
      .run();
    const sent: Request[] = [];
    await deliverPendingEmails(db, withProvider, async (r) => {
      sent.push(r);
      return ok();
    });
    expect((await outboxRow(newsletter!.id)).status).toBe('sent');
    expect((await outboxRow(order!.id)).status).toBe('sent');

    const bodies = await Promise.all(sent.map((r) => r.clone().json<{ to: string[]; headers?: Record<string, string> }>()));
    const toOrder = bodies.find((b) => b.to[0] === 'buyer@example.com');
    expect(toOrder?.headers).toBeUndefined();
    const headers = bodies.find((b) => b.to[0] === subscriber)?.headers ?? {};
    expect(headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    const url = /^<(.+)>$/.exec(headers['List-Unsubscribe'] ?? '')?.[1] ?? '';
    expect(new URL(url).pathname).toBe('/api/newsletter/unsubscribe');

    // What a mailbox provider does with it: a cross-site form post of List-Unsubscribe=One-Click.
    const response = await exports.default.fetch(
      new Request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://mail.example' },
        body: 'List-Unsubscribe=One-Click',
      }),
    );
    expect(response.status).toBe(200);
    const left = await env.DB.prepare('select count(*) n from newsletter_subscribers where email = ?')
      .bind(subscriber)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
  });
});
