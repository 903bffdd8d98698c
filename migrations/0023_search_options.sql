ALTER TABLE `products` ADD `options` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `provider_payments` ADD `resolve_claim` text;--> statement-breakpoint
-- Variant labels in the catalogue search (docs/decisions/022-search-that-understands.md, amended
-- 2026-11-29), written by hand: drizzle-kit cannot express triggers or FTS5 tables.
-- products.options holds a product's variants' labels, kept by these triggers whoever writes the
-- variants (the seed, the admin form, a test), as the variants' price and stock triggers keep theirs.
UPDATE `products` SET `options` = coalesce((SELECT group_concat(`label`, ' ') FROM `product_variants` WHERE `product_id` = `products`.`id`), '');
--> statement-breakpoint
CREATE TRIGGER `product_variants_options_after_insert` AFTER INSERT ON `product_variants` BEGIN
	UPDATE `products` SET `options` = coalesce((SELECT group_concat(`label`, ' ') FROM `product_variants` WHERE `product_id` = new.product_id), '')
	WHERE `id` = new.product_id;
END;
--> statement-breakpoint
CREATE TRIGGER `product_variants_options_after_update` AFTER UPDATE OF `label`, `product_id` ON `product_variants` BEGIN
	UPDATE `products` SET `options` = coalesce((SELECT group_concat(`label`, ' ') FROM `product_variants` WHERE `product_id` = `products`.`id`), '')
	WHERE `id` IN (old.product_id, new.product_id);
END;
--> statement-breakpoint
CREATE TRIGGER `product_variants_options_after_delete` AFTER DELETE ON `product_variants` BEGIN
	UPDATE `products` SET `options` = coalesce((SELECT group_concat(`label`, ' ') FROM `product_variants` WHERE `product_id` = old.product_id), '')
	WHERE `id` = old.product_id;
END;
--> statement-breakpoint
-- The index again, with the options as a fourth column (an FTS5 table's columns cannot change):
-- its vocabulary and triggers go with it and come back the same, the options added.
DROP TABLE `products_fts_vocab`;
--> statement-breakpoint
DROP TRIGGER `products_fts_after_insert`;
--> statement-breakpoint
DROP TRIGGER `products_fts_after_delete`;
--> statement-breakpoint
DROP TRIGGER `products_fts_after_update`;
--> statement-breakpoint
DROP TABLE `products_fts`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `products_fts` USING fts5(
	name, brand, description, options,
	content='products', content_rowid='rowid',
	tokenize='unicode61 remove_diacritics 2', prefix='2 3'
);
--> statement-breakpoint
INSERT INTO `products_fts` (rowid, name, brand, description, options)
	SELECT rowid, name, brand, description, options FROM `products` WHERE active = 1;
--> statement-breakpoint
CREATE TRIGGER `products_fts_after_insert` AFTER INSERT ON `products` WHEN new.active = 1 BEGIN
	INSERT INTO `products_fts` (rowid, name, brand, description, options) VALUES (new.rowid, new.name, new.brand, new.description, new.options);
END;
--> statement-breakpoint
CREATE TRIGGER `products_fts_after_delete` AFTER DELETE ON `products` WHEN old.active = 1 BEGIN
	INSERT INTO `products_fts` (products_fts, rowid, name, brand, description, options) VALUES ('delete', old.rowid, old.name, old.brand, old.description, old.options);
END;
--> statement-breakpoint
CREATE TRIGGER `products_fts_after_update` AFTER UPDATE OF name, brand, description, options, active ON `products` BEGIN
	INSERT INTO `products_fts` (products_fts, rowid, name, brand, description, options)
		SELECT 'delete', old.rowid, old.name, old.brand, old.description, old.options WHERE old.active = 1;
	INSERT INTO `products_fts` (rowid, name, brand, description, options)
		SELECT new.rowid, new.name, new.brand, new.description, new.options WHERE new.active = 1;
END;
--> statement-breakpoint
CREATE VIRTUAL TABLE `products_fts_vocab` USING fts5vocab(`products_fts`, 'col');
