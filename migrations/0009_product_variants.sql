CREATE TABLE `product_variants` (
	`product_id` text NOT NULL,
	`id` text NOT NULL,
	`label` text NOT NULL,
	`price_kobo` integer NOT NULL,
	`stock` integer DEFAULT 0 NOT NULL,
	`image` text,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	PRIMARY KEY(`product_id`, `id`),
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "product_variants_price_positive" CHECK("product_variants"."price_kobo" > 0),
	CONSTRAINT "product_variants_stock_not_negative" CHECK("product_variants"."stock" >= 0)
);
--> statement-breakpoint
ALTER TABLE `order_lines` ADD `variant_id` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `products` ADD `variant_label` text DEFAULT '' NOT NULL;--> statement-breakpoint
-- Written by hand from here (drizzle-kit cannot move data or write triggers).
-- Variants were labels in products.variants (a JSON list) sharing the product's price and
-- stock. Each label becomes a variant at the product's price; the product's stock is shared
-- out between its variants (the remainder to the first ones), so no unit is invented or lost.
-- The id is made from the label as variantIdFromLabel() does for the catalogue's labels.
INSERT INTO `product_variants` (`product_id`, `id`, `label`, `price_kobo`, `stock`, `position`)
	SELECT p.id, lower(replace(replace(replace(replace(replace(replace(v.value, ' + ', '-'), ' / ', '-'), '/', '-'), '|', '-'), ' ', '-'), '--', '-')), v.value, p.price_kobo,
		p.stock / json_array_length(p.variants) + (CASE WHEN v.key < p.stock % json_array_length(p.variants) THEN 1 ELSE 0 END),
		v.key
	FROM `products` p, json_each(p.variants) v;
--> statement-breakpoint
UPDATE `products` SET `variant_label` = 'Option' WHERE json_array_length(`variants`) > 0;
--> statement-breakpoint
-- Order lines name their variant by id from now on; existing lines keep their label as it was.
UPDATE `order_lines` SET `variant_id` = lower(replace(replace(replace(replace(replace(replace(variant, ' + ', '-'), ' / ', '-'), '/', '-'), '|', '-'), ' ', '-'), '--', '-')) WHERE `variant` <> '';
--> statement-breakpoint
ALTER TABLE `products` DROP COLUMN `variants`;
--> statement-breakpoint
-- A product with variants sells at their lowest price ("from ₦…") and holds their total stock:
-- kept here, by the database, so the listing's filters, sorts and counts read products alone
-- and no writer (checkout, cancel, an admin's edit, a test) can leave them out of step.
CREATE TRIGGER `product_variants_after_insert` AFTER INSERT ON `product_variants` BEGIN
	UPDATE `products` SET
		`price_kobo` = (SELECT min(`price_kobo`) FROM `product_variants` WHERE `product_id` = new.product_id),
		`stock` = (SELECT sum(`stock`) FROM `product_variants` WHERE `product_id` = new.product_id),
		`updated_at` = unixepoch()
	WHERE `id` = new.product_id;
END;
--> statement-breakpoint
CREATE TRIGGER `product_variants_after_update` AFTER UPDATE OF `price_kobo`, `stock`, `product_id` ON `product_variants` BEGIN
	UPDATE `products` SET
		`price_kobo` = (SELECT min(`price_kobo`) FROM `product_variants` WHERE `product_id` = new.product_id),
		`stock` = (SELECT sum(`stock`) FROM `product_variants` WHERE `product_id` = new.product_id),
		`updated_at` = unixepoch()
	WHERE `id` = new.product_id;
END;
--> statement-breakpoint
-- Removing a product's last variant leaves its price, and its stock at 0: nothing is on sale
-- until an admin gives it a price and stock of its own.
CREATE TRIGGER `product_variants_after_delete` AFTER DELETE ON `product_variants` BEGIN
	UPDATE `products` SET
		`price_kobo` = coalesce((SELECT min(`price_kobo`) FROM `product_variants` WHERE `product_id` = old.product_id), `price_kobo`),
		`stock` = coalesce((SELECT sum(`stock`) FROM `product_variants` WHERE `product_id` = old.product_id), 0),
		`updated_at` = unixepoch()
	WHERE `id` = old.product_id;
END;
