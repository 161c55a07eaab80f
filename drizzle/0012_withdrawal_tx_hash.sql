-- The withdrawal timeline: an approved withdrawal records the BEP20 transaction that paid it, so
-- the member can follow it on BscScan. Rows approved before this migration keep a null hash (the
-- timeline says none was recorded); nothing else changes.
ALTER TABLE `withdrawals` ADD `tx_hash` text;
