-- Why a withdrawal was rejected: QA's reject takes an optional reason (a default when none is
-- given), kept with the withdrawal so the member's timeline and rejection notice say it. Rows
-- rejected before this migration keep a null reason (the timeline then names none); nothing else changes.
ALTER TABLE `withdrawals` ADD `reject_reason` text;
