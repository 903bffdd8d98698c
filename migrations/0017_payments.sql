-- Transfers that confirm themselves (docs/decisions/023-payments-confirm-themselves.md): the account a
-- payment provider opens for an order, every payment it reports (once: provider + event id), and
-- what the provider says arrived for each order. Written by drizzle-kit from functions/platform/schema.ts.
CREATE TABLE `payment_accounts` (
	`order_id` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`bank_name` text NOT NULL,
	`account_name` text NOT NULL,
	`account_number` text NOT NULL,
	`reference` text NOT NULL,
	`expires_at` integer,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_accounts_number_idx` ON `payment_accounts` (`provider`,`account_number`);--> statement-breakpoint
CREATE INDEX `payment_accounts_reference_idx` ON `payment_accounts` (`provider`,`reference`);--> statement-breakpoint
CREATE TABLE `provider_payments` (
	`id` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`event_id` text NOT NULL,
	`order_id` text,
	`account_number` text,
	`reference` text,
	`amount_kobo` integer NOT NULL,
	`paid_at` integer NOT NULL,
	`via` text NOT NULL,
	`outcome` text NOT NULL,
	`refund_kobo` integer DEFAULT 0 NOT NULL,
	`resolved_at` integer,
	`resolved_by` text,
	`resolution` text,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `provider_payments_event_idx` ON `provider_payments` (`provider`,`event_id`);--> statement-breakpoint
CREATE INDEX `provider_payments_order_idx` ON `provider_payments` (`order_id`);--> statement-breakpoint
CREATE INDEX `provider_payments_waiting_idx` ON `provider_payments` (`resolved_at`,`created_at`);--> statement-breakpoint
ALTER TABLE `orders` ADD `amount_paid_kobo` integer DEFAULT 0 NOT NULL;