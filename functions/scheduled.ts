import { openDb } from './db/client.ts';
import { deliverPendingEmails } from './email/outbox.ts';
import { readConfig } from './env.ts';
import { expireOverdueOrders } from './orders/orders.ts';

/**
 * The Worker's cron (wrangler.toml [triggers]): expires unpaid orders past their
 * hold time, releasing their stock, then delivers queued e-mails.
 */
export async function runScheduledJobs(controller: ScheduledController, env: Env): Promise<void> {
  const db = openDb(env.DB);
  const config = readConfig(env);
  const now = new Date(controller.scheduledTime);
  const expired = await expireOverdueOrders(db, config, now);
  const emails = await deliverPendingEmails(db, config);
  console.log(`Scheduled run ${controller.cron}: ${expired} orders expired; e-mails ${JSON.stringify(emails)}`);
}
