-- Daily runs in chunks off the request path (modules/engine/jobs.ts and fold.ts). A binary
-- run moves each member's own volumes to the staged columns (tagged with the run), folds them up the
-- tree and writes the fold in chunks; the run's phase says where it is. Existing rows keep every value:
-- a run left running by the previous version had folded inside its claim, so it is in phase 'pay'.
ALTER TABLE `binary_stats` ADD `staged_binary` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `binary_stats` ADD `staged_rank` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `binary_stats` ADD `staged_run` integer;--> statement-breakpoint
ALTER TABLE `job_runs` ADD `phase` text DEFAULT 'pay' NOT NULL CONSTRAINT `job_runs_phase_check` CHECK(`phase` in ('stage','fold','pay'));
