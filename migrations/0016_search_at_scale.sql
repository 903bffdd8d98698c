-- Search and listing at scale (docs/decisions/022-search-that-understands.md). The table and the
-- plain indexes come from drizzle-kit; the relevance index (drizzle-kit splits its expressions at
-- the commas), the triggers and the backfill are written by hand.
CREATE TABLE `product_facets` (
	`in_price_range` integer NOT NULL,
	`category` text NOT NULL,
	`brand` text NOT NULL,
	`products` integer NOT NULL,
	`featured_products` integer NOT NULL,
	PRIMARY KEY(`in_price_range`, `category`, `brand`)
);
--> statement-breakpoint
CREATE INDEX `product_facets_brand_idx` ON `product_facets` (`brand`,`in_price_range`,`category`,`products`,`featured_products`);--> statement-breakpoint
CREATE INDEX `product_facets_featured_idx` ON `product_facets` (`in_price_range`,`category`,`brand`,`featured_products`) WHERE "product_facets"."featured_products" > 0;--> statement-breakpoint
-- A brand with a price band counts its matches from the index alone (it now holds the category).
DROP INDEX `products_brand_idx`;--> statement-breakpoint
CREATE INDEX `products_brand_idx` ON `products` (`active`,`brand`,`price_kobo`,`category`);--> statement-breakpoint
CREATE INDEX `products_brand_name_idx` ON `products` (`active`,`brand`,"name" COLLATE NOCASE,`id`);--> statement-breakpoint
-- A category word's products in relevance order: the same expressions, in the same order, as
-- IN_ITS_CATEGORY in functions/catalogue/product-search.ts (SQLite matches them as written).
CREATE INDEX `products_category_relevance_idx` ON `products` (`active`,`category`,(length("name") - length(replace("name", ' ', ''))),"rating" DESC,("stock" > 0) DESC,"name" COLLATE NOCASE,`id`);--> statement-breakpoint
-- Products on sale per category and brand (and how many featured), inside or outside the price
-- filter's default range (0 to 500,000,000 kobo: PRICE_FILTER_MAX_NAIRA in
-- src/features/catalogue/search.ts; a change there needs a migration that rewrites these
-- triggers and rows), for an existing database.
INSERT INTO `product_facets` (in_price_range, category, brand, products, featured_products)
	SELECT price_kobo BETWEEN 0 AND 500000000, category, brand, count(*), sum(featured) FROM `products` WHERE active = 1
	GROUP BY 1, 2, 3;
--> statement-breakpoint
-- Kept in step by triggers, so a product added, edited, repriced (the variants' triggers set its
-- price), archived or restored counts at once. A row at 0 stays (readers skip it).
CREATE TRIGGER `product_facets_after_insert` AFTER INSERT ON `products` WHEN new.active = 1 BEGIN
	INSERT INTO `product_facets` (in_price_range, category, brand, products, featured_products)
		VALUES (new.price_kobo BETWEEN 0 AND 500000000, new.category, new.brand, 1, new.featured)
		ON CONFLICT (in_price_range, category, brand)
		DO UPDATE SET products = products + 1, featured_products = featured_products + excluded.featured_products;
END;
--> statement-breakpoint
CREATE TRIGGER `product_facets_after_delete` AFTER DELETE ON `products` WHEN old.active = 1 BEGIN
	UPDATE `product_facets` SET products = products - 1, featured_products = featured_products - old.featured
		WHERE in_price_range = (old.price_kobo BETWEEN 0 AND 500000000) AND category = old.category AND brand = old.brand;
END;
--> statement-breakpoint
CREATE TRIGGER `product_facets_after_update` AFTER UPDATE OF category, brand, featured, price_kobo, active ON `products` BEGIN
	UPDATE `product_facets` SET products = products - 1, featured_products = featured_products - old.featured
		WHERE old.active = 1 AND in_price_range = (old.price_kobo BETWEEN 0 AND 500000000)
			AND category = old.category AND brand = old.brand;
	INSERT INTO `product_facets` (in_price_range, category, brand, products, featured_products)
		SELECT new.price_kobo BETWEEN 0 AND 500000000, new.category, new.brand, 1, new.featured WHERE new.active = 1
		ON CONFLICT (in_price_range, category, brand)
		DO UPDATE SET products = products + 1, featured_products = featured_products + excluded.featured_products;
END;
