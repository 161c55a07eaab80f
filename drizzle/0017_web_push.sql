-- Web Push (an extension of the stand-in): the devices a member subscribed, one outbox row per push
-- to a device (written with its notice, sent after the commit), and a phone choice beside in-app and
-- email on each stored preference (on by default, as for a member who never changed one).
CREATE TABLE `push_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`subscription_id` integer NOT NULL,
	`member_id` integer NOT NULL,
	`event` text NOT NULL,
	`title` text NOT NULL,
	`body` text NOT NULL,
	`url` text NOT NULL,
	`trans_id` text,
	`created_at` integer NOT NULL,
	`delivery` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`status` integer,
	`last_error` text,
	`sent_at` integer
);
--> statement-breakpoint
CREATE INDEX `push_outbox_pending` ON `push_outbox` (`id`) WHERE "push_outbox"."delivery" = 'pending';--> statement-breakpoint
CREATE INDEX `push_outbox_member_time` ON `push_outbox` (`member_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `push_subscriptions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`member_id` integer NOT NULL,
	`endpoint` text NOT NULL,
	`p256dh` text NOT NULL,
	`auth` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `push_subscriptions_endpoint` ON `push_subscriptions` (`endpoint`);--> statement-breakpoint
CREATE INDEX `push_subscriptions_member` ON `push_subscriptions` (`member_id`);--> statement-breakpoint
ALTER TABLE `notification_preferences` ADD `phone` integer DEFAULT true NOT NULL;