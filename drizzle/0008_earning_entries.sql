-- Uncached reads that stay fast (modules/tables). Earning history becomes one key range
-- per member: earning_entries holds (member, time, transfer) for every transfer in a member's
-- history, kept by a trigger on transfers, so every write path (requests, the engine's worker,
-- the seeds, the benchmarks' fixtures) keeps it; what a row shows is still joined from transfers,
-- accounts, members and withdrawals at read time (a withdrawal's status change needs no upkeep).
-- table_rows counts each member's rows per paged table, so a page count without search, dates or
-- filters is one row: earning history, deposits, subscriptions, level earnings and rank rewards
-- (binary and rank volumes are written by the daily run in bulk, where a row-by-row count costs
-- ~3 µs a row: their count stays a count over the member's covering index range).
-- The daily runs' payouts (ledger.creditFromSystem, tens of thousands of transfers a run) write
-- their entries and counts set-based instead: while meta holds 'earning_entries_batch' (only inside
-- that writer's transaction, never committed) the row triggers stand aside.
-- Both tables are filled from the existing rows here: a database of the previous main shows the
-- same history and counts after this migration.
CREATE TABLE `earning_entries` (
	`member_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	`transfer_id` integer NOT NULL,
	PRIMARY KEY(`member_id`, `created_at`, `transfer_id`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `table_rows` (
	`member_id` integer NOT NULL,
	`source` text NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`member_id`, `source`)
) WITHOUT ROWID;
--> statement-breakpoint
-- The history of a transfer: the members owning its two accounts and the member it belongs to.
INSERT OR IGNORE INTO `earning_entries` (`member_id`, `created_at`, `transfer_id`)
SELECT `member_id`, `created_at`, `id` FROM `transfers` WHERE `member_id` IS NOT NULL;
--> statement-breakpoint
INSERT OR IGNORE INTO `earning_entries` (`member_id`, `created_at`, `transfer_id`)
SELECT a.`member_id`, t.`created_at`, t.`id` FROM `transfers` t JOIN `accounts` a ON a.`id` = t.`from_account_id` WHERE a.`member_id` IS NOT NULL;
--> statement-breakpoint
INSERT OR IGNORE INTO `earning_entries` (`member_id`, `created_at`, `transfer_id`)
SELECT a.`member_id`, t.`created_at`, t.`id` FROM `transfers` t JOIN `accounts` a ON a.`id` = t.`to_account_id` WHERE a.`member_id` IS NOT NULL;
--> statement-breakpoint
INSERT INTO `table_rows` (`member_id`, `source`, `total`)
SELECT `member_id`, 'earning', count(*) FROM `earning_entries` GROUP BY `member_id`;
--> statement-breakpoint
INSERT INTO `table_rows` (`member_id`, `source`, `total`)
SELECT `member_id`, 'deposits', count(*) FROM `deposits` GROUP BY `member_id`;
--> statement-breakpoint
INSERT INTO `table_rows` (`member_id`, `source`, `total`)
SELECT `member_id`, 'subscriptions', count(*) FROM `subscriptions` GROUP BY `member_id`;
--> statement-breakpoint
INSERT INTO `table_rows` (`member_id`, `source`, `total`)
SELECT `member_id`, 'level_earning', count(*) FROM `level_incomes` GROUP BY `member_id`;
--> statement-breakpoint
INSERT INTO `table_rows` (`member_id`, `source`, `total`)
SELECT `member_id`, 'rank_rewards', count(*) FROM `rank_rewards` GROUP BY `member_id`;
--> statement-breakpoint
-- The members owning its two accounts and the member it belongs to, each once (three statements:
-- a UNION here costs twice as much a row).
CREATE TRIGGER `transfers_earning_entries` AFTER INSERT ON `transfers`
WHEN NOT EXISTS (SELECT 1 FROM `meta` WHERE `key` = 'earning_entries_batch')
BEGIN
  INSERT INTO `earning_entries` (`member_id`, `created_at`, `transfer_id`)
  SELECT new.`member_id`, new.`created_at`, new.`id` WHERE new.`member_id` IS NOT NULL;
  INSERT INTO `earning_entries` (`member_id`, `created_at`, `transfer_id`)
  SELECT `member_id`, new.`created_at`, new.`id` FROM `accounts`
  WHERE `id` = new.`from_account_id` AND `member_id` IS NOT NULL AND `member_id` IS NOT new.`member_id`;
  INSERT INTO `earning_entries` (`member_id`, `created_at`, `transfer_id`)
  SELECT `member_id`, new.`created_at`, new.`id` FROM `accounts`
  WHERE `id` = new.`to_account_id` AND `member_id` IS NOT NULL AND `member_id` IS NOT new.`member_id`
    AND `member_id` IS NOT (SELECT `member_id` FROM `accounts` WHERE `id` = new.`from_account_id`);
END;
--> statement-breakpoint
-- Transfers are never edited or deleted (a correction is a new transfer); a deletion would still
-- take its entries along.
CREATE TRIGGER `transfers_earning_entries_delete` AFTER DELETE ON `transfers`
BEGIN
  DELETE FROM `earning_entries` WHERE `transfer_id` = old.`id` AND `created_at` = old.`created_at`
    AND `member_id` IN (old.`member_id`, (SELECT `member_id` FROM `accounts` WHERE `id` = old.`from_account_id`), (SELECT `member_id` FROM `accounts` WHERE `id` = old.`to_account_id`));
END;
--> statement-breakpoint
CREATE TRIGGER `earning_entries_rows` AFTER INSERT ON `earning_entries`
WHEN NOT EXISTS (SELECT 1 FROM `meta` WHERE `key` = 'earning_entries_batch')
BEGIN
  INSERT INTO `table_rows` (`member_id`, `source`, `total`) VALUES (new.`member_id`, 'earning', 1)
  ON CONFLICT (`member_id`, `source`) DO UPDATE SET `total` = `total` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `earning_entries_rows_delete` AFTER DELETE ON `earning_entries`
BEGIN
  UPDATE `table_rows` SET `total` = `total` - 1 WHERE `member_id` = old.`member_id` AND `source` = 'earning';
END;
--> statement-breakpoint
CREATE TRIGGER `deposits_rows` AFTER INSERT ON `deposits`
BEGIN
  INSERT INTO `table_rows` (`member_id`, `source`, `total`) VALUES (new.`member_id`, 'deposits', 1)
  ON CONFLICT (`member_id`, `source`) DO UPDATE SET `total` = `total` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `deposits_rows_delete` AFTER DELETE ON `deposits`
BEGIN
  UPDATE `table_rows` SET `total` = `total` - 1 WHERE `member_id` = old.`member_id` AND `source` = 'deposits';
END;
--> statement-breakpoint
CREATE TRIGGER `subscriptions_rows` AFTER INSERT ON `subscriptions`
BEGIN
  INSERT INTO `table_rows` (`member_id`, `source`, `total`) VALUES (new.`member_id`, 'subscriptions', 1)
  ON CONFLICT (`member_id`, `source`) DO UPDATE SET `total` = `total` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `subscriptions_rows_delete` AFTER DELETE ON `subscriptions`
BEGIN
  UPDATE `table_rows` SET `total` = `total` - 1 WHERE `member_id` = old.`member_id` AND `source` = 'subscriptions';
END;
--> statement-breakpoint
CREATE TRIGGER `level_incomes_rows` AFTER INSERT ON `level_incomes`
BEGIN
  INSERT INTO `table_rows` (`member_id`, `source`, `total`) VALUES (new.`member_id`, 'level_earning', 1)
  ON CONFLICT (`member_id`, `source`) DO UPDATE SET `total` = `total` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `level_incomes_rows_delete` AFTER DELETE ON `level_incomes`
BEGIN
  UPDATE `table_rows` SET `total` = `total` - 1 WHERE `member_id` = old.`member_id` AND `source` = 'level_earning';
END;
--> statement-breakpoint
CREATE TRIGGER `rank_rewards_rows` AFTER INSERT ON `rank_rewards`
BEGIN
  INSERT INTO `table_rows` (`member_id`, `source`, `total`) VALUES (new.`member_id`, 'rank_rewards', 1)
  ON CONFLICT (`member_id`, `source`) DO UPDATE SET `total` = `total` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `rank_rewards_rows_delete` AFTER DELETE ON `rank_rewards`
BEGIN
  UPDATE `table_rows` SET `total` = `total` - 1 WHERE `member_id` = old.`member_id` AND `source` = 'rank_rewards';
END;
