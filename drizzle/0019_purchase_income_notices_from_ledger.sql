-- A purchase's direct and level income notices are read from their credits too, as the daily ROI
-- payouts' are since 0018 (modules/notifications/notices.ts): the amount, the buyer (the credit's
-- counterparty) and the level its TransID ends with (LI + the purchase's TransID + L + level). A
-- purchase stored one for each of its five sponsors, each an index entry on that sponsor's pages.
-- The stored ones of a database of the previous main are read from their credits from now on: a
-- notice is dropped only where its credit says exactly the same (type, text, time, TransID), so
-- every member's list reads as before; any other stays stored and withholds its credit's, as does
-- a credit paid while its member had payout notices off (no stored notice). Such a credit names its
-- buyer as its counterparty; one that names none was no purchase's and has no notice.
INSERT INTO `notices_withheld` (`member_id`, `trans_id`)
SELECT a.`member_id`, t.`trans_id`
  FROM `transfers` t JOIN `accounts` a ON a.`id` = t.`to_account_id`
 WHERE ((t.`reason` = 'direct_income' AND a.`wallet` = 'Direct') OR (t.`reason` = 'level_income' AND a.`wallet` = 'Level'))
   AND a.`member_id` IS NOT NULL AND t.`counterparty_member_id` IS NOT NULL
   AND NOT EXISTS (SELECT 1 FROM `notifications` n
                    WHERE n.`member_id` = a.`member_id` AND n.`created_at` = t.`created_at` AND n.`trans_id` = t.`trans_id`
                      AND n.`type` = CASE t.`reason` WHEN 'direct_income' THEN 'Direct_Income' ELSE 'Level_Income' END
                      AND n.`message` = 'You earned ' || printf('$%,d.%02d', t.`amount` / 1000000, (t.`amount` % 1000000) / 10000)
                          || CASE t.`reason` WHEN 'direct_income' THEN ' direct income' ELSE ' level ' || substr(t.`trans_id`, -1) || ' income' END
                          || ' from ' || (SELECT `username` FROM `members` WHERE `id` = t.`counterparty_member_id`) || '''s purchase.')
 ORDER BY a.`member_id`, t.`trans_id`;
--> statement-breakpoint
-- The stored notices their credits read back exactly: the list reads them from the credits now.
DELETE FROM `notifications` WHERE `type` IN ('Direct_Income', 'Level_Income') AND EXISTS (
  SELECT 1 FROM `transfers` t JOIN `accounts` a ON a.`id` = t.`to_account_id`
   WHERE t.`trans_id` = `notifications`.`trans_id` AND a.`member_id` = `notifications`.`member_id`
     AND t.`created_at` = `notifications`.`created_at` AND t.`counterparty_member_id` IS NOT NULL
     AND ((t.`reason` = 'direct_income' AND a.`wallet` = 'Direct' AND `notifications`.`type` = 'Direct_Income')
       OR (t.`reason` = 'level_income' AND a.`wallet` = 'Level' AND `notifications`.`type` = 'Level_Income'))
     AND `notifications`.`message` = 'You earned ' || printf('$%,d.%02d', t.`amount` / 1000000, (t.`amount` % 1000000) / 10000)
         || CASE t.`reason` WHEN 'direct_income' THEN ' direct income' ELSE ' level ' || substr(t.`trans_id`, -1) || ' income' END
         || ' from ' || (SELECT `username` FROM `members` WHERE `id` = t.`counterparty_member_id`) || '''s purchase.');
