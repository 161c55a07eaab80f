-- Jump pointers for the bounded scope checks (modules/network/jumps.ts). Null on existing rows:
-- the start-up backfill (backfillBinaryStats, modules/engine/stats.ts) fills them in one pass.
ALTER TABLE `binary_stats` ADD `binary_jump_id` integer;--> statement-breakpoint
ALTER TABLE `binary_stats` ADD `sponsor_depth` integer;--> statement-breakpoint
ALTER TABLE `binary_stats` ADD `sponsor_jump_id` integer;
