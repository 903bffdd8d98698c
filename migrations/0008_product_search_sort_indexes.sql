DROP INDEX `products_featured_idx`;--> statement-breakpoint
CREATE INDEX `products_category_name_idx` ON `products` (`active`,`category`,"name" COLLATE NOCASE,`id`);--> statement-breakpoint
CREATE INDEX `products_category_price_idx` ON `products` (`active`,`category`,`price_kobo`);--> statement-breakpoint
CREATE INDEX `products_category_rating_idx` ON `products` (`active`,`category`,`rating`,`reviews`);--> statement-breakpoint
CREATE INDEX `products_featured_idx` ON `products` (`rating`,`reviews`,`brand`,`category`,`price_kobo`) WHERE "products"."active" = 1 AND "products"."featured" = 1;