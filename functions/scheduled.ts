import { pruneExpiredSessions } from './accounts/session.ts';
import { openDb } from './platform/db.ts';
import { deliverPendingEmails } from './platform/outbox.ts';
import { readConfig } from './env.ts';
import { pruneRateLimits } from './platform/rate-limit.ts';
import { expireOverdueOrders } from './orders/expire.ts';
import { prunePendingSubscribers } from './newsletter/subscriptions.ts';
import { sweepOrphanPhotos } from './trade-ins/photos.ts';
import { reconcilePayments } from './payments/reconcile.ts';
import { logJob } from './platform/request-log.ts';

/**
 * The Worker's cron (wrangler.toml [triggers]): applies payments the provider received whose
 * webhook never arrived (functions/payments/reconcile.ts), expires orders past their hold time
 * (unpaid, or a reported transfer nobody confirmed), releasing their stock, delivers
 * queued e-mails, deletes rate-limit counters of windows long over and trade-in photos no
 * request names (left by a submission that stopped between its upload and its row).
 */
export async function runScheduledJobs(controller: ScheduledController, env: Env): Promise<void> {
  const db = openDb(env.DB);
  const config = readConfig(env);
  const now = new Date(controller.scheduledTime);
  // Payments the provider received whose webhook never came pay their orders before any expires.
  const reconciled = await reconcilePayments(db, config, now);
  const expired = await expireOverdueOrders(db, config, now);
  const emails = await deliverPendingEmails(db, config);
  const pruned = await pruneRateLimits(db, now);
  const swept = await sweepOrphanPhotos(db, env.IMAGES, now);
  await prunePendingSubscribers(db, now);
  await pruneExpiredSessions(db, now);
  logJob('scheduled', {
    cron: controller.cron,
    paymentsReconciled: reconciled.applied,
    paymentsListed: reconciled.listed,
    ...(reconciled.failed ? { providerUnreachable: true } : {}),
    ordersExpired: expired,
    emails,
    rateLimitCountersPruned: pruned,
    orphanPhotosDeleted: swept,
  });
}
