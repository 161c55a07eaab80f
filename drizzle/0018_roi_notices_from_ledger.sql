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
CREATE INDEX `notifications_trans_id_upgrade` ON `notifications` (`trans_id`);
--> statement-breakpoint
INSERT INTO `notices_withheld` (`member_id`, `trans_id`)
SELECT a.`member_id`, t.`trans_id`
  FROM `transfers` t JOIN `accounts` a ON a.`id` = t.`to_account_id`
 WHERE t.`reason` = 'roi' AND a.`member_id` IS NOT NULL
   AND NOT EXISTS (SELECT 1 FROM `notifications` n
                    WHERE n.`trans_id` = t.`trans_id` AND n.`member_id` = a.`member_id` AND n.`type` = 'ROI_Income');
--> statement-breakpoint
DELETE FROM `notifications` WHERE `id` IN (
  SELECT n.`id`
    FROM `transfers` t JOIN `accounts` a ON a.`id` = t.`to_account_id`
    JOIN `notifications` n ON n.`trans_id` = t.`trans_id` AND n.`member_id` = a.`member_id` AND n.`type` = 'ROI_Income'
   WHERE t.`reason` = 'roi' AND t.`trans_id` GLOB 'ROI[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]M*'
     AND n.`created_at` = t.`created_at`
     AND n.`message` = 'You earned ' || printf('$%,d.%02d', t.`amount` / 1000000, (t.`amount` % 1000000) / 10000)
         || ' daily ROI for ' || substr(t.`trans_id`, 4, 4) || '-' || substr(t.`trans_id`, 8, 2) || '-' || substr(t.`trans_id`, 10, 2) || '.');
--> statement-breakpoint
INSERT OR IGNORE INTO `notices_withheld` (`member_id`, `trans_id`)
SELECT a.`member_id`, t.`trans_id`
  FROM `transfers` t JOIN `accounts` a ON a.`id` = t.`to_account_id`
  JOIN `notifications` n ON n.`trans_id` = t.`trans_id` AND n.`member_id` = a.`member_id` AND n.`type` = 'ROI_Income'
 WHERE t.`reason` = 'roi';
--> statement-breakpoint
DROP INDEX `notifications_trans_id_upgrade`;
