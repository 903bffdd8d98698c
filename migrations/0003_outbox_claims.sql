ALTER TABLE `email_outbox` ADD `claim_id` text;--> statement-breakpoint
ALTER TABLE `email_outbox` ADD `kind` text DEFAULT 'unknown' NOT NULL;