-- Paystack hands a closed temporary transfer account to a later charge: one account number can
-- name several orders over time (functions/payments/apply.ts matchOrder picks the right one).
DROP INDEX `payment_accounts_number_idx`;--> statement-breakpoint
CREATE INDEX `payment_accounts_number_idx` ON `payment_accounts` (`provider`,`account_number`);