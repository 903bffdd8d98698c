CREATE TABLE `catalogue_synced` (
	`product_id` text NOT NULL,
	`variant_id` text DEFAULT '' NOT NULL,
	`field` text NOT NULL,
	`value` text NOT NULL,
	`synced_at` integer DEFAULT (unixepoch()) NOT NULL,
	PRIMARY KEY(`product_id`, `variant_id`, `field`)
);
