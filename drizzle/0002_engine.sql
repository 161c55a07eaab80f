CREATE TABLE `binary_stats` (
	`member_id` integer PRIMARY KEY NOT NULL,
	`depth` integer NOT NULL,
	`team_size` integer DEFAULT 0 NOT NULL,
	`own_binary_pending` integer DEFAULT 0 NOT NULL,
	`own_rank_pending` integer DEFAULT 0 NOT NULL,
	`left_pending` integer DEFAULT 0 NOT NULL,
	`right_pending` integer DEFAULT 0 NOT NULL,
	`left_carry` integer DEFAULT 0 NOT NULL,
	`right_carry` integer DEFAULT 0 NOT NULL,
	`left_total` integer DEFAULT 0 NOT NULL,
	`right_total` integer DEFAULT 0 NOT NULL,
	`rank_left` integer DEFAULT 0 NOT NULL,
	`rank_right` integer DEFAULT 0 NOT NULL,
	`rank` text DEFAULT 'Starter' NOT NULL,
	`rank_updated_at` integer
);
--> statement-breakpoint
CREATE INDEX `binary_stats_depth` ON `binary_stats` (`depth`);--> statement-breakpoint
CREATE TABLE `job_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`job` text NOT NULL,
	`business_date` text NOT NULL,
	`status` text DEFAULT 'running' NOT NULL,
	`cursor` integer DEFAULT 0 NOT NULL,
	`started_at` integer NOT NULL,
	`finished_at` integer,
	`summary` text,
	CONSTRAINT "job_runs_status_check" CHECK("job_runs"."status" in ('running','done'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `job_runs_job_date` ON `job_runs` (`job`,`business_date`);--> statement-breakpoint
CREATE INDEX `job_runs_status` ON `job_runs` (`status`);