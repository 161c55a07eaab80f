-- The start-up check of binary_stats without a pass over every member (backfillBinaryStats
-- in modules/engine/stats.ts). Rows still to compute are found through this partial index.
CREATE INDEX `binary_stats_incomplete` ON `binary_stats` (`member_id`) WHERE "binary_stats"."depth" < 0 or "binary_stats"."binary_jump_id" is null or "binary_stats"."sponsor_jump_id" is null;--> statement-breakpoint
-- Members without a row are looked for only above meta 'binary_stats_complete_through', which the
-- check writes: every member up to that id had a complete row. A member inserted at or below it
-- (an explicit id in a gap) withdraws it, and the next check looks at every member again.
CREATE TRIGGER `members_stats_unchecked` AFTER INSERT ON `members`
WHEN new.id <= (SELECT CAST(`value` AS integer) FROM `meta` WHERE `key` = 'binary_stats_complete_through')
BEGIN
  DELETE FROM `meta` WHERE `key` = 'binary_stats_complete_through';
END;
