-- Binary and rank volume rows name the leg their volume reached (spec §2 Volume). Earlier daily
-- runs wrote one row per member and day with no Side (read as Right) and, for binary, the day's
-- match as Volume; both legs' new volume sat in Left_Volume and Right_Volume. Each such row
-- becomes a row per leg that received volume: Side that leg, Volume its amount, the other leg's
-- Volume 0; Carry, Total, Status and TransID stay. No row is lost: a row with volume on both legs
-- is kept as its left row and gains a right row.
INSERT INTO `volume_entries` (`kind`, `trans_id`, `member_id`, `from_member_id`, `transaction_id`, `side`, `volume`, `left_volume`, `left_carry`, `left_total`, `right_volume`, `right_carry`, `right_total`, `status`, `created_at`)
SELECT `kind`, `trans_id`, `member_id`, `from_member_id`, `transaction_id`, '1', `right_volume`, 0, `left_carry`, `left_total`, `right_volume`, `right_carry`, `right_total`, `status`, `created_at`
  FROM `volume_entries` WHERE `side` IS NULL AND `left_volume` > 0 AND `right_volume` > 0;
--> statement-breakpoint
UPDATE `volume_entries` SET `side` = '0', `volume` = `left_volume`, `right_volume` = 0 WHERE `side` IS NULL AND `left_volume` > 0;
--> statement-breakpoint
UPDATE `volume_entries` SET `side` = '1', `volume` = `right_volume`, `left_volume` = 0 WHERE `side` IS NULL;
