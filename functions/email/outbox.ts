import { and, asc, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { emailOutbox, orders } from '../db/schema.ts';
import type { Config } from '../env.ts';
import type { EmailMessage } from './messages.ts';

/** After this many failed attempts an e-mail is marked failed and left for a person to look at. */
export const MAX_EMAIL_ATTEMPTS = 5;

/** The insert that queues an e-mail; callers put it in the batch that makes the change it reports. */
export function queueEmail(db: Db, message: EmailMessage, orderId?: string) {
  return db.insert(emailOutbox).values({ orderId, recipient: message.to, subject: message.subject, text: message.text, html: message.html });
}

/**
 * Queues an e-mail only if the status change `transitionId` won its compare-and-set
 * (see changeOrderStatus): written in the same batch, so it exists exactly when the change does.
 */
export function queueEmailIfTransition(db: Db, message: EmailMessage, orderId: string, transitionId: string) {
  // An INSERT … SELECT from the order's row, as a query builder (a raw db.run(sql`…`) with
  // parameters fails inside drizzle's D1 batch: drizzle-orm#2277). Every column, in table order.
  return db.insert(emailOutbox).select(
    db
      .select({
        id: sql<number>`NULL`.as('id'),
        orderId: orders.id,
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
      })
      .from(orders)
      .where(and(eq(orders.id, orderId), eq(orders.lastTransitionId, transitionId))),
  );
}

/** The HTTP boundary: production passes the global fetch; tests pass an offline stand-in. */
export type Fetcher = (input: Request) => Promise<Response>;

export interface DeliveryReport {
  sent: number;
  held: number;
  retrying: number;
  failed: number;
}

/** How long one delivery run holds a claimed e-mail; a run that died is retried after it. */
const CLAIM_SECONDS = 300;
/** Waits after the 1st, 2nd, 3rd… failed attempt: a provider outage does not burn every attempt at once. */
const BACKOFF_SECONDS = [60, 300, 1800, 7200];

const due = (now: Date) =>
  or(
    and(eq(emailOutbox.status, 'pending'), or(isNull(emailOutbox.nextAttemptAt), lte(emailOutbox.nextAttemptAt, now))),
    and(eq(emailOutbox.status, 'sending'), lte(emailOutbox.nextAttemptAt, now)),
  );

/**
 * Sends queued e-mails through the configured HTTP e-mail API (Resend-compatible
 * JSON). With no provider configured the messages are logged and kept in the
 * outbox as 'held', which is what local runs do.
 */
export async function deliverPendingEmails(
  db: Db,
  config: Config,
  send: Fetcher = (r) => fetch(r),
  { now = new Date(), limit = 20 }: { now?: Date; limit?: number } = {},
): Promise<DeliveryReport> {
  const report: DeliveryReport = { sent: 0, held: 0, retrying: 0, failed: 0 };
  const queued = await db.select().from(emailOutbox).where(due(now)).orderBy(asc(emailOutbox.id)).limit(limit);
  const later = (seconds: number) => new Date(now.getTime() + seconds * 1000);

  for (const email of queued) {
    if (!config.EMAIL_API_URL) {
      const held = await db
        .update(emailOutbox)
        .set({ status: 'held' })
        .where(and(eq(emailOutbox.id, email.id), eq(emailOutbox.status, 'pending')))
        .returning({ id: emailOutbox.id });
      if (held.length) {
        console.log(`E-mail kept in the outbox (no EMAIL_API_URL): #${email.id} to ${email.recipient}: ${email.subject}\n${email.text}`);
        report.held++;
      }
      continue;
    }
    // Claim the row (status 'sending' until a deadline), so two runs at once never send it twice.
    const claimed = await db
      .update(emailOutbox)
      .set({ status: 'sending', attempts: email.attempts + 1, nextAttemptAt: later(CLAIM_SECONDS) })
      .where(and(eq(emailOutbox.id, email.id), eq(emailOutbox.attempts, email.attempts), due(now)))
      .returning({ id: emailOutbox.id });
    if (!claimed.length) continue;

    const error = await postEmail(config, email, send);
    const attempts = email.attempts + 1;
    if (!error) {
      await db
        .update(emailOutbox)
        .set({ status: 'sent', sentAt: now, lastError: null, nextAttemptAt: null })
        .where(eq(emailOutbox.id, email.id));
      report.sent++;
    } else if (attempts >= MAX_EMAIL_ATTEMPTS) {
      await db.update(emailOutbox).set({ status: 'failed', lastError: error.slice(0, 500), nextAttemptAt: null }).where(eq(emailOutbox.id, email.id));
      report.failed++;
    } else {
      const wait = BACKOFF_SECONDS[Math.min(attempts, BACKOFF_SECONDS.length) - 1]!;
      await db
        .update(emailOutbox)
        .set({ status: 'pending', lastError: error.slice(0, 500), nextAttemptAt: later(wait) })
        .where(eq(emailOutbox.id, email.id));
      report.retrying++;
    }
  }
  return report;
}

async function postEmail(
  config: Config,
  email: { recipient: string; subject: string; text: string; html: string },
  send: Fetcher,
): Promise<string | undefined> {
  const request = new Request(config.EMAIL_API_URL!, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(config.EMAIL_API_KEY ? { authorization: `Bearer ${config.EMAIL_API_KEY}` } : {}),
    },
    body: JSON.stringify({ from: config.EMAIL_FROM, to: [email.recipient], subject: email.subject, text: email.text, html: email.html }),
  });
  try {
    const response = await send(request);
    if (response.ok) return undefined;
    return `HTTP ${response.status}: ${(await response.text()).slice(0, 300)}`;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}
