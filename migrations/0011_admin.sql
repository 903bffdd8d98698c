CREATE TABLE `admin_audit` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`entity` text NOT NULL,
	`entity_id` text NOT NULL,
	`action` text NOT NULL,
	`actor_user_id` text NOT NULL,
	`actor_email` text NOT NULL,
	`changes` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `admin_audit_entity_idx` ON `admin_audit` (`entity`,`entity_id`,`id`);--> statement-breakpoint
ALTER TABLE `order_events` ADD `actor_user_id` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `payment_received_kobo` integer;--> statement-breakpoint
ALTER TABLE `orders` ADD `payment_reference` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `payment_confirmed_by` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `payment_confirmed_at` integer;--> statement-breakpoint
ALTER TABLE `orders` ADD `carrier` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `tracking_note` text;