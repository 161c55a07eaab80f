CREATE TABLE `accounts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`member_id` integer,
	`wallet` text NOT NULL,
	`kind` text NOT NULL,
	`balance` integer DEFAULT 0 NOT NULL,
	CONSTRAINT "accounts_kind" CHECK("accounts"."kind" in ('member','system')),
	CONSTRAINT "accounts_member_not_negative" CHECK("accounts"."kind" = 'system' or "accounts"."balance" >= 0),
	CONSTRAINT "accounts_owner" CHECK(("accounts"."kind" = 'member' and "accounts"."member_id" is not null) or ("accounts"."kind" = 'system' and "accounts"."member_id" is null))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_member_wallet` ON `accounts` (`member_id`,`wallet`);--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_system_wallet` ON `accounts` (`wallet`) WHERE "accounts"."member_id" is null;--> statement-breakpoint
CREATE TABLE `deposits` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`trans_id` text NOT NULL,
	`member_id` integer NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`address` text NOT NULL,
	`status` text DEFAULT 'PENDING' NOT NULL,
	`paid_amount` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`paid_at` integer,
	CONSTRAINT "deposits_amount_positive" CHECK("deposits"."amount" > 0),
	CONSTRAINT "deposits_status_check" CHECK("deposits"."status" in ('PENDING','PAID','PARTIAL','EXPIRED'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `deposits_trans_id` ON `deposits` (`trans_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `deposits_address` ON `deposits` (`address`);--> statement-breakpoint
CREATE INDEX `deposits_member_time` ON `deposits` (`member_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `deposits_status` ON `deposits` (`status`,`expires_at`);--> statement-breakpoint
CREATE TABLE `level_incomes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`trans_id` text NOT NULL,
	`member_id` integer NOT NULL,
	`from_member_id` integer NOT NULL,
	`subscription_trans_id` text NOT NULL,
	`level` integer NOT NULL,
	`percentage` integer NOT NULL,
	`subs_amount` integer NOT NULL,
	`expected_amount` integer NOT NULL,
	`received_amount` integer NOT NULL,
	`created_at` integer NOT NULL,
	CONSTRAINT "level_incomes_level" CHECK("level_incomes"."level" between 1 and 5)
);
--> statement-breakpoint
CREATE INDEX `level_incomes_member_time` ON `level_incomes` (`member_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `rank_rewards` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`trans_id` text NOT NULL,
	`member_id` integer NOT NULL,
	`rank` text NOT NULL,
	`reward` integer NOT NULL,
	`status` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `rank_rewards_member_time` ON `rank_rewards` (`member_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `rank_rewards_member_rank` ON `rank_rewards` (`member_id`,`rank`);--> statement-breakpoint
CREATE TABLE `subscriptions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`trans_id` text NOT NULL,
	`member_id` integer NOT NULL,
	`plan` text NOT NULL,
	`amount` integer NOT NULL,
	`roi_basis_points` integer NOT NULL,
	`max_earnings` integer NOT NULL,
	`total_earnings` integer DEFAULT 0 NOT NULL,
	`binary_volume` integer NOT NULL,
	`rank_volume` integer NOT NULL,
	`wallet` text DEFAULT 'Deposit' NOT NULL,
	`status` text DEFAULT 'ACTIVE' NOT NULL,
	`reason` text,
	`created_at` integer NOT NULL,
	`end_date` integer,
	CONSTRAINT "subscriptions_status_check" CHECK("subscriptions"."status" in ('ACTIVE','EXPIRED')),
	CONSTRAINT "subscriptions_earnings_capped" CHECK("subscriptions"."total_earnings" >= 0 and "subscriptions"."total_earnings" <= "subscriptions"."max_earnings")
);
--> statement-breakpoint
CREATE UNIQUE INDEX `subscriptions_trans_id` ON `subscriptions` (`trans_id`);--> statement-breakpoint
CREATE INDEX `subscriptions_member_time` ON `subscriptions` (`member_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `subscriptions_status_member` ON `subscriptions` (`status`,`member_id`);--> statement-breakpoint
CREATE TABLE `transfers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`trans_id` text NOT NULL,
	`from_account_id` integer NOT NULL,
	`to_account_id` integer NOT NULL,
	`amount` integer NOT NULL,
	`reason` text NOT NULL,
	`member_id` integer,
	`counterparty_member_id` integer,
	`created_at` integer NOT NULL,
	CONSTRAINT "transfers_amount_positive" CHECK("transfers"."amount" > 0),
	CONSTRAINT "transfers_distinct_accounts" CHECK("transfers"."from_account_id" <> "transfers"."to_account_id")
);
--> statement-breakpoint
CREATE INDEX `transfers_from_time` ON `transfers` (`from_account_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `transfers_to_time` ON `transfers` (`to_account_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `transfers_member_time` ON `transfers` (`member_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `transfers_trans_id` ON `transfers` (`trans_id`);--> statement-breakpoint
CREATE TABLE `volume_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`trans_id` text NOT NULL,
	`member_id` integer NOT NULL,
	`from_member_id` integer,
	`transaction_id` text,
	`side` text,
	`volume` integer DEFAULT 0 NOT NULL,
	`left_volume` integer DEFAULT 0 NOT NULL,
	`left_carry` integer DEFAULT 0 NOT NULL,
	`left_total` integer DEFAULT 0 NOT NULL,
	`right_volume` integer DEFAULT 0 NOT NULL,
	`right_carry` integer DEFAULT 0 NOT NULL,
	`right_total` integer DEFAULT 0 NOT NULL,
	`status` text NOT NULL,
	`created_at` integer NOT NULL,
	CONSTRAINT "volume_entries_kind" CHECK("volume_entries"."kind" in ('binary','rank'))
);
--> statement-breakpoint
CREATE INDEX `volume_entries_member_kind_time` ON `volume_entries` (`member_id`,`kind`,`created_at`);--> statement-breakpoint
CREATE TABLE `withdrawals` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`trans_id` text NOT NULL,
	`member_id` integer NOT NULL,
	`amount` integer NOT NULL,
	`fee` integer NOT NULL,
	`net_amount` integer NOT NULL,
	`address` text NOT NULL,
	`status` text DEFAULT 'PENDING' NOT NULL,
	`created_at` integer NOT NULL,
	`decided_at` integer,
	CONSTRAINT "withdrawals_status_check" CHECK("withdrawals"."status" in ('PENDING','APPROVED','REJECTED')),
	CONSTRAINT "withdrawals_split" CHECK("withdrawals"."fee" >= 0 and "withdrawals"."net_amount" >= 0 and "withdrawals"."fee" + "withdrawals"."net_amount" = "withdrawals"."amount")
);
--> statement-breakpoint
CREATE UNIQUE INDEX `withdrawals_trans_id` ON `withdrawals` (`trans_id`);--> statement-breakpoint
CREATE INDEX `withdrawals_member_time` ON `withdrawals` (`member_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `withdrawals_status` ON `withdrawals` (`status`,`created_at`);