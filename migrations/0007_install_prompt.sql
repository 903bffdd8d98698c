CREATE TABLE `install_prompt_dismissals` (
	`device_id` text PRIMARY KEY NOT NULL,
	`dismissals` integer DEFAULT 1 NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL
);
