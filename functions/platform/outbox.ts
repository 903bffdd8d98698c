import { and, asc, eq, gte, isNull, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from './db.ts';
import { emailOutbox, orders } from './schema.ts';
import type { Config } from '../env.ts';
import type { EmailMessage } from './email.ts';
import { unsubscribeHeaders } from '../newsletter/messages.ts';

/**
 * The e-mail outbox: rows written in the batch of the change they report, delivered
 * afterwards by `deliverPendingEmails` (after an order's response and by the cron).
 *
 * Each e-mail is sent once: a run claims a row before posting it (status 'sending', its
 * own random claim id, and a deadline counted from that moment), the provider call is cut
 * off well before the deadline, and the outcome is recorded only while the row still
 * carries that claim id. A run that died leaves its claim to run out; the next run takes
 * the row over, or marks it failed if that was its last attempt.
 */

/** After this many attempts an e-mail is marked failed and left for a person to look at. */
export const MAX_EMAIL_ATTEMPTS = 5;

/** How long one provider call may take before it is abandoned (and the e-mail retried after a back-off). */
export const PROVIDER_TIMEOUT_MS = 20_000;

/**
 * How long a run holds an e-mail it claimed, counted from the claim: longer than a provider
 * call may take, so a claim never runs out while its call is in flight.
 */
const CLAIM_SECONDS = 120;

/** Waits after the 1st, 2nd, 3rd… failed attempt: a provider outage does not burn every attempt at once. */
const BACKOFF_SECONDS = [60, 300, 1800, 7200];

/** The insert that queues an e-mail; callers put it in the batch that makes the change it reports. */
export function queueEmail(db: Db, message: EmailMessage, orderId?: string) {
  return db.insert(emailOutbox).values({
    orderId,
    kind: message.kind,
    recipient: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
  });
}

/**
 * Queues an e-mail only if the status change `transitionId` won its compare-and-set
 * (see changeOrderStatus): written in the same batch, so it exists exactly when the change does.
 */
export function queueEmailIfTransition(db: Db, message: EmailMessage, orderId: string, transitionId: string) {
  return db.insert(emailOutbox).select(
    db
      .select(outboxRowFor(message, sql<string>`${orders.id}`.as('order_id')))
      .from(orders)
      .where(and(eq(orders.id, orderId), eq(orders.lastTransitionId, transitionId))),
  );
}

/**
 * The columns of a new outbox row for `message`, in table order, as the SELECT of an
 * INSERT … SELECT: the e-mail is queued only if the SELECT finds its row (the order whose
 * move won, the user an address belongs to), in the same batch as the change it reports.
 * A query builder, not raw SQL: drizzle's D1 batch cannot bind a raw db.run(sql`…`)
 * (drizzle-orm#2277).
 */
export function outboxRowFor(message: EmailMessage, orderId: SQL.Aliased<string> | null) {
  return {
    id: sql<number>`NULL`.as('id'),
    orderId: orderId ?? sql<string | null>`NULL`.as('order_id'),
    recipient: sql`${message.to}`.as('recipient'),
    subject: sql`${message.subject}`.as('subject'),
    text: sql`${message.text}`.as('text'),
    html: sql`${message.html}`.as('html'),
    status: sql`'pending'`.as('status'),
    attempts: sql`0`.as('attempts'),
    lastError: sql`NULL`.as('last_error'),
    createdAt: sql`(unixepoch())`.as('created_at'),
    sentAt: sql`NULL`.as('sent_at'),
    nextAttemptAt: sql`NULL`.as('next_attempt_at'),
    claimId: sql`NULL`.as('claim_id'),
    kind: sql`${message.kind}`.as('kind'),
  };
}

/** The HTTP boundary: production passes the global fetch; tests pass an offline stand-in. */
export type Fetcher = (input: Request) => Promise<Response>;

export interface DeliveryReport {
  sent: number;
  held: number;
  retrying: number;
  failed: number;
}

export interface DeliveryOptions {
  /** When the run starts; its clock then moves on in real time (tests start runs in the future). Default: now. */
  now?: Date;
  /** At most this many e-mails per run. */
  limit?: number;
  /** The time limit on each provider call; must be shorter than a claim. */
  timeoutMs?: number;
}

/** Queued and due at `at`: new or backed off long enough. */
const waiting = (at: Date) =>
  and(eq(emailOutbox.status, 'pending'), or(isNull(emailOutbox.nextAttemptAt), lte(emailOutbox.nextAttemptAt, at)));
/** Claimed by a run whose claim has run out (it died, or its Worker was stopped). */
const abandoned = (at: Date) => and(eq(emailOutbox.status, 'sending'), lte(emailOutbox.nextAttemptAt, at));
/** What a run with a provider takes: also the e-mails held while there was none. */
const sendable = (at: Date) => or(waiting(at), abandoned(at), eq(emailOutbox.status, 'held'));

/**
 * Sends queued e-mails through the configured HTTP e-mail API (Resend-compatible
 * JSON). With no provider configured the messages are kept in the outbox as 'held'
 * (and logged, see `logHeld`), which is what local runs do; a later run with a
 * provider sends them.
 */
export async function deliverPendingEmails(
  db: Db,
  config: Config,
  send: Fetcher = (r) => fetch(r),
  { now, limit = 20, timeoutMs = PROVIDER_TIMEOUT_MS }: DeliveryOptions = {},
): Promise<DeliveryReport> {
  if (!(timeoutMs > 0 && timeoutMs < CLAIM_SECONDS * 1000)) {
    throw new Error(`The provider time limit (${timeoutMs} ms) must be positive and shorter than a claim (${CLAIM_SECONDS} s)`);
  }
  // Every claim, deadline and back-off is taken from this clock when it happens, not from when the run started.
  const offset = now ? now.getTime() - Date.now() : 0;
  const clock = () => new Date(Date.now() + offset);
  const after = (seconds: number) => new Date(clock().getTime() + seconds * 1000);

  const report: DeliveryReport = { sent: 0, held: 0, retrying: 0, failed: 0 };
  const hasProvider = Boolean(config.EMAIL_API_URL);
  const queued = await db
    .select({ id: emailOutbox.id, kind: emailOutbox.kind, orderNumber: orders.number })
    .from(emailOutbox)
    .leftJoin(orders, eq(orders.id, emailOutbox.orderId))
    .where(hasProvider ? sendable(clock()) : or(waiting(clock()), abandoned(clock())))
    .orderBy(asc(emailOutbox.id))
    .limit(limit);

  for (const { id, kind, orderNumber } of queued) {
    const label = `email #${id} order ${orderNumber ?? '-'} ${kind}`;
    if (!hasProvider) {
      const at = clock();
      const [held] = await db
        .update(emailOutbox)
        .set({ status: 'held', claimId: null, nextAttemptAt: null })
        .where(and(eq(emailOutbox.id, id), or(waiting(at), abandoned(at))))
        .returning();
      if (held) {
        logHeld(label, held, config.EMAIL_LOG_BODIES);
        report.held++;
      }
      continue;
    }

    // Claim the row: its own claim id, and a deadline counted from now. Attempts are counted
    // here, so an e-mail whose last attempt's run died is not claimed again.
    const claimedAt = clock();
    const claimId = crypto.randomUUID();
    const [email] = await db
      .update(emailOutbox)
      .set({
        status: 'sending',
        attempts: sql`${emailOutbox.attempts} + 1`,
        claimId,
        nextAttemptAt: new Date(claimedAt.getTime() + CLAIM_SECONDS * 1000),
      })
      .where(and(eq(emailOutbox.id, id), lt(emailOutbox.attempts, MAX_EMAIL_ATTEMPTS), sendable(claimedAt)))
      .returning();
    if (!email) {
      const [gaveUp] = await db
        .update(emailOutbox)
        .set({
          status: 'failed',
          claimId: null,
          nextAttemptAt: null,
          lastError: 'The delivery run of the last attempt did not finish',
        })
        .where(and(eq(emailOutbox.id, id), gte(emailOutbox.attempts, MAX_EMAIL_ATTEMPTS), sendable(claimedAt)))
        .returning({ attempts: emailOutbox.attempts });
      if (gaveUp) {
        console.error(
          `${label}: failed, attempt ${gaveUp.attempts} of ${MAX_EMAIL_ATTEMPTS} never finished (its delivery run stopped); left for a person`,
        );
        report.failed++;
      }
      // Otherwise another run claimed it first.
      continue;
    }

    const outcome = await postEmail(config, email, send, timeoutMs);
    // Only while the claim is still ours: a run that lost it (it ran out and another run took the row) records nothing.
    const stillClaimed = and(eq(emailOutbox.id, id), eq(emailOutbox.claimId, claimId), eq(emailOutbox.status, 'sending'));
    const attempt = `attempt ${email.attempts} of ${MAX_EMAIL_ATTEMPTS}`;
    let recorded: { id: number }[];
    if (outcome.ok) {
      recorded = await db
        .update(emailOutbox)
        .set({ status: 'sent', sentAt: clock(), lastError: null, nextAttemptAt: null, claimId: null })
        .where(stillClaimed)
        .returning({ id: emailOutbox.id });
      if (recorded.length) report.sent++;
    } else if (email.attempts >= MAX_EMAIL_ATTEMPTS) {
      recorded = await db
        .update(emailOutbox)
        .set({ status: 'failed', lastError: outcome.error.slice(0, 500), nextAttemptAt: null, claimId: null })
        .where(stillClaimed)
        .returning({ id: emailOutbox.id });
      if (recorded.length) {
        console.error(`${label}: failed, ${attempt} failed (${outcome.reason}); left for a person`);
        report.failed++;
      }
    } else {
      const wait = BACKOFF_SECONDS[Math.min(email.attempts, BACKOFF_SECONDS.length) - 1]!;
      recorded = await db
        .update(emailOutbox)
        .set({ status: 'pending', lastError: outcome.error.slice(0, 500), nextAttemptAt: after(wait), claimId: null })
        .where(stillClaimed)
        .returning({ id: emailOutbox.id });
      if (recorded.length) {
        console.warn(`${label}: pending, ${attempt} failed (${outcome.reason}), next try in ${wait} s`);
        report.retrying++;
      }
    }
    if (!recorded.length) {
      console.error(
        `${label}: claim lost before the provider answered (${outcome.ok ? 'sent' : outcome.reason}); not recorded by this run`,
      );
    }
  }
  return report;
}

/**
 * The log line for an e-mail kept in the outbox: ids, kind and status only. With
 * EMAIL_LOG_BODIES=true (local development) the recipient, subject and text follow,
 * so links in e-mails can be followed from the `npm start` log.
 */
function logHeld(label: string, email: { recipient: string; subject: string; text: string }, logBodies: boolean) {
  if (!logBodies) {
    console.log(`${label}: held (no EMAIL_API_URL; EMAIL_LOG_BODIES=true logs bodies locally)`);
    return;
  }
  console.log(
    `${label}: held (no EMAIL_API_URL; logged in full because EMAIL_LOG_BODIES=true)\nTo: ${email.recipient}\nSubject: ${email.subject}\n\n${email.text}`,
  );
}

type Outcome =
  | { ok: true }
  /** `error` is kept on the row (it may quote the provider); `reason` is safe for the log (no provider text). */
  | { ok: false; error: string; reason: string };

async function postEmail(
  config: Config,
  email: { recipient: string; subject: string; text: string; html: string; kind: string },
  send: Fetcher,
  timeoutMs: number,
): Promise<Outcome> {
  const abort = new AbortController();
  const extraHeaders = email.kind.startsWith('newsletter_') ? await unsubscribeHeaders(config, email.recipient) : undefined;
  const request = new Request(config.EMAIL_API_URL!, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(config.EMAIL_API_KEY ? { authorization: `Bearer ${config.EMAIL_API_KEY}` } : {}),
    },
    body: JSON.stringify({
      from: config.EMAIL_FROM,
      to: [email.recipient],
      subject: email.subject,
      text: email.text,
      html: email.html,
      ...(extraHeaders ? { headers: extraHeaders } : {}),
    }),
    signal: abort.signal,
  });
  const call = async (): Promise<Outcome> => {
    const response = await send(request);
    if (response.ok) return { ok: true };
    return {
      ok: false,
      error: `HTTP ${response.status}: ${(await response.text()).slice(0, 300)}`,
      reason: `HTTP ${response.status}`,
    };
  };
  // A race as well as the abort signal: a provider (or stand-in) that ignores the signal is still cut off.
  let timer: ReturnType<typeof setTimeout> | null = null;
  const timedOut = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => {
      abort.abort();
      resolve({ ok: false, error: `The e-mail provider did not answer within ${timeoutMs / 1000} s`, reason: 'timeout' });
    }, timeoutMs);
  });
  const calling = call();
  calling.catch(() => {}); // once the time limit has answered, a late failure has nothing to report to
  try {
    return await Promise.race([calling, timedOut]);
  } catch (err) {
    const name = err instanceof Error ? err.name : 'Error';
    return { ok: false, error: err instanceof Error ? err.message : String(err), reason: `network error: ${name}` };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Sends what the request queued once its answer has gone (`waitUntil`), without making the
 * caller wait; the cron sends anything left. One for every route that queues an e-mail.
 */
export function deliverEmailsLater(c: {
  executionCtx: { waitUntil(promise: Promise<unknown>): void };
  var: { db: Db; config: Config };
}): void {
  c.executionCtx.waitUntil(
    deliverPendingEmails(c.var.db, c.var.config).catch((err: unknown) => console.error('E-mail delivery failed', err)),
  );
}
