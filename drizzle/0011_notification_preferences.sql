-- Notification preferences (an extension of the stand-in): a member's in-app and email choice per
-- event type, a row only once a default is changed. Security notices are always sent and never stored.
CREATE TABLE `notification_preferences` (
	`member_id` integer NOT NULL,
	`event` text NOT NULL,
	`in_app` integer NOT NULL,
	`email` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`member_id`, `event`),
	CONSTRAINT "notification_preferences_event" CHECK("notification_preferences"."event" <> 'security')
);
