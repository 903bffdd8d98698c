CREATE TABLE `trade_in_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`trade_in_id` text NOT NULL,
	`from_status` text,
	`to_status` text NOT NULL,
	`actor` text NOT NULL,
	`actor_user_id` text,
	`note` text,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`trade_in_id`) REFERENCES `trade_ins`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `trade_in_events_trade_in_idx` ON `trade_in_events` (`trade_in_id`);--> statement-breakpoint
CREATE TABLE `trade_in_photos` (
	`trade_in_id` text NOT NULL,
	`position` integer NOT NULL,
	`key` text NOT NULL,
	`content_type` text NOT NULL,
	`bytes` integer NOT NULL,
	PRIMARY KEY(`trade_in_id`, `position`),
	FOREIGN KEY (`trade_in_id`) REFERENCES `trade_ins`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `trade_in_photos_key_idx` ON `trade_in_photos` (`key`);--> statement-breakpoint
CREATE TABLE `trade_ins` (
	`id` text PRIMARY KEY NOT NULL,
	`reference` text NOT NULL,
	`status` text DEFAULT 'new' NOT NULL,
	`user_id` text,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`phone` text NOT NULL,
	`state` text NOT NULL,
	`category` text NOT NULL,
	`brand` text NOT NULL,
	`model` text NOT NULL,
	`storage` text DEFAULT '' NOT NULL,
	`turns_on` integer NOT NULL,
	`screen_cracked` integer NOT NULL,
	`body_dents` integer NOT NULL,
	`battery_health` text NOT NULL,
	`account_removed` integer NOT NULL,
	`original_box` integer NOT NULL,
	`notes` text DEFAULT '' NOT NULL,
	`want_kind` text NOT NULL,
	`swap_product_id` text,
	`swap_variant_id` text DEFAULT '' NOT NULL,
	`swap_name` text,
	`swap_variant_label` text DEFAULT '' NOT NULL,
	`offer_kobo` integer,
	`offer_note` text,
	`offered_at` integer,
	`order_id` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "trade_ins_version_positive" CHECK("trade_ins"."version" > 0),
	CONSTRAINT "trade_ins_offer_positive" CHECK("trade_ins"."offer_kobo" IS NULL OR "trade_ins"."offer_kobo" > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `trade_ins_reference_unique` ON `trade_ins` (`reference`);--> statement-breakpoint
CREATE INDEX `trade_ins_created_idx` ON `trade_ins` (`created_at`);--> statement-breakpoint
CREATE INDEX `trade_ins_status_created_idx` ON `trade_ins` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `trade_ins_email_idx` ON `trade_ins` (`email`);--> statement-breakpoint
CREATE INDEX `trade_ins_user_idx` ON `trade_ins` (`user_id`);--> statement-breakpoint
-- Rebuilding orders (its CHECK now counts the credit) while order_lines, order_events, email_outbox
-- and trade_ins refer to it: D1 runs a migration in a transaction, where foreign_keys cannot be
-- turned off, so the checks wait for the end of it, when orders exists again with every row.
PRAGMA defer_foreign_keys = on;--> statement-breakpoint
CREATE TABLE `__new_orders` (
	`id` text PRIMARY KEY NOT NULL,
	`number` text NOT NULL,
	`status` text DEFAULT 'awaiting_payment' NOT NULL,
	`customer_name` text NOT NULL,
	`email` text NOT NULL,
	`phone` text NOT NULL,
	`delivery_method` text DEFAULT 'delivery' NOT NULL,
	`address` text NOT NULL,
	`city` text NOT NULL,
	`state` text NOT NULL,
	`subtotal_kobo` integer NOT NULL,
	`shipping_kobo` integer NOT NULL,
	`total_kobo` integer NOT NULL,
	`idempotency_key_hash` text NOT NULL,
	`request_hash` text NOT NULL,
	`access_token_hash` text NOT NULL,
	`user_id` text,
	`expires_at` integer NOT NULL,
	`last_transition_id` text,
	`payment_received_kobo` integer,
	`payment_reference` text,
	`payment_confirmed_by` text,
	`payment_confirmed_at` integer,
	`carrier` text,
	`tracking_note` text,
	`trade_in_reference` text,
	`credit_kobo` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	CONSTRAINT "orders_total_is_sum" CHECK("__new_orders"."total_kobo" = "__new_orders"."subtotal_kobo" + "__new_orders"."shipping_kobo" - "__new_orders"."credit_kobo"),
	CONSTRAINT "orders_credit_not_negative" CHECK("__new_orders"."credit_kobo" >= 0)
);
--> statement-breakpoint
INSERT INTO `__new_orders`("id", "number", "status", "customer_name", "email", "phone", "delivery_method", "address", "city", "state", "subtotal_kobo", "shipping_kobo", "total_kobo", "idempotency_key_hash", "request_hash", "access_token_hash", "user_id", "expires_at", "last_transition_id", "payment_received_kobo", "payment_reference", "payment_confirmed_by", "payment_confirmed_at", "carrier", "tracking_note", "trade_in_reference", "credit_kobo", "created_at", "updated_at") SELECT "id", "number", "status", "customer_name", "email", "phone", "delivery_method", "address", "city", "state", "subtotal_kobo", "shipping_kobo", "total_kobo", "idempotency_key_hash", "request_hash", "access_token_hash", "user_id", "expires_at", "last_transition_id", "payment_received_kobo", "payment_reference", "payment_confirmed_by", "payment_confirmed_at", "carrier", "tracking_note", NULL, 0, "created_at", "updated_at" FROM `orders`;--> statement-breakpoint
DROP TABLE `orders`;--> statement-breakpoint
ALTER TABLE `__new_orders` RENAME TO `orders`;--> statement-breakpoint
PRAGMA defer_foreign_keys = off;--> statement-breakpoint
CREATE UNIQUE INDEX `orders_number_unique` ON `orders` (`number`);--> statement-breakpoint
CREATE UNIQUE INDEX `orders_idempotency_key_hash_unique` ON `orders` (`idempotency_key_hash`);--> statement-breakpoint
CREATE INDEX `orders_status_expires_idx` ON `orders` (`status`,`expires_at`);--> statement-breakpoint
CREATE INDEX `orders_email_idx` ON `orders` (`email`);--> statement-breakpoint
CREATE INDEX `orders_user_idx` ON `orders` (`user_id`);--> statement-breakpoint
CREATE INDEX `orders_created_idx` ON `orders` (`created_at`);--> statement-breakpoint
CREATE INDEX `orders_status_created_idx` ON `orders` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `orders_trade_in_idx` ON `orders` (`trade_in_reference`);