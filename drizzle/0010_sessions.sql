-- Sign-in sessions: one row per token signed (its jti), so a token can be revoked before it
-- expires (logout, "sign out this one", a password, email or 2FA change) and the member can list
-- where they are signed in. Tokens signed before this migration carry no jti and are refused as
-- expired: each member signs in once more.
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`member_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	`user_agent` text,
	`ip` text,
	`revoked_at` integer
);
--> statement-breakpoint
CREATE INDEX `sessions_member` ON `sessions` (`member_id`);