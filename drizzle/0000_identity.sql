CREATE TABLE `clock_state` (
	`id` integer PRIMARY KEY NOT NULL,
	`offset_ms` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `mail_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`to_address` text NOT NULL,
	`to_username` text,
	`subject` text NOT NULL,
	`text` text NOT NULL,
	`otp` text,
	`sent_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `mail_to` ON `mail_outbox` (`to_address`,`sent_at`);--> statement-breakpoint
CREATE INDEX `mail_to_user` ON `mail_outbox` (`to_username`,`sent_at`);--> statement-breakpoint
CREATE TABLE `members` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`country` text NOT NULL,
	`sponsor_id` integer,
	`parent_id` integer,
	`side` text,
	`created_at` integer NOT NULL,
	`password_hash` text NOT NULL,
	`token_version` integer DEFAULT 0 NOT NULL,
	`totp_secret` text,
	`totp_enabled` integer DEFAULT false NOT NULL,
	`totp_pending_secret` text,
	`totp_last_step` integer,
	`transaction_password_hash` text,
	`wallet_address` text,
	CONSTRAINT "members_side" CHECK("members"."side" in ('0','1') or "members"."side" is null)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `members_username` ON `members` (`username`);--> statement-breakpoint
CREATE INDEX `members_email` ON `members` (`email`);--> statement-breakpoint
CREATE INDEX `members_sponsor` ON `members` (`sponsor_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `members_parent_side` ON `members` (`parent_id`,`side`);--> statement-breakpoint
CREATE TABLE `meta` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `notifications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`member_id` integer NOT NULL,
	`type` text NOT NULL,
	`message` text NOT NULL,
	`trans_id` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `notifications_member_time` ON `notifications` (`member_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `otps` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`purpose` text NOT NULL,
	`subject` text NOT NULL,
	`payload` text,
	`code_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`used_at` integer
);
--> statement-breakpoint
CREATE INDEX `otps_lookup` ON `otps` (`purpose`,`subject`,`created_at`);--> statement-breakpoint
CREATE TABLE `throttles` (
	`key` text PRIMARY KEY NOT NULL,
	`last_at` integer NOT NULL
);
