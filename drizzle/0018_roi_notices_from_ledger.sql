-- A daily ROI payout's notice is read from its ledger credit instead of being stored beside it
-- (modules/notifications/notices.ts): it says what the credit says (the amount, the business date in
-- its TransID, the time), and storing a copy of every payout cost half of what a daily run writes.
-- notices_withheld names the ROI credits that have no notice in the member's list: the member had
-- payout notices off in the app when it was paid, or a stored notice stands for it.
-- The stored ROI notices of a database of the previous main are read from their credits from now on:
-- a notice is dropped only where its credit says exactly the same (type, text, time, TransID), so
-- every member's list reads as before; any other stays stored and withholds its credit's.
CREATE TABLE `notices_withheld` (
	`member_id` integer NOT NULL,
	`trans_id` text NOT NULL,
	PRIMARY KEY(`member_id`, `trans_id`)
) WITHOUT ROWID;
--> statement-breakpoint
-- Every ROI credit without a stored notice that says exactly what it reads back: withheld. Matched through
-- the notices' (member, time) index: a notice and its credit were written with one time.
INSERT INTO `notices_withheld` (`member_id`, `trans_id`)
SELECT a.`member_id`, t.`trans_id`
  FROM `transfers` t JOIN `accounts` a ON a.`id` = t.`to_account_id`
 WHERE t.`reason` = 'roi' AND a.`member_id` IS NOT NULL
   AND NOT EXISTS (SELECT 1 FROM `notifications` n
                    WHERE n.`member_id` = a.`member_id` AND n.`created_at` = t.`created_at` AND n.`trans_id` = t.`trans_id`
                      AND n.`type` = 'ROI_Income' AND t.`trans_id` GLOB 'ROI[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]M*'
                      AND n.`message` = 'You earned ' || printf('$%,d.%02d', t.`amount` / 1000000, (t.`amount` % 1000000) / 10000)
                          || ' daily ROI for ' || substr(t.`trans_id`, 4, 4) || '-' || substr(t.`trans_id`, 8, 2) || '-' || substr(t.`trans_id`, 10, 2) || '.')
 ORDER BY a.`member_id`, t.`trans_id`;
--> statement-breakpoint
-- The stored notices their credits read back exactly: the list reads them from the credits now.
DELETE FROM `notifications` WHERE `type` = 'ROI_Income' AND EXISTS (
  SELECT 1 FROM `transfers` t JOIN `accounts` a ON a.`id` = t.`to_account_id`
   WHERE t.`trans_id` = `notifications`.`trans_id` AND t.`reason` = 'roi' AND a.`member_id` = `notifications`.`member_id`
     AND t.`created_at` = `notifications`.`created_at`
     AND t.`trans_id` GLOB 'ROI[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]M*'
     AND `notifications`.`message` = 'You earned ' || printf('$%,d.%02d', t.`amount` / 1000000, (t.`amount` % 1000000) / 10000)
         || ' daily ROI for ' || substr(t.`trans_id`, 4, 4) || '-' || substr(t.`trans_id`, 8, 2) || '-' || substr(t.`trans_id`, 10, 2) || '.');
