-- Paged tables whose rows carry their own text (modules/tables): `row_json` is the JSON a page
-- answers for the row, kept by triggers from the row's own columns, so a page reads one column
-- through the member's key range and joins the texts instead of shaping each row and stringifying
-- the answer. Deposits (whose status changes), level earnings and rank rewards; the others stay
-- shaped at read time: a package's row changes on every ROI day (50,000 rewrites a day at 100,000
-- members), the volume rows are written in bulk by the daily runs, and an earning-history row
-- depends on who reads it and on its withdrawal's status.
-- The JSON is what JSON.stringify writes for the row the page answered before (a test holds every
-- row to it): amounts from integer micro-units as the shortest decimal, times as toISOString, text
-- quoted by SQLite's JSON writer. Every existing row is filled here.
ALTER TABLE `deposits` ADD `row_json` text;--> statement-breakpoint
ALTER TABLE `level_incomes` ADD `row_json` text;--> statement-breakpoint
ALTER TABLE `rank_rewards` ADD `row_json` text;--> statement-breakpoint
CREATE TRIGGER `deposits_row_json` AFTER INSERT ON `deposits`
BEGIN
  UPDATE `deposits` SET `row_json` = json_object('id', cast(new.`id` AS text), 'amount', printf('%d.%02d', new.`amount` / 1000000, new.`amount` % 1000000 / 10000),
    'date', strftime('%Y-%m-%dT%H:%M:%S', new.`created_at` / 1000, 'unixepoch') || printf('.%03dZ', new.`created_at` % 1000), 'status', new.`status`, 'transaction_id', new.`trans_id`)
  WHERE `id` = new.`id`;
