DROP INDEX `products_category_idx`;--> statement-breakpoint
CREATE INDEX `products_brand_idx` ON `products` (`active`,`brand`,`price_kobo`);--> statement-breakpoint
CREATE INDEX `products_price_idx` ON `products` (`active`,`price_kobo`);--> statement-breakpoint
CREATE INDEX `products_name_idx` ON `products` (`active`,"name" COLLATE NOCASE,`id`);--> statement-breakpoint
CREATE INDEX `products_rating_idx` ON `products` (`active`,`rating`,`reviews`);--> statement-breakpoint
CREATE INDEX `products_featured_idx` ON `products` (`brand`,`category`,`price_kobo`) WHERE "products"."active" = 1 AND "products"."featured" = 1;--> statement-breakpoint
CREATE INDEX `products_category_idx` ON `products` (`active`,`category`,`brand`,`price_kobo`);--> statement-breakpoint
-- Catalogue text search (docs/decisions/012-search-in-d1-with-fts5.md), written by hand:
-- drizzle-kit cannot express FTS5 virtual tables or triggers. An external-content FTS5 index
-- over the products on sale (active = 1), keyed by the products table's rowid; prefix indexes
-- for 2- and 3-letter prefixes ("ip", "iph") so prefix searches stay cheap.
CREATE VIRTUAL TABLE `products_fts` USING fts5(
	name, brand, description,
	content='products', content_rowid='rowid',
	tokenize='unicode61 remove_diacritics 2', prefix='2 3'
);
--> statement-breakpoint
-- Builds the index for an existing database: every product on sale; archived ones are left out.
INSERT INTO `products_fts` (rowid, name, brand, description)
	SELECT rowid, name, brand, description FROM `products` WHERE active = 1;
--> statement-breakpoint
-- Kept in step with products by triggers, so a product added, edited, archived or restored
-- later (by an admin, a re-seed, a test) is found exactly while it is on sale. An
-- external-content index must be told the old text to remove it: only rows it holds (active).
CREATE TRIGGER `products_fts_after_insert` AFTER INSERT ON `products` WHEN new.active = 1 BEGIN
	INSERT INTO `products_fts` (rowid, name, brand, description) VALUES (new.rowid, new.name, new.brand, new.description);
END;
--> statement-breakpoint
CREATE TRIGGER `products_fts_after_delete` AFTER DELETE ON `products` WHEN old.active = 1 BEGIN
	INSERT INTO `products_fts` (products_fts, rowid, name, brand, description) VALUES ('delete', old.rowid, old.name, old.brand, old.description);
END;
--> statement-breakpoint
CREATE TRIGGER `products_fts_after_update` AFTER UPDATE OF name, brand, description, active ON `products` BEGIN
	INSERT INTO `products_fts` (products_fts, rowid, name, brand, description)
		SELECT 'delete', old.rowid, old.name, old.brand, old.description WHERE old.active = 1;
	INSERT INTO `products_fts` (rowid, name, brand, description)
		SELECT new.rowid, new.name, new.brand, new.description WHERE new.active = 1;
END;
