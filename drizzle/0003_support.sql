CREATE TABLE `support_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`ticket` text NOT NULL,
	`member_id` integer NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`subject` text NOT NULL,
	`message` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `support_messages_ticket` ON `support_messages` (`ticket`);--> statement-breakpoint
CREATE INDEX `support_messages_member_time` ON `support_messages` (`member_id`,`created_at`);