END;
--> statement-breakpoint
-- A shown column that changes (a deposit's status) writes the row's text again.
CREATE TRIGGER `deposits_row_json_update` AFTER UPDATE OF `amount`, `created_at`, `status`, `trans_id` ON `deposits`
BEGIN
  UPDATE `deposits` SET `row_json` = json_object('id', cast(new.`id` AS text), 'amount', printf('%d.%02d', new.`amount` / 1000000, new.`amount` % 1000000 / 10000),
    'date', strftime('%Y-%m-%dT%H:%M:%S', new.`created_at` / 1000, 'unixepoch') || printf('.%03dZ', new.`created_at` % 1000), 'status', new.`status`, 'transaction_id', new.`trans_id`)
  WHERE `id` = new.`id`;
END;
--> statement-breakpoint
UPDATE `deposits` SET `row_json` = json_object('id', cast(`deposits`.`id` AS text), 'amount', printf('%d.%02d', `deposits`.`amount` / 1000000, `deposits`.`amount` % 1000000 / 10000),
    'date', strftime('%Y-%m-%dT%H:%M:%S', `deposits`.`created_at` / 1000, 'unixepoch') || printf('.%03dZ', `deposits`.`created_at` % 1000), 'status', `deposits`.`status`, 'transaction_id', `deposits`.`trans_id`);
--> statement-breakpoint
CREATE TRIGGER `level_incomes_row_json` AFTER INSERT ON `level_incomes`
BEGIN
  UPDATE `level_incomes` SET `row_json` = json_object('DateTime', strftime('%Y-%m-%dT%H:%M:%S', new.`created_at` / 1000, 'unixepoch') || printf('.%03dZ', new.`created_at` % 1000), 'TransID', new.`trans_id`,
    'Transaction_ID', new.`subscription_trans_id`, 'Subs_Amount', json(CASE WHEN new.`subs_amount` % 1000000 = 0 THEN new.`subs_amount` / 1000000 ELSE (new.`subs_amount` / 1000000) || rtrim(printf('.%06d', new.`subs_amount` % 1000000), '0') END),
    'From', coalesce((SELECT `username` FROM `members` WHERE `id` = new.`from_member_id`), ''), 'Level', new.`level`,
    'Percentage', json(CASE WHEN new.`percentage` % 100 = 0 THEN new.`percentage` / 100 ELSE (new.`percentage` / 100) || rtrim(printf('.%02d', new.`percentage` % 100), '0') END),
    'Expected_Amount', json(CASE WHEN new.`expected_amount` % 1000000 = 0 THEN new.`expected_amount` / 1000000 ELSE (new.`expected_amount` / 1000000) || rtrim(printf('.%06d', new.`expected_amount` % 1000000), '0') END),
    'Received_Amount', json(CASE WHEN new.`received_amount` % 1000000 = 0 THEN new.`received_amount` / 1000000 ELSE (new.`received_amount` / 1000000) || rtrim(printf('.%06d', new.`received_amount` % 1000000), '0') END))
  WHERE `id` = new.`id`;
END;
--> statement-breakpoint
UPDATE `level_incomes` SET `row_json` = json_object('DateTime', strftime('%Y-%m-%dT%H:%M:%S', `level_incomes`.`created_at` / 1000, 'unixepoch') || printf('.%03dZ', `level_incomes`.`created_at` % 1000), 'TransID', `level_incomes`.`trans_id`,
    'Transaction_ID', `level_incomes`.`subscription_trans_id`, 'Subs_Amount', json(CASE WHEN `level_incomes`.`subs_amount` % 1000000 = 0 THEN `level_incomes`.`subs_amount` / 1000000 ELSE (`level_incomes`.`subs_amount` / 1000000) || rtrim(printf('.%06d', `level_incomes`.`subs_amount` % 1000000), '0') END),
    'From', coalesce((SELECT `username` FROM `members` WHERE `id` = `level_incomes`.`from_member_id`), ''), 'Level', `level_incomes`.`level`,
    'Percentage', json(CASE WHEN `level_incomes`.`percentage` % 100 = 0 THEN `level_incomes`.`percentage` / 100 ELSE (`level_incomes`.`percentage` / 100) || rtrim(printf('.%02d', `level_incomes`.`percentage` % 100), '0') END),
    'Expected_Amount', json(CASE WHEN `level_incomes`.`expected_amount` % 1000000 = 0 THEN `level_incomes`.`expected_amount` / 1000000 ELSE (`level_incomes`.`expected_amount` / 1000000) || rtrim(printf('.%06d', `level_incomes`.`expected_amount` % 1000000), '0') END),
    'Received_Amount', json(CASE WHEN `level_incomes`.`received_amount` % 1000000 = 0 THEN `level_incomes`.`received_amount` / 1000000 ELSE (`level_incomes`.`received_amount` / 1000000) || rtrim(printf('.%06d', `level_incomes`.`received_amount` % 1000000), '0') END));
--> statement-breakpoint
CREATE TRIGGER `rank_rewards_row_json` AFTER INSERT ON `rank_rewards`
BEGIN
  UPDATE `rank_rewards` SET `row_json` = json_object('DateTime', strftime('%Y-%m-%dT%H:%M:%S', new.`created_at` / 1000, 'unixepoch') || printf('.%03dZ', new.`created_at` % 1000), 'Transaction_ID', new.`trans_id`, 'Current_Rank', new.`rank`,
    'Reward', json(CASE WHEN new.`reward` % 1000000 = 0 THEN new.`reward` / 1000000 ELSE (new.`reward` / 1000000) || rtrim(printf('.%06d', new.`reward` % 1000000), '0') END), 'Status', json(CASE WHEN new.`status` THEN 'true' ELSE 'false' END))
  WHERE `id` = new.`id`;
END;
--> statement-breakpoint
UPDATE `rank_rewards` SET `row_json` = json_object('DateTime', strftime('%Y-%m-%dT%H:%M:%S', `rank_rewards`.`created_at` / 1000, 'unixepoch') || printf('.%03dZ', `rank_rewards`.`created_at` % 1000), 'Transaction_ID', `rank_rewards`.`trans_id`, 'Current_Rank', `rank_rewards`.`rank`,
    'Reward', json(CASE WHEN `rank_rewards`.`reward` % 1000000 = 0 THEN `rank_rewards`.`reward` / 1000000 ELSE (`rank_rewards`.`reward` / 1000000) || rtrim(printf('.%06d', `rank_rewards`.`reward` % 1000000), '0') END), 'Status', json(CASE WHEN `rank_rewards`.`status` THEN 'true' ELSE 'false' END));
