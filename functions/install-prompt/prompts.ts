import { eq, sql } from 'drizzle-orm';
import type { Db } from '../platform/db.ts';
import { installPromptDismissals } from '../platform/schema.ts';

/** Whether a device should be offered the install banner: yes until it dismissed (or used) the offer once. */
export async function shouldShowPrompt(db: Db, deviceId: string): Promise<boolean> {
  const [dismissed] = await db
    .select({ deviceId: installPromptDismissals.deviceId })
    .from(installPromptDismissals)
    .where(eq(installPromptDismissals.deviceId, deviceId))
    .limit(1);
  return !dismissed;
}

/** Records that a device dismissed (or used) the offer; a repeat counts up instead of adding a row. */
export async function recordDismissal(db: Db, deviceId: string): Promise<void> {
  await db
    .insert(installPromptDismissals)
    .values({ deviceId })
    .onConflictDoUpdate({
      target: installPromptDismissals.deviceId,
      set: { dismissals: sql`${installPromptDismissals.dismissals} + 1` },
    });
}
