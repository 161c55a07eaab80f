-- Real mail (apps/server/src/core/mailer.ts): each outbox row records its SMTP delivery.
-- Rows from before were never tracked, so they keep every value and read 'outbox-only'.
ALTER TABLE `mail_outbox` ADD `delivery` text DEFAULT 'outbox-only' NOT NULL CONSTRAINT `mail_outbox_delivery_check` CHECK(`delivery` in ('outbox-only','pending','sent','failed'));--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `last_error` text;--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `delivered_at` integer;--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `message_id` text;--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `reply_to` text;
