-- What of what is owed back on a payment admins have settled (functions/platform/schema.ts,
-- settled_kobo): a payment owes stillOwed = owedBack - settled, so one whose excess was sent back
-- owes the rest once its order is cancelled. Before, "resolved" was all or nothing, and such a
-- payment was never listed again.
ALTER TABLE `provider_payments` ADD `settled_kobo` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The payments resolved before: settled at what they owe today (owedBack in SQL), so none of
-- them waits again after this migration.
UPDATE `provider_payments` SET `settled_kobo` = CASE
    WHEN `outcome` IN ('paid', 'part', 'late', 'extra')
      AND EXISTS (SELECT 1 FROM `orders` WHERE `orders`.`id` = `provider_payments`.`order_id` AND `orders`.`status` IN ('cancelled', 'expired'))
    THEN `amount_kobo` ELSE `refund_kobo` END
  WHERE `resolved_at` IS NOT NULL;
