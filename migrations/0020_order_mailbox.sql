-- The mailbox an order's e-mail address reaches, stored so the unpaid units held per address count
-- Gmail's dots as one mailbox (functions/orders/limits.ts); its index replaces (email, status).
DROP INDEX `orders_email_status_idx`;--> statement-breakpoint
ALTER TABLE `orders` ADD `mailbox` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `orders_mailbox_status_idx` ON `orders` (`mailbox`,`status`);--> statement-breakpoint
-- The orders placed before this migration, in the steps of mailboxKey (functions/platform/mailbox.ts):
-- lower-case, no "+tag" before the @, and Gmail's dots and googlemail.com dropped.
UPDATE `orders` SET `mailbox` = lower(trim(`email`));--> statement-breakpoint
UPDATE `orders` SET `mailbox` = substr(`mailbox`, 1, instr(`mailbox`, '+') - 1) || substr(`mailbox`, instr(`mailbox`, '@'))
  WHERE instr(`mailbox`, '+') BETWEEN 2 AND instr(`mailbox`, '@');--> statement-breakpoint
UPDATE `orders` SET `mailbox` = replace(substr(`mailbox`, 1, instr(`mailbox`, '@') - 1), '.', '') || '@gmail.com'
  WHERE substr(`mailbox`, instr(`mailbox`, '@') + 1) IN ('gmail.com', 'googlemail.com');
