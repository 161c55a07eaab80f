-- Idempotency keys of money moves (an extension of the stand-in): the answer to a member's keyed
-- move, written in the move's transaction, so a retry with the key is answered from here and moves
-- nothing. Pruned by age through the created_at index.
-- (This migration's snapshot is the whole schema: 0010–0014 were written by hand on stale snapshots.)
CREATE TABLE `idempotency_keys` (
	`member_id` integer NOT NULL,
	`key` text NOT NULL,
	`procedure` text NOT NULL,
	`fingerprint` text NOT NULL,
	`status` integer NOT NULL,
	`body` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`member_id`, `key`)
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_created` ON `idempotency_keys` (`created_at`);
