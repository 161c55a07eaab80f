-- Ledger accounts keep their running totals (TigerBeetle's account model): debits_posted and
-- credits_posted are the sums of the transfers out of and into the account, and account_months the
-- credits per account per UTC month (`month`: epoch ms of the month's first instant). The ledger
-- (modules/ledger/ledger.ts) keeps them in the same statements as the balances, for every transfer
-- it writes; so every wallet figure (Available, Total, This Month, Last Month) is a read of a few
-- rows however long the member's history, and the ledger check compares them with the transfers.
-- No trigger: the daily runs credit hundreds of thousands of wallets at once, set-based.
-- Filled here from the existing transfers: a database of the previous main shows the same figures.
CREATE TABLE `account_months` (
	`account_id` integer NOT NULL,
	`month` integer NOT NULL,
	`credits` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account_id`, `month`)
) WITHOUT ROWID;
--> statement-breakpoint
ALTER TABLE `accounts` ADD `debits_posted` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE `accounts` ADD `credits_posted` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
UPDATE `accounts` SET `debits_posted` = d.`total`
FROM (SELECT `from_account_id` AS `id`, sum(`amount`) AS `total` FROM `transfers` GROUP BY `from_account_id`) d
WHERE `accounts`.`id` = d.`id`;
--> statement-breakpoint
UPDATE `accounts` SET `credits_posted` = c.`total`
FROM (SELECT `to_account_id` AS `id`, sum(`amount`) AS `total` FROM `transfers` GROUP BY `to_account_id`) c
WHERE `accounts`.`id` = c.`id`;
--> statement-breakpoint
INSERT INTO `account_months` (`account_id`, `month`, `credits`)
SELECT `to_account_id`, strftime('%s', `created_at` / 1000, 'unixepoch', 'start of month') * 1000, sum(`amount`)
FROM `transfers` GROUP BY 1, 2;
--> statement-breakpoint
-- A member's open deposits, which the wallets page settles when due: one key range of this index
-- instead of every deposit the member ever made.
CREATE INDEX `deposits_open` ON `deposits` (`member_id`,`expires_at`) WHERE "deposits"."status" in ('PENDING','PARTIAL');
