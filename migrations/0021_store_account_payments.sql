-- A transfer into the store's shared account, confirmed by an admin, is recorded as the order's
-- payment row (`store_account`, via `admin`: functions/orders/admin-moves.ts), so what is owed back
-- on it (the excess, or all of it once the order is cancelled) is listed in the admin's payments.
-- The orders confirmed before this migration get theirs: each admin-confirmed order without an
-- account of its own, with what the admin recorded (the shared account's number is the Worker's
-- setting, not in D1: left empty here), counted into its amount paid.
INSERT INTO `provider_payments` (`id`, `provider`, `event_id`, `order_id`, `account_number`, `reference`, `amount_kobo`, `paid_at`, `via`, `outcome`, `refund_kobo`)
  SELECT lower(hex(randomblob(16))), 'store_account', 'confirmed:' || `id`, `id`, NULL, `payment_reference`, `payment_received_kobo`,
    `payment_confirmed_at`, 'admin', 'paid', max(`payment_received_kobo` - `total_kobo`, 0)
  FROM `orders`
  WHERE `payment_confirmed_by` IS NOT NULL AND `payment_received_kobo` IS NOT NULL AND `payment_confirmed_at` IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM `payment_accounts` WHERE `payment_accounts`.`order_id` = `orders`.`id`)
    AND NOT EXISTS (SELECT 1 FROM `provider_payments` WHERE `provider_payments`.`order_id` = `orders`.`id`);--> statement-breakpoint
-- An order's amount paid is the sum of its payment rows (functions/payments/apply.ts adds each one
-- it matches): recomputed for the orders with a `store_account` row, so running it twice counts once.
UPDATE `orders` SET `amount_paid_kobo` = (SELECT sum(`amount_kobo`) FROM `provider_payments` WHERE `provider_payments`.`order_id` = `orders`.`id`)
  WHERE EXISTS (SELECT 1 FROM `provider_payments` WHERE `provider_payments`.`order_id` = `orders`.`id`
    AND `provider_payments`.`provider` = 'store_account');